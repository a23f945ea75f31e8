"""Forms of vLLM starts found missed or misread on fresh public files (the recall round),
each tested on the real file that showed it (tests/sources/data/recall/, SOURCES.md) and
on the smallest script of the same form, and the files of other servers that look like
vLLM's (tests/sources/data/other-servers/, SOURCES.md), on which nothing is reported:

* a command line built in a variable and run behind a wrapper (`exec $CMD`, `nohup $CMD`)
  is a start, as a bare `$CMD` is;
* a string's expansions happen where it is assigned: `CMD="… '$TP'"` then `eval $CMD`
  passes the value of `$TP`, not the text `$TP`;
* a Helm template that prints a values list whole (`{{- toYaml .Values.x | nindent 8 }}`
  under `command:`/`args:`) takes the values file's list items as the container's words.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from support import apply_json_fix, cli

DATA = Path(__file__).resolve().parent / "data"
RECALL = DATA / "recall"
CHART = RECALL / "vllm-kserve"
OTHERS = sorted(
    path
    for path in (DATA / "other-servers").rglob("*")
    if path.is_file() and path.name != "SOURCES.md"
)


def _argv(path: Path) -> list[dict[str, Any]]:
    done = cli("argv", "--format", "json", str(path))
    assert done.returncode == 0, done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def _findings(path: Path) -> list[dict[str, Any]]:
    done = cli("check", "--format", "json", str(path))
    assert done.returncode in (0, 1), done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return [finding for finding in found if finding["code"] != "VC600"]


def test_a_built_command_line_run_by_exec_is_a_start() -> None:
    (start,) = _argv(CHART / "templates" / "servingruntime-multinode.yaml")
    assert start["line"] == 30  # `python3` inside `CMD="…"`, not the `exec $CMD` line
    assert start["argv"][:3] == ["--distributed-executor-backend", "ray", "--model=${MODEL_NAME}"]


@pytest.mark.parametrize(
    ("runner", "starts"),
    [
        ("$CMD", 1),
        ("exec $CMD", 1),
        ("nohup $CMD > log 2>&1 &", 1),
        ('exec "$CMD"', 0),  # one word: bash looks for a program of that whole name
        ("echo $CMD", 0),
        ("printf '%s' $CMD", 0),
    ],
)
def test_wrappers_in_front_of_a_built_command_line(
    tmp_path: Path, runner: str, starts: int
) -> None:
    script = tmp_path / "serve.sh"
    script.write_text(f'CMD="vllm serve org/model --port 8001"\n{runner}\n', encoding="utf-8")
    found = _argv(script)
    assert len(found) == starts, found
    if starts:
        assert found[0]["argv"][-2:] == ["--port", "8001"]


def test_a_value_put_in_before_eval_reads_quotes_is_unknown() -> None:
    path = RECALL / "endpoints-entrypoint.sh"
    (start,) = _argv(path)
    at = start["argv"].index("--tensor-parallel-size")
    assert start["argv"][at + 1] == "$NUM_SHARD"
    codes = {(finding["code"], finding["line"]) for finding in _findings(path)}
    assert not any(code == "VC201" for code, _ in codes)  # no "invalid int value '$NUM_SHARD'"
    assert ("VC101", 51) in codes  # `--use-v2-block-manager` is really gone


@pytest.mark.parametrize(
    ("value", "refused"),
    [
        ("'$TP'", False),  # the value of $TP, whatever it is
        ('\\"$TP\\"', False),
        ("'abc'", True),  # a literal vLLM refuses stays an error
        ("'$TP'x", False),
    ],
)
def test_eval_of_a_string_with_quoted_expansions(tmp_path: Path, value: str, refused: bool) -> None:
    script = tmp_path / "serve.sh"
    script.write_text(
        f'CMD="vllm serve org/model --tensor-parallel-size {value}"\neval $CMD\n',
        encoding="utf-8",
    )
    codes = [finding["code"] for finding in _findings(script)]
    assert ("VC201" in codes) is refused, codes


def test_helm_values_lists_printed_whole_by_toyaml() -> None:
    values = CHART / "values.yaml"
    found = {tuple(start["argv"]): start for start in _argv(values)}
    runtime = found[("--port=8080", "--model=/mnt/models")]  # ServingRuntime `args:`
    assert runtime["line"] == 145  # the first item the values file writes
    (model,) = [argv for argv in found if "--gpu-memory-utilization=0.90" in argv]
    assert model[-1] == "--gpu-memory-utilization=0.90"  # KServe `model.args` appended


def test_a_finding_on_a_listed_value_is_fixed_in_the_values_file(tmp_path: Path) -> None:
    chart = tmp_path / "vllm-kserve"
    shutil.copytree(CHART, chart)
    values = chart / "values.yaml"
    text = values.read_text(encoding="utf-8")
    written = "    - --model=/mnt/models\n"
    values.write_text(text.replace(written, written + "    - --swap-space=4\n", 1), "utf-8")
    (finding,) = [finding for finding in _findings(values) if finding["code"] == "VC101"]
    assert (finding["line"], finding["column"]) == (147, 7)
    fixed = apply_json_fix(values.read_text(encoding="utf-8"), finding["fix"])
    assert fixed == text
    values.write_text(fixed, encoding="utf-8")
    assert not [finding for finding in _findings(values) if finding["code"] == "VC101"]


def test_a_toyaml_of_anything_but_a_list_of_scalars_stays_a_template(tmp_path: Path) -> None:
    chart = tmp_path / "vllm-kserve"
    shutil.copytree(CHART, chart)
    values = chart / "values.yaml"
    text = values.read_text(encoding="utf-8")
    listed = "  args:\n    - --port=8080\n    - --model=/mnt/models\n"
    assert listed in text
    values.write_text(text.replace(listed, "  args:\n    port: 8080\n", 1), encoding="utf-8")
    assert not [start for start in _argv(values) if "--port=8080" in start["argv"]]


def test_the_other_servers_data_is_cited() -> None:
    cited = (DATA / "other-servers" / "SOURCES.md").read_text(encoding="utf-8")
    kinds = {path.relative_to(DATA / "other-servers").parts[0] for path in OTHERS}
    assert kinds >= {"sglang", "litellm", "llama-cpp", "trl", "lightllm", "workflow"}
    for path in OTHERS:
        assert f"| {path.relative_to(DATA / 'other-servers').as_posix()} |" in cited


@pytest.mark.parametrize("path", OTHERS, ids=lambda path: path.name)
def test_files_of_other_servers_start_no_vllm(path: Path) -> None:
    assert _argv(path) == []
    done = cli("check", str(path))
    assert (done.returncode, done.stdout) == (0, ""), done.stdout
