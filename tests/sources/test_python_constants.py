"""Module-level constants in Python launchers (issue 28: hosts): `HF_MODEL = "Qwen/…"`
assigned once at module level and used as an argv item, `str(NAME)`, an f-string field or
a `+` operand is known, read (and reported) where the module writes it; a name assigned
twice, bound by the function around its use, declared `global` in a function, or bound
under a module-level `if` stays unknown. Real files: Modal's `vllm_inference.py`
(tests/sources/test_python_calls.py) and the notebooks of tests/sources/test_notebook.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support import cli

LAUNCHER = """\
import subprocess

HF_MODEL = "Qwen/Qwen3-4B"
MAX_LEN = 8192
SEQS: int = 8
PORT = 8000


def start(PORT):
    args = [
        "python", "-m", "vllm.entrypoints.openai.api_server",
        f"--model={HF_MODEL}",
        "--max-model-len", str(MAX_LEN),
        "--max-num-seqs", SEQS,
        "--port", str(PORT),
    ]
    return subprocess.Popen(args)


subprocess.run("vllm serve " + HF_MODEL + f" --max-model-len {MAX_LEN!r}", shell=True)
"""


def _json(command: str, path: Path) -> list[dict[str, Any]]:
    run = cli(command, "--format", "json", str(path))
    assert run.returncode in (0, 1), run.stderr
    return list(json.loads(run.stdout))


def test_constants_are_known_where_they_are_used(tmp_path: Path) -> None:
    path = tmp_path / "launch.py"
    path.write_text(LAUNCHER, encoding="utf-8")
    found = _json("argv", path)
    assert [start["argv"] for start in found] == [
        [
            *("--model=Qwen/Qwen3-4B", "--max-model-len", "8192", "--max-num-seqs", "8"),
            *("--port", "{str(PORT)}"),  # the function's parameter, not the constant
        ],
        ["Qwen/Qwen3-4B", "--max-model-len", "{MAX_LEN!r}"],  # `!r`: not filled in
    ]


@pytest.mark.parametrize(
    "rebinding",
    [
        "HF_MODEL = 'Qwen/Qwen3-8B'\n",  # assigned twice
        "if True:\n    HF_MODEL = 'x'\n",  # bound again under an `if`
        "for HF_MODEL in ['a']:\n    pass\n",
        "def reset():\n    global HF_MODEL\n    HF_MODEL = 'b'\n",
        "from models import HF_MODEL\n",
    ],
)
def test_a_name_bound_again_stays_unknown(rebinding: str, tmp_path: Path) -> None:
    path = tmp_path / "launch.py"
    path.write_text(LAUNCHER + rebinding, encoding="utf-8")
    first = _json("argv", path)[0]["argv"]
    assert first[0] == "--model={HF_MODEL}"
    assert first[1:5] == ["--max-model-len", "8192", "--max-num-seqs", "8"]


def test_a_finding_on_a_constant_lands_and_is_fixed_where_the_module_writes_it(
    tmp_path: Path,
) -> None:
    """`FLAG = "--max-num-seq"` used as a list item: the abbreviation is reported on the
    literal, and its fix renames it there; the list item stays as written."""
    path = tmp_path / "launch.py"
    text = LAUNCHER.replace("MAX_LEN = 8192", 'FLAG = "--max-num-seq"').replace(
        '"--max-num-seqs", SEQS', "FLAG, SEQS"
    )
    path.write_text(text, encoding="utf-8")
    [finding] = [f for f in _json("check", path) if f["code"] == "VC103"]
    assert (finding["line"], finding["column"]) == (4, 9)  # inside `FLAG = "--max-num-seq"`
    [edit] = finding["fix"]["edits"]
    lines = text.splitlines(keepends=True)
    line = lines[edit["line"] - 1]
    lines[edit["line"] - 1] = (
        line[: edit["column"] - 1] + edit["new_text"] + line[edit["end_column"] - 1 :]
    )
    path.write_text("".join(lines), encoding="utf-8")
    assert 'FLAG = "--max-num-seqs"' in path.read_text(encoding="utf-8")
    assert [f for f in _json("check", path) if f["code"] == "VC103"] == []
