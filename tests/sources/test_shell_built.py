"""Command lines a script builds before it runs them (issue 28 item 5): a string assigned
and appended to (`CMD+=" --flag"`, `CMD="$CMD --flag"`, under `if`/`case`/`&&`) and run by
`eval`, `sh -c`/`bash -c` or a bare `$CMD`; bash arrays built over several lines and run
by `"${ARGS[@]}"`. Each word maps back to where it was written; two exclusive arms are two
command lines, never one with a conflict. Real files: tests/sources/data/shell_built/ and
tests/sources/data/dynamo/ (SOURCES.md in each)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from source_support import texts
from support import cli
from vllm_config_lsp.document.text_index import TextIndex
from vllm_config_lsp.sources.shell import find_invocations

DATA = Path(__file__).resolve().parent / "data"
SERVE = DATA / "shell_built" / "Lhongpei__myHypotheSAEs__serve.sh"
BENCHMARK = (
    DATA
    / "dynamo"
    / ("vllm-project__vllm__.buildkite__nightly-benchmarks__scripts__launch-server.sh")
)


def _run(command: str, path: Path) -> list[dict[str, Any]]:
    done = cli(command, "--format", "json", "--vllm-version", "0.11.2", str(path))
    assert done.returncode in (0, 1), done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def _offset(text: str, line: int, column: int) -> int:
    return TextIndex(text).offset_of(line - 1, column - 1)


def _where(text: str, offset: int) -> tuple[int, int]:
    line, column = TextIndex(text).line_col(offset)
    return line + 1, column + 1


def test_real_string_appended_under_if_and_run_by_eval() -> None:
    text = SERVE.read_text(encoding="utf-8")
    (start,) = _run("argv", SERVE)
    assert (start["line"], start["column"]) == (13, 6)  # `vllm` inside the string
    assert start["argv"][-2:] == ["--max-model-len", "${MAX_MODEL_LEN}"]
    (invocation,) = find_invocations(text)
    appended = invocation.args[-2]
    assert _where(text, appended.start) == (20, 12)  # in `CMD+=" --max-model-len …"`
    assert text[appended.start : appended.end] == "--max-model-len"


def test_a_fix_in_an_appended_flag_edits_the_append(tmp_path: Path) -> None:
    path = tmp_path / "serve.sh"
    text = SERVE.read_text(encoding="utf-8").replace(
        '" --max-model-len ${MAX_MODEL_LEN}"', '" --max-model-lenn 4096"'
    )
    path.write_text(text, encoding="utf-8")
    (found,) = _run("check", path)
    assert (found["code"], found["line"], found["column"]) == ("VC101", 20, 12)
    (edit,) = found["fix"]["edits"]
    assert edit["new_text"] == "--max-model-len"
    start = _offset(text, edit["line"], edit["column"])
    end = _offset(text, edit["end_line"], edit["end_column"])
    fixed = text[:start] + edit["new_text"] + text[end:]
    assert '    CMD+=" --max-model-len 4096"\n' in fixed
    path.write_text(fixed, encoding="utf-8")
    assert subprocess.run(["bash", "-n", str(path)], check=False).returncode == 0
    assert _run("check", path) == []


def test_real_command_string_assigned_in_both_arms_is_two_starts() -> None:
    """vLLM's benchmark launcher assigns `server_command` in both arms of an `if` and runs
    it with `eval "$server_command"`: each arm is a start, on the string that writes it."""
    starts = [s for s in _run("argv", BENCHMARK) if s["line"] > 100]
    assert [(s["line"], s["column"]) for s in starts] == [(112, 21), (120, 21)]
    for start in starts:
        assert start["argv"][:4] == ["-tp", "$tp", "--model", "$model"]


EXCLUSIVE = """\
CMD="vllm serve Qwen/Qwen3-8B --dtype auto"
case "$MODE" in
  fast) CMD+=" --dtype half" ;;
  exact) CMD="$CMD --dtype float32" ;;
