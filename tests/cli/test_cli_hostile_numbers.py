"""Numbers from outside are bounded: a version of 5,000 digits (past Python's int digit
limit) wherever a version is read, and hostile numbers in a model's config.json, give
findings or "unknown", never a traceback or an internal error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import cli

HUGE_VERSION = "0." + "1" * 5000
CONFIG = "model: m\nmax-num-seqs: x\n"


def _lay_out(root: Path, where: str) -> Path:
    """A config whose release comes from a 5,000-digit version in `where`."""
    config = root / "serve.vllm.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    if where == "comment":
        config.write_text(f"# vllm-config: version={HUGE_VERSION}\n" + CONFIG, encoding="utf-8")
    elif where == "image tag":
        (root / "Dockerfile").write_text(f"FROM vllm/vllm-openai:v{HUGE_VERSION}\n")
    elif where == "METADATA":
        dist = root / ".venv/lib/python3.11/site-packages/vllm-0.10.2.dist-info"
        dist.mkdir(parents=True)
        (dist / "METADATA").write_text(f"Name: vllm\nVersion: {HUGE_VERSION}\n\n")
    return config


@pytest.mark.parametrize("where", ["comment", "image tag", "METADATA"])
def test_a_5000_digit_version_names_no_release(tmp_path: Path, where: str) -> None:
    config = _lay_out(tmp_path, where)
    for target in (config, tmp_path):  # the file named, and the folder walked
        report = cli("check", "--format", "json", str(target))
        assert report.returncode == 1, report.stderr
        assert [row["code"] for row in json.loads(report.stdout)] == ["VC201"]


def test_a_5000_digit_vllm_version_option_is_refused(tmp_path: Path) -> None:
    config = _lay_out(tmp_path, "option")
    report = cli("check", "--vllm-version", HUGE_VERSION, str(config))
    assert report.returncode == 2
    assert "unknown vLLM version" in report.stderr
    assert "Traceback" not in report.stderr
