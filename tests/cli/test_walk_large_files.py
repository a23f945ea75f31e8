"""A walk decides on a large file by its whole text when its head cannot decide (issue 30):
a Triton `model.json` longer than the 64 KB a walk first reads is no JSON in that head,
and a script may name vLLM only past it. Both are checked by `check DIR` as when named,
and by `--only-detected`; a file too large to read whole whose head does not decide is
passed over with a "not read: …" line under `-v`, never in silence and never as an error."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support import bounded_cli
from vllm_config_lsp.sources.association import DETECTION_BYTES
from vllm_config_lsp.sources.files import MAX_CONFIG_BYTES

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_AS")

UNKNOWN_KEYS = 6000


def _model_json(folder: Path) -> Path:
    """The issue's probe, smaller: unknown `compilation_config` keys in a JSON string push
    the object's closing brace past the walk's first read."""
    inner = json.dumps({f"k{n}": 1 for n in range(UNKNOWN_KEYS)})
    path = folder / "repo" / "vllm_model" / "1" / "model.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"model": "m", "max_model_len": 8, "compilation_config": inner}))
    assert path.stat().st_size > DETECTION_BYTES
    return path


def _codes(stdout: str) -> list[str]:
    return [finding["code"] for finding in json.loads(stdout)]


def test_a_walk_checks_a_model_json_larger_than_its_first_read(tmp_path: Path) -> None:
    _model_json(tmp_path)
    result = bounded_cli("check", "--format", "json", "repo", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert _codes(result.stdout) == ["VC204"] * UNKNOWN_KEYS


def test_only_detected_keeps_a_large_model_json(tmp_path: Path) -> None:
    path = _model_json(tmp_path)
    result = bounded_cli("check", "--only-detected", "--format", "json", str(path))
    assert result.returncode == 1, result.stderr
    assert len(_codes(result.stdout)) == UNKNOWN_KEYS


def test_a_walk_checks_a_script_that_names_vllm_past_its_first_read(tmp_path: Path) -> None:
    filler = "".join(f"echo step {n}\n" for n in range(DETECTION_BYTES // 10))
    (tmp_path / "serve.sh").write_text(f"#!/bin/bash\n{filler}vllm serve m --max-num-seqs x\n")
    result = bounded_cli("check", "--format", "json", str(tmp_path))
    assert result.returncode == 1, result.stderr
    assert _codes(result.stdout) == ["VC201"]


def test_a_file_too_large_to_decide_on_is_passed_over_and_said(tmp_path: Path) -> None:
    line = "echo nothing to see here\n"
    (tmp_path / "big.sh").write_text(line * (MAX_CONFIG_BYTES // len(line) + 1))
    (tmp_path / "serve.vllm.yaml").write_text("model: m\nmax-num-seqs: x\n")
    result = bounded_cli("check", "-v", "--format", "json", str(tmp_path))
    assert result.returncode == 1, result.stderr  # the config's error, not a read error
    assert _codes(result.stdout) == ["VC201"]
    assert f"big.sh: not read: larger than {MAX_CONFIG_BYTES:,} bytes" in result.stderr
    assert f"first {DETECTION_BYTES:,} bytes do not make it a vLLM file" in result.stderr
