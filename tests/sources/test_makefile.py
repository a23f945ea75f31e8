"""Makefile recipes as a host of vLLM starts (issue 28, item 1).

On the real Makefiles of `data/makefile/` (SOURCES.md cites each) every start is found on
its line by `vllm-config-lsp argv --format json`, with the argv GNU make itself hands the
shell (`make -n` prints it; the shell reader reads that as the oracle), make's `$(VAR)`
references unresolved and reported on by nothing, and a fix applied stays a Makefile make
runs.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from support import cli
from vllm_config_lsp.engine import Document, check
from vllm_config_lsp.findings import apply_edits
from vllm_config_lsp.sources import shell
from vllm_config_lsp.sources.hosts import host_of
from vllm_config_lsp.sources.makefile import find_invocations

DATA = Path(__file__).resolve().parent / "data" / "makefile"
#: file → (line, first argv words) of each start, as read by hand.
EXPECTED = {
    "lewidi2025/Makefile": [(11, ["Qwen/Qwen3-4B", "--dtype", "auto"])],
    "Faithful_Summarization/eval.mk": [(42, ["--model", "$(MODEL_NAME)"])],
    "llm_app/Makefile": [
        (5, ["--model", "Qwen/Qwen2.5-VL-3B-Instruct"]),
        (19, ["--model", "openai/whisper-large-v3-turbo"]),
    ],
    "vini/Makefile": [(5, ["NousResearch/Meta-Llama-3-8B-Instruct", "--dtype", "auto"])],
    "gpt_practice/Makefile": [
        (2, ["ibm-granite/granite-3.1-2b-base"]),
        (5, ["ibm-granite/granite-3.1-2b-instruct"]),
        (8, ["ibm-granite/granite-3.1-2b-instruct"]),
        (12, ["ibm-granite/granite-3.1-8b-instruct"]),
    ],
}
#: The files whose recipes use no make variable: `make -n` prints what our reader reads.
WITHOUT_VARIABLES = ["lewidi2025/Makefile", "llm_app/Makefile", "vini/Makefile"]
MAKE = shutil.which("make")


def test_the_data_is_cited() -> None:
    cited = (DATA / "SOURCES.md").read_text(encoding="utf-8")
    for name in EXPECTED:
        assert f"| {name} |" in cited
        assert host_of(str(DATA / name), "") == "makefile"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_argv_finds_each_start_on_its_line(name: str) -> None:
    result = cli("argv", "--format", "json", str(DATA / name))
    assert result.returncode == 0, result.stderr
    starts = json.loads(result.stdout)
    got = [
        (start["line"], start["argv"][: len(words)])
        for start, (_, words) in zip(starts, EXPECTED[name], strict=True)
    ]
    assert got == EXPECTED[name]
    assert {start["source"] for start in starts} == {"makefile"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_flag_is_where_the_file_writes_it(name: str) -> None:
    text = (DATA / name).read_text(encoding="utf-8")
    found = find_invocations(text)
    assert len(found) == len(EXPECTED[name])
    for invocation in found:
        for word in invocation.args:
            if word.text.startswith("--") and word.resolved:
                assert text[word.start : word.end] == word.text
                assert text[: word.start].count("\n") + 1 >= EXPECTED[name][0][0]
            if "$(" in text[word.start : word.end]:
                assert not word.resolved, word


@pytest.mark.skipif(MAKE is None, reason="GNU make is not installed")
@pytest.mark.parametrize("name", WITHOUT_VARIABLES)
def test_the_argv_is_the_one_make_hands_the_shell(name: str) -> None:
    path = DATA / name
    text = path.read_text(encoding="utf-8")
    ours = [[word.text for word in inv.args] for inv in find_invocations(text)]
    targets = [line.split(":")[0] for line in text.splitlines() if line.endswith(":")]
    printed = ""
    for target in targets:
        run = subprocess.run(
            [str(MAKE), "-n", "-f", str(path), target], capture_output=True, text=True, check=True
        )
        printed += run.stdout
    theirs = [[word.text for word in inv.args] for inv in shell.find_invocations(printed)]
    assert ours == theirs


def test_make_references_are_unresolved_and_nothing_is_reported_on_them() -> None:
    path = DATA / "Faithful_Summarization" / "eval.mk"
    text = path.read_text(encoding="utf-8")
    [invocation] = find_invocations(text)
    unresolved = [word for word in invocation.args if not word.resolved]
    assert {word.text for word in unresolved} >= {"$(MODEL_NAME)", "$(PORT)", "$(HOST)"}
    result = cli("check", "--format", "json", str(path))
    for finding in json.loads(result.stdout):
        line = text.splitlines()[finding["line"] - 1]
        assert "$(" not in line[finding["column"] - 1 : finding["end_column"] - 1], finding


def test_make_syntax_before_the_shell() -> None:
    text = (
        "MODEL ?= x\n"
        "CMD = vllm serve --not-a-recipe\n"
        "define BLOCK\n\tvllm serve --inside-define\nendef\n"
        "serve: deps ; vllm serve inline --port 1\n"
        "run:\n"
        "\t@-echo start\n"
        "ifeq ($(X),1)\n"
        "\t@ vllm serve $(MODEL) --api-key '$(KEY)' --x $$HOME \\\n"
        '\t\t--served-model-name "a\\\n'
        '\tb" --tp $${TP} --out $@\n'
        "endif\n"
        "other = 1\n"
        "\tvllm serve --after-an-assignment\n"
    )
    found = find_invocations(text)
    assert [[word.text for word in inv.args] for inv in found] == [
        ["inline", "--port", "1"],
        [
            "$(MODEL)",
            "--api-key",
            "$(KEY)",
            "--x",
            "$HOME",
            "--served-model-name",
            "ab",
            "--tp",
            "${TP}",
            "--out",
            "$@",
        ],
    ]
    words = {word.text: word for word in found[1].args}
    assert words["$(KEY)"].unresolved == ("$(KEY)",)  # make expands inside single quotes
    home = words["$HOME"]
    assert not home.resolved and text[home.start : home.end] == "$$HOME"
    assert words["$@"].unresolved == ("$@",)
    assert [text[at] for at in words["ab"].starts] == ["a", "b"]


def test_recipe_prefix_and_oneshell() -> None:
    text = (
        ".ONESHELL:\n.RECIPEPREFIX = >\n"
        "serve:\n> export VLLM_LOGGING_LEVEL=DEBUG\n> vllm serve m --port 2\n"
    )
    [invocation] = find_invocations(text)
    assert [word.text for word in invocation.args] == ["m", "--port", "2"]
    assert [var.name.text for var in invocation.environ] == ["VLLM_LOGGING_LEVEL"]


def test_a_fix_applied_is_a_makefile_make_runs(tmp_path: Path) -> None:
    source = DATA / "lewidi2025" / "Makefile"
    text = source.read_text(encoding="utf-8")
    checked = check(Document(text, path=source))
    assert checked.host == "makefile"
    [finding] = [f for f in checked.findings if f.code == "VC101"]
    assert finding.fixes
    fixed = apply_edits(text, finding.fixes[0].edits)
    [invocation] = find_invocations(fixed)
    words = [word.text for word in invocation.args]
    assert "--task" not in words and words[-2:] == ["--port", "8000"]
    if MAKE is not None:
        path = tmp_path / "Makefile"
        path.write_text(fixed, encoding="utf-8")
        run = subprocess.run(
            [MAKE, "-n", "-f", str(path), "vllm-qwen3-thinking"],
            capture_output=True,
            text=True,
            check=True,
        )
        [printed] = shell.find_invocations(run.stdout)
        assert [word.text for word in printed.args] == words
