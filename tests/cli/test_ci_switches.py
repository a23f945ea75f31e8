"""CI switches as ruff and hadolint have them, through the console command:
`--ignore-suppressions` (hadolint's `--disable-ignore-pragma`), suppression reasons
(`# vllm-config: disable=VC101 -- reason`), `--statistics` and `--exit-zero`."""

from __future__ import annotations

import json
from pathlib import Path

from support import cli

SUPPRESSED = (
    "model: m\n"
    "swap-space: 16  # vllm-config: disable=VC101 -- the chart sets it, disable=VC999\n"
    "max-num-seqs: lots  # vllm-config: disable=VC201\n"
    "enable-prefix-caching: false\n"
)


def _config(tmp_path: Path, text: str = SUPPRESSED) -> Path:
    path = tmp_path / "serve.vllm.yaml"
    path.write_text(text)
    return path


def test_suppressions_hide_and_ignore_suppressions_reports_them(tmp_path: Path) -> None:
    path = str(_config(tmp_path))
    honoured = cli("check", path, "--format", "json")
    assert honoured.returncode == 0  # only the VC104 warning is left
    assert [row["code"] for row in json.loads(honoured.stdout)] == ["VC104"]
    ignored = cli("check", path, "--format", "json", "--ignore-suppressions")
    assert ignored.returncode == 1  # the errors the comments hid count again
    rows = json.loads(ignored.stdout)
    assert [(row["code"], row["suppression"]) for row in rows] == [
        # the reason is what follows `--`; no directive is read in it (no VC999)
        ("VC101", {"line": 2, "reason": "the chart sets it, disable=VC999"}),
        ("VC201", {"line": 3, "reason": None}),
        ("VC104", None),
    ]
    text = cli("check", path, "--ignore-suppressions").stdout
    assert "    suppressed: line 2 -- the chart sets it, disable=VC999" in text
    assert "    suppressed: line 3 (no reason given)" in text
    sarif = json.loads(cli("check", path, "--ignore-suppressions", "--format", "sarif").stdout)
    (first, *_rest) = sarif["runs"][0]["results"]
    assert first["ruleId"] == "VC101"
    assert first["properties"]["vllmConfigSuppression"]["reason"].startswith("the chart")
    assert "suppressions" not in first  # code scanning would close it


def test_statistics_as_ruff_prints_them(tmp_path: Path) -> None:
    path = str(_config(tmp_path))
    table = cli("check", path, "--statistics", "--ignore-suppressions")
    assert table.returncode == 1
    assert table.stdout.splitlines() == [
        "1\tVC101\t[ ] unknown-flag",
        "1\tVC104\t[*] false-dropped",
        "1\tVC201\t[ ] invalid-value",
    ]
    twice = _config(tmp_path, "model: m\nmax-num-seqs: lots\nmax-model-len: long\n")
    counted = cli("check", str(twice), "--statistics", "--format", "json")
    assert json.loads(counted.stdout) == [
        {"code": "VC201", "name": "invalid-value", "count": 2, "fixable": 0}
    ]


def test_exit_zero(tmp_path: Path) -> None:
    path = str(_config(tmp_path))
    assert cli("check", path, "--ignore-suppressions").returncode == 1
    quiet = cli("check", path, "--ignore-suppressions", "--exit-zero")
    assert quiet.returncode == 0 and "error VC201" in quiet.stdout
    assert cli("check", path, "--fail-on", "warning", "--exit-zero").returncode == 0
    # usage and I/O errors still say 2
    assert cli("check", str(tmp_path / "missing.vllm.yaml"), "--exit-zero").returncode == 2
