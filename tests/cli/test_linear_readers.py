"""Readers and fixes whose work grew with the square of the input (issue 30, "superlinear
readers"), run through the CLI with bounded memory and bounded CPU seconds.

- A Dockerfile `CMD` continued over 8,000 lines: the joined shell form's words were moved
  back to the document by rebuilding the position map once per word (2,000 lines 12 s,
  8,000 lines over 200 s before `sources.source_map`; 2.7 s now, the interpreter's start
  included).
- 16,000 unknown keys in one flow mapping or JSON string: each "Remove `kN`" fix built the
  list of the mapping's member spans and searched the member in it (8,000 keys 15 s in a
  flow mapping, 24 s in a JSON string; 3-4 s now).
- A shell script of 32,000 `export`s and 640 command lines: each command line took every
  export before it into its checks and their memo key (23 s and 1.24 GB for this 800 KB
  script; 3.7 s and 130 MB now, only the settings vLLM's checks read are kept past 64).

CPU time, not wall time, so a loaded machine does not fail them; the bound is several
times what the linear work needs and a fraction of what the quadratic one did."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import pytest
from support import bounded_cli, limit_memory

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_AS, RLIMIT_CPU")

CPU_SECONDS = 30
LINES = 8_000
KEYS = 16_000


def _bounded() -> None:
    import resource

    limit_memory()
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


def _codes(path: Path) -> Counter[str]:
    result = bounded_cli("check", "--format", "json", str(path), preexec=_bounded)
    assert result.returncode == 1, result.stderr[-2000:]
    return Counter(row["code"] for row in json.loads(result.stdout))


def test_a_cmd_continued_over_8000_lines(tmp_path: Path) -> None:
    path = tmp_path / "Dockerfile"
    flags = "".join(f"  --max-model-len {n} \\\n" for n in range(LINES))
    path.write_text(
        "FROM vllm/vllm-openai:v0.33.0\nCMD vllm serve facebook/opt-125m \\\n"
        f"{flags}  --max-num-seqs x\n"
    )
    codes = _codes(path)
    assert codes["VC201"] == 1  # --max-num-seqs x, on the last line


@pytest.mark.parametrize("spelling", ["flow mapping", "JSON string"])
def test_16000_unknown_keys_in_one_mapping(tmp_path: Path, spelling: str) -> None:
    if spelling == "flow mapping":
        value = "{" + ", ".join(f"k{n}: 1" for n in range(KEYS)) + "}"
    else:
        value = "'{" + ", ".join(f'"k{n}": 1' for n in range(KEYS)) + "}'"
    path = tmp_path / "serve.vllm.yaml"
    path.write_text(f"model: m\ncompilation-config: {value}\n")
    assert _codes(path) == {"VC204": KEYS}


def test_each_removal_fix_removes_its_own_key(tmp_path: Path) -> None:
    """The fixes of a mapping's members, built from one index of it: the first, a middle
    and the last member each lose themselves and one comma."""
    path = tmp_path / "serve.vllm.yaml"
    path.write_text("model: m\ncompilation-config: {k0: 1, k1: 2, k2: 3}\n")
    result = bounded_cli("check", "--format", "json", str(path))
    rows = json.loads(result.stdout)
    text = path.read_text()
    after: dict[str, str] = {}
    for row in rows:
        assert row["fix"]["title"].startswith("Remove")
        [edit] = row["fix"]["edits"]
        lines = text.splitlines(keepends=True)
        start = sum(map(len, lines[: edit["line"] - 1])) + edit["column"] - 1
        end = sum(map(len, lines[: edit["end_line"] - 1])) + edit["end_column"] - 1
        after[row["message"].split("`")[1]] = text[:start] + edit["new_text"] + text[end:]
    assert after == {
        "compilation-config.k0": "model: m\ncompilation-config: {k1: 2, k2: 3}\n",
        "compilation-config.k1": "model: m\ncompilation-config: {k0: 1, k2: 3}\n",
        "compilation-config.k2": "model: m\ncompilation-config: {k0: 1, k1: 2}\n",
    }


def test_a_script_of_32000_exports_and_640_command_lines(tmp_path: Path) -> None:
    """The `VLLM_` setting among the other exports is still read on every command line."""
    lines = ["#!/bin/bash", "export VLLM_LOGGING_LEVLE=INFO"]
    for n in range(32_000):
        lines.append(f"echo step {n}; export V{n}=value{n}")
        if n % 50 == 0:
            lines.append(f"vllm serve m --max-num-seqs {n + 1}")
    lines.append("vllm serve m --max-num-seqs x")
    path = tmp_path / "serve.sh"
    path.write_text("\n".join(lines) + "\n")
    codes = _codes(path)
    assert codes["VC201"] == 1
    assert codes["VC240"] >= 1  # VLLM_LOGGING_LEVLE: did you mean VLLM_LOGGING_LEVEL
    assert set(codes) == {"VC201", "VC240"}


#: CPU seconds for the script of 20,000 exports and 4,000 command lines: 4.5 s are needed
#: (the interpreter's start included, 400 MB); reading each command line's whole
#: environment in Python (4,000 x 10,000 exports on average) took 14.9 s (700 MB).
SHARED_CPU_SECONDS = 9


def test_20000_exports_shared_by_4000_command_lines(tmp_path: Path) -> None:
    """The command lines of one script share the exports before them: what two starts
    share is read once (`engine._EnvironReader`), not once per start. The same command
    line each time, so the checks themselves are remembered; a `VLLM_` export after the
    last shared one is still read (VC240 on the last start only)."""
    lines = ["#!/bin/bash"]
    for n in range(20_000):
        lines.append(f"export V{n}={n}")
        if n % 5 == 0:
            lines.append("vllm serve m")
    lines += ["export VLLM_LOGGING_LEVLE=INFO", "vllm serve m --max-num-seqs x"]
    path = tmp_path / "serve.sh"
    path.write_text("\n".join(lines) + "\n")

    def bounded() -> None:
        import resource

        limit_memory()
        resource.setrlimit(resource.RLIMIT_CPU, (SHARED_CPU_SECONDS, SHARED_CPU_SECONDS))

    # RLIMIT_CPU bounds the work; the wall-clock timeout only catches a hang (at load 20
    # on two cores the 4.5 s of CPU took 90 s)
    result = bounded_cli("check", "--format", "json", str(path), preexec=bounded, timeout=600)
    assert result.returncode == 1, result.stderr[-2000:]
    rows = json.loads(result.stdout)
    assert Counter(row["code"] for row in rows) == {"VC201": 1, "VC240": 1}
    assert {row["line"] for row in rows} == {len(lines) - 1, len(lines)}
