"""`check --format sarif` as GitHub code scanning reads it, validated against the SARIF
2.1.0 JSON schema (tests/fixtures/sarif/, with its source in SOURCES.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
from support import REPO, cli

SCHEMA = json.loads((REPO / "tests/fixtures/sarif/sarif-schema-2.1.0.json").read_text())
EXAMPLES = REPO / "examples"


def _sarif(*args: str) -> dict[str, Any]:
    result = cli("check", "--format", "sarif", *args)
    assert result.returncode in (0, 1), result.stderr
    log: dict[str, Any] = json.loads(result.stdout)
    return log


def test_sarif_of_the_examples_is_valid_sarif_2_1_0() -> None:
    log = _sarif(str(EXAMPLES), "--ignore-suppressions")
    jsonschema.Draft4Validator.check_schema(SCHEMA)
    errors = sorted(jsonschema.Draft4Validator(SCHEMA).iter_errors(log), key=str)
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "vllm-config-lsp" and driver["informationUri"].startswith("https://")
    rules = driver["rules"]
    for rule in rules:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        # helpUri is the published form of the offline page docs/rules/<CODE>.md
        prefix = "https://github.com/vllm-config-lsp/vllm-config-lsp/blob/main/"
        assert rule["helpUri"] == f"{prefix}docs/rules/{rule['id']}.md"
        assert (REPO / rule["helpUri"].removeprefix(prefix)).is_file(), rule["helpUri"]
    results = run["results"]
    assert len(results) > 5
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in {"error", "warning", "note"}
        (location,) = result["locations"]
        region = location["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert not location["physicalLocation"]["artifactLocation"]["uri"].startswith("/")
    assert {"error", "warning"} <= {result["level"] for result in results}


def test_a_fix_is_a_sarif_fix(tmp_path: Path) -> None:
    seed = EXAMPLES / "qwen2.5-vl-encoder-budgets.vllm.yaml"
    (result,) = (r for r in _sarif(str(seed))["runs"][0]["results"] if r["ruleId"] == "VC301")
    assert result["level"] == "error"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (4, 37)
    (fix,) = result["fixes"]
    assert fix["description"]["text"].startswith("Remove the non-positive budget")
    (change,) = fix["artifactChanges"]
    assert (
        change["artifactLocation"]["uri"]
        == result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    )
    (replacement,) = change["replacements"]
    assert replacement["deletedRegion"]["startLine"] == 4
    # the fix applied to the file is the one `check --fix` makes
    copy = tmp_path / seed.name
    copy.write_text(seed.read_text())
    lines = copy.read_text().splitlines(keepends=True)
    deleted = replacement["deletedRegion"]
    assert deleted["startLine"] == deleted["endLine"]
    line = lines[deleted["startLine"] - 1]
    lines[deleted["startLine"] - 1] = (
        line[: deleted["startColumn"] - 1]
        + replacement["insertedContent"]["text"]
        + line[deleted["endColumn"] - 1 :]
    )
    assert cli("check", "--fix", str(copy)).returncode in (0, 1)
    assert copy.read_text() == "".join(lines)
