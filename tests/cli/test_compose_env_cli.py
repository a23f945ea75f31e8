"""`vllm-config-lsp argv`/`check` read a compose file's `${VAR}` from the `.env` file beside
it, as `docker compose up` does when the shell does not set the name, on the real files of
tests/sources/data/compose-env/ (SOURCES.md): a finding on a filled reference points at its
`.env` line, and no fix writes over the reference."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from support import REPO, cli, sarif_errors

DATA = REPO / "tests" / "sources" / "data" / "compose-env"


def _folder(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    shutil.copytree(DATA / name, folder)
    return folder


def _env_line(folder: Path, name: str) -> int:
    """The 1-based line of the `.env` file that sets `name`."""
    lines = (folder / ".env").read_text(encoding="utf-8").splitlines()
    return 1 + next(i for i, line in enumerate(lines) if line.startswith(f"{name}="))


def _check(path: Path, *options: str) -> list[dict[str, object]]:
    done = cli("check", "--format", "json", "--vllm-version", "0.33.0", *options, str(path))
    assert done.returncode in (0, 1), done.stderr
    findings: list[dict[str, object]] = json.loads(done.stdout)
    return findings


def test_argv_has_the_values_of_the_env_file(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "aristote")
    done = cli("argv", "--format", "json", str(folder / "docker-compose.yml"))
    assert done.returncode == 0, done.stderr
    [start] = json.loads(done.stdout)
    written = dict(
        line.split("=", 1)
        for line in (folder / ".env").read_text(encoding="utf-8").splitlines()
        if "=" in line and not line.startswith("#")
    )
    assert start["argv"] == [
        "--env",
        f"HUGGING_FACE_HUB_TOKEN={written['HF_TOKEN']}",
        "--model",
        written["MODEL_NAME"],
        "--dtype",
        written["DTYPE"],
        "--tensor-parallel-size",
        written["TENSOR_PARALLEL_SIZE"],
    ]
    # before the `.env` file is there, the same words are unknown (as compose's shell may set them)
    (folder / ".env").unlink()
    done = cli("argv", "--format", "json", str(folder / "docker-compose.yml"))
    [start] = json.loads(done.stdout)
    assert start["argv"][3] == "${MODEL_NAME}"


def test_a_finding_on_a_filled_reference_points_at_the_env_line(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "harbor")
    path = folder / "compose.vllm.yml"
    [finding] = [f for f in _check(path) if f["code"] == "VC384"]
    text = path.read_text(encoding="utf-8")
    line = text[: text.index("${HARBOR_VLLM_MODEL_SPECIFIER}")].count("\n") + 1
    assert finding["line"] == line
    assert finding["fix"] is None  # moving `--model` would write over the reference
    [related] = finding["related"]
    assert isinstance(related, dict)
    assert related["file"] == str(folder / ".env")
    assert related["line"] == _env_line(folder, "HARBOR_VLLM_MODEL_SPECIFIER")
    assert related["column"] == 1
    shown = cli("check", "--vllm-version", "0.33.0", str(path)).stdout
    assert f"note: {folder / '.env'}:{related['line']}:1: `HARBOR_VLLM_MODEL_SPECIFIER`" in shown
    sarif = json.loads(cli("check", "--format", "sarif", str(path)).stdout)
    assert sarif_errors(sarif) == []
    [result] = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "VC384"]
    [location] = result["relatedLocations"]
    assert location["physicalLocation"]["artifactLocation"]["uri"] == (folder / ".env").as_uri()
    assert location["physicalLocation"]["region"]["startLine"] == related["line"]


def test_a_value_the_env_file_gets_wrong_is_reported_and_not_rewritten(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "aristote")
    env = folder / ".env"
    env.write_text(env.read_text(encoding="utf-8").replace("DTYPE=float16", "DTYPE=float17"))
    path = folder / "docker-compose.yml"
    [finding] = [f for f in _check(path) if f["code"] == "VC202"]
    assert "invalid choice: 'float17'" in str(finding["message"])
    assert finding["fix"] is None
    [related] = finding["related"]
    assert isinstance(related, dict) and related["line"] == _env_line(folder, "DTYPE")


def test_fix_keeps_every_reference(tmp_path: Path) -> None:
    for name, compose in (("harbor", "compose.vllm.yml"), ("aristote", "docker-compose.yml")):
        folder = _folder(tmp_path, name)
        path = folder / compose
        before = path.read_text(encoding="utf-8")
        cli("check", "--fix", "--vllm-version", "0.33.0", str(path))
        after = path.read_text(encoding="utf-8")
        assert re.findall(r"\$\{\w+\}", after) == re.findall(r"\$\{\w+\}", before)
        assert (folder / ".env").read_text(encoding="utf-8") == (DATA / name / ".env").read_text(
            encoding="utf-8"
        )
