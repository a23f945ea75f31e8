"""Command lines that break before vLLM sees them (issue 28 item 9), on real scripts with
the break a copy-paste makes (tests/sources/data/*/SOURCES.md cite the originals), through
the CLI: one finding at the break saying what the shell runs, a warning where vLLM starts
without the flags below (the break's fix, applied, gives back the original), an error where
vLLM never starts (a placeholder the shell reads as redirections; a Dockerfile exec form
that is not JSON, tests/sources/test_dockerfile.py)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from support import cli
from vllm_config_lsp.document.text_index import TextIndex

DATA = Path(__file__).resolve().parent / "data"
DOCKER = DATA / "real" / "Hiroaki-Masuzawa__llm_vlm_memo__run_qwen2.5-3b_cpu.sh"
DYNAMO = DATA / "dynamo" / "ai-dynamo__dynamo__examples__backends__vllm__launch__disagg.sh"


def _check(path: Path) -> list[dict[str, Any]]:
    done = cli("check", "--format", "json", "--vllm-version", "0.11.2", str(path))
    assert done.returncode in (0, 1), done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return [f for f in found if f["code"] == "VC009"]


def _argv(path: Path) -> list[list[str]]:
    done = cli("argv", "--format", "json", "--vllm-version", "0.11.2", str(path))
    return [start["argv"] for start in json.loads(done.stdout)]


def _fixed(text: str, found: dict[str, Any]) -> str:
    index = TextIndex(text)
    edits = [
        (
            index.offset_of(e["line"] - 1, e["column"] - 1),
            index.offset_of(e["end_line"] - 1, e["end_column"] - 1),
            e["new_text"],
        )
        for e in found["fix"]["edits"]
    ]
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


BROKEN = [
    # `docker run … IMAGE` without its `\`: the flags are a command of their own
    (DOCKER, "    vllm-cpu-env \\\n", "    vllm-cpu-env\n", 9, "`--model`", "line 8 does"),
    # ` \ --flag`: the backslash quotes the space, the line above ends the command
    (
        DYNAMO,
        "python3 -m dynamo.vllm \\\n    --model Qwen/Qwen3-0.6B \\\n",
        "python3 -m dynamo.vllm\n  \\ --model Qwen/Qwen3-0.6B \\\n",
        18,
        "` --model`",
        "`\\ ` at the start",
    ),
]


@pytest.mark.parametrize(
    ("path", "good", "bad", "line", "named", "how"), BROKEN, ids=["docker", "backslash-space"]
)
def test_a_broken_continuation_is_one_warning_whose_fix_restores_it(
    tmp_path: Path, path: Path, good: str, bad: str, line: int, named: str, how: str
) -> None:
    original = path.read_text(encoding="utf-8")
    assert _check(path) == []
    text = original.replace(good, bad)
    broken = tmp_path / path.name
    broken.write_text(text, encoding="utf-8")
    (found,) = _check(broken)
    assert (found["severity"], found["line"]) == ("warning", line)
    assert how in found["message"] and f"command named {named}" in found["message"]
    assert "vLLM starts without the flags" in found["message"]
    assert len(_argv(broken)[-1]) < len(_argv(path)[-1])  # what the shell really runs
    fixed = _fixed(text, found)
    broken.write_text(fixed, encoding="utf-8")
    assert subprocess.run(["bash", "-n", str(broken)], check=False).returncode == 0
    assert _check(broken) == []
    assert _argv(broken) == _argv(path)


def test_no_fix_where_the_line_above_ends_in_something_else(tmp_path: Path) -> None:
    path = tmp_path / "run.sh"
    path.write_text("vllm serve m > log 2>&1 &\n  --port 8000\n", encoding="utf-8")
    (found,) = _check(path)
    assert found["severity"] == "warning" and found["fix"] is None


def test_a_placeholder_read_as_redirections_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "run.sh"
    path.write_text(
        'vllm serve <model path> --port 8000\nvllm serve "<model path>" --port 8001\n',
        encoding="utf-8",
    )
    (found,) = _check(path)
    assert (found["severity"], found["line"], found["column"]) == ("error", 1, 12)
    assert "`<model` makes the command read the file `model`" in found["message"]
    assert found["fix"] is None  # what the placeholder stands for is the author's to say


def test_lines_that_continue_or_are_other_commands_are_no_break(tmp_path: Path) -> None:
    path = tmp_path / "run.sh"
    path.write_text(
        "vllm serve m \\\n  --port 1\ncase $1 in\n  --help) vllm serve m ;;\n  -x) :;;\nesac\n"
        "vllm serve m\necho --done\n",
        encoding="utf-8",
    )
    assert _check(path) == []


EXEC_FORM = DATA / "real" / "bq1024__Llama-3.2-1B__Dockerfile"


def test_an_exec_form_that_is_not_json_never_starts_and_its_fix_restores_it(
    tmp_path: Path,
) -> None:
    """A `.` for a `,` in a real continued exec-form CMD: Docker runs the whole text with
    `/bin/sh -c`, so vLLM never starts (an error); the start its author meant is still
    read, and the repair is the JSON Docker runs as exec form."""
    original = EXEC_FORM.read_text(encoding="utf-8")
    text = original.replace('"bfloat16", \\', '"bfloat16". \\')
    path = tmp_path / "Dockerfile"
    path.write_text(text, encoding="utf-8")
    (found,) = _check(path)
    assert (found["severity"], found["line"], found["column"]) == ("error", 3, 5)
    assert "/bin/sh -c" in found["message"] and "vLLM never starts" in found["message"]
    assert _argv(path) == _argv(EXEC_FORM)  # what its author meant
    path.write_text(_fixed(text, found), encoding="utf-8")
    assert path.read_text(encoding="utf-8") == original
    assert _check(path) == []