esac
[ -n "$SEED" ] && CMD="${CMD} --seed 1"
eval "$CMD"
"""


def test_exclusive_arms_are_separate_command_lines_never_one_conflict(tmp_path: Path) -> None:
    found = find_invocations(EXCLUSIVE)
    assert [texts(invocation)[-4:] for invocation in found] == [
        ["--dtype", "half", "--seed", "1"],
        ["--dtype", "float32", "--seed", "1"],
    ]
    path = tmp_path / "run.sh"
    path.write_text(EXCLUSIVE, encoding="utf-8")
    repeated = [f for f in _run("check", path) if f["code"] == "VC108"]
    # `--dtype auto` is set again on each way through (lines 3 and 4), never `half` by
    # `float32`: those two are never one command line
    assert [(f["line"], f["column"]) for f in repeated] == [(1, 31), (1, 31)]
    assert ["on line 3" in repeated[0]["message"], "on line 4" in repeated[1]["message"]] == [
        True,
        True,
    ]


@pytest.mark.parametrize(
    "run",
    ['eval "$CMD"', "eval $CMD", 'sh -c "$CMD"', 'bash -c "${CMD}"', "$CMD", "${CMD} &"],
)
def test_every_way_of_running_the_string(run: str) -> None:
    script = f'CMD="vllm serve m"\nCMD+=" --port 1"\n{run}\n'
    (invocation,) = find_invocations(script)
    assert texts(invocation) == ["m", "--port", "1"]
    assert script[invocation.start : invocation.end] == "vllm"
    port = invocation.args[1]
    assert script[port.start : port.end] == "--port"


def test_a_bare_expansion_splits_without_removing_quotes() -> None:
    script = 'CMD="vllm serve m --served-model-name \'a b\'"\n$CMD\neval "$CMD"\n'
    bare, evaluated = find_invocations(script)
    assert texts(bare)[-2:] == ["'a", "b'"]
    assert texts(evaluated)[-1] == "a b"


def test_arrays_built_over_several_lines() -> None:
    script = (
        "ARGS=(--max-num-seqs 8)\n"
        'if [ -n "$X" ]; then\n'
        "  ARGS+=(--gpu-memory-utilization 0.8)\n"
        "fi\n"
        'ARGS=("${ARGS[@]}" --seed 1)\n'
        'vllm serve m "${ARGS[@]}"\n'
        "VLLM=(vllm serve other)\n"
        "VLLM+=(--port 9000)\n"
        '"${VLLM[@]}" &\n'
    )
    flags, array = find_invocations(script)
    assert texts(flags) == [
        *("m", "--max-num-seqs", "8", "--gpu-memory-utilization", "0.8"),
        *("--seed", "1"),
    ]
    utilization = flags.args[3]
    assert _where(script, utilization.start) == (3, 10)
    assert texts(array) == ["other", "--port", "9000"]  # one start, with its append
    assert script[array.start : array.end] == "vllm"


def test_an_unrun_array_literal_and_an_unassigned_variable_are_as_before() -> None:
    (literal,) = find_invocations("CMD=(vllm serve m --port 1)\n")
    assert texts(literal) == ["m", "--port", "1"]
    (unknown,) = find_invocations('vllm serve m "${EXTRA[@]}" $MORE\n')
    assert [word.splat for word in unknown.args] == [False, True, True]
    assert find_invocations('eval "$CMD"\n$CMD --port 1\n') == []


def test_a_variable_set_in_a_subshell_or_another_function_does_not_reach_the_use() -> None:
    script = (
        'CMD="vllm serve m"\n'
        '( CMD+=" --port 1" )\n'
        'f() { CMD+=" --seed 2"; }\n'
        'echo x | CMD+=" --dtype half"\n'
        'eval "$CMD"\n'
    )
    (invocation,) = find_invocations(script)
    assert texts(invocation) == ["m"]


def test_a_real_command_string_run_by_bash_c() -> None:
    """zaidalyafeai/curator's `start_vllm_server.sh`: `CMD="…vllm serve …"` over six
    lines, run in the background by `bash -c "${CMD}" &`; the start is where the string
    writes `vllm`, holding the values the script assigns its variables before (expanded
    where `CMD` is assigned), and reported on by nothing."""
    path = (
        DATA / "shell_built" / "zaidalyafeai__curator__examples__vllm-online__start_vllm_server.sh"
    )
    (start,) = _run("argv", path)
    assert (start["line"], start["column"]) == (5, 5)
    assert start["argv"] == [
        *("/path/to/Qwen/Qwen2.5-3B-Instruct", "--host", "localhost", "--port", "8787"),
        *("--api-key", "token-abc123"),
    ]
    assert _run("check", path) == []
