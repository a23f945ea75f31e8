"""The start-up warnings catalogue (docs/catalogue/vllm-warnings-0.33.0.json): generated,
reproducible from the wheel by its one command, and every rule's `warn.` id names an entry
of it (so docs/coverage.md links real warnings)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from support import REPO
from vllm_config_lsp.rules import all_rules

CATALOGUE = REPO / "docs" / "catalogue" / "vllm-warnings-0.33.0.json"
NOT_IMPLEMENTED = REPO / "docs" / "catalogue" / "not-implemented" / "warnings.json"


def _data() -> dict[str, object]:
    data = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_marked_generated_and_classified() -> None:
    data = _data()
    assert "generate_warning_catalogue.py" in str(data["generated"])
    entries = data["warnings"]
    assert isinstance(entries, list)
    assert {e["kind"] for e in entries} == {"STATIC", "MODEL", "PLATFORM"}
    assert {e["effect"] for e in entries} <= {
        "ignored",
        "overridden",
        "deprecated",
        "fallback",
        "changed",
        "caution",
    }
    for entry in entries:
        assert entry["id"].startswith("warn."), entry
        assert entry["source"].startswith("vllm/") and ":" in entry["source"], entry
        assert entry["message"] and entry["function"], entry
    others = data["not_applicable"]
    assert isinstance(others, list)
    assert all(other["reason"] for other in others)


def test_rule_ids_and_reasons_name_catalogued_warnings() -> None:
    ids = {entry["id"] for entry in _data()["warnings"]}  # type: ignore[union-attr]
    claimed = {code for rule in all_rules() for code in rule.catalogue if code.startswith("warn.")}
    assert claimed <= ids, sorted(claimed - ids)
    reasons = json.loads(NOT_IMPLEMENTED.read_text(encoding="utf-8"))
    assert set(reasons) <= ids - claimed, sorted(set(reasons) - (ids - claimed))


def test_every_warning_is_implemented_or_has_a_reason() -> None:
    """STATIC, MODEL and PLATFORM alike: a rule claims it, or a reason of its own says why
    none does (issue 29: the MODEL and PLATFORM sites the registry and the GPU table
    decide are implemented, the rest listed with why)."""
    claimed = {code for rule in all_rules() for code in rule.catalogue}
    reasons = json.loads(NOT_IMPLEMENTED.read_text(encoding="utf-8"))
    every = {e["id"] for e in _data()["warnings"]}  # type: ignore[union-attr]
    assert every - claimed - set(reasons) == set()


@pytest.mark.skipif(
    os.environ.get("VLLM_CONFIG_LSP_REGEN_TEST") != "1",
    reason="set VLLM_CONFIG_LSP_REGEN_TEST=1 (reads or downloads the vLLM 0.33.0 wheel)",
)
def test_regenerates_identical() -> None:
    script = str(REPO / "tools" / "generate_warning_catalogue.py")
    subprocess.run([sys.executable, script, "--check"], check=True)
