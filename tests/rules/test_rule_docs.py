"""Each rule's docstring is its documentation and its fixture: the `## Example` block must
trigger the rule, the `## Fixed` block must not, and every fix offered on the example must
remove the finding, keep the file valid YAML, and leave comments elsewhere alone."""

from __future__ import annotations

import re
import sys

import pytest
from support import REPO, apply_fix, comment_lines, findings_of
from vllm_config_lsp.engine import lint
from vllm_config_lsp.rules import Rule, all_rules

sys.path.insert(0, str(REPO / "tools"))
from generate_rule_docs import render_all

RULES = {rule.code: rule for rule in all_rules()}
#: Rules whose examples say their GPU in the marker comment (`# vllm-config: gpu=…`).
TARGET_MARKER = "# vllm-config: gpu="


def _reads_targets() -> bool:
    """Whether the engine reads a target from the marker comment (the memory rules' examples
    need it; until it does they are skipped)."""
    result = lint(f"{TARGET_MARKER}H100-80GB count=1\nmodel: m\n")
    return result.model is not None and result.model.target is not None


def _needs_target(rule: Rule) -> None:
    if TARGET_MARKER in rule.doc and not _reads_targets():
        pytest.skip("the engine reads no target from the marker comment")


@pytest.fixture(autouse=True)
def _fixture_models(monkeypatch: pytest.MonkeyPatch) -> None:
    """Model-aware rules (VC6xx) name Hub models in their examples; their config.json files
    are hand-written fixtures under tests/fixtures/models/<org>/<name>/."""
    monkeypatch.setenv("VLLM_CONFIG_MODEL_DIRS", str(REPO / "tests" / "fixtures" / "models"))


def _block(rule: Rule, heading: str) -> str:
    match = re.search(rf"## {heading}\n```yaml\n(.*?)```", rule.doc, re.S)
    assert match, f"{rule.code}: docstring lacks a '## {heading}' yaml block"
    return match.group(1)


@pytest.mark.parametrize("code", sorted(RULES))
def test_docstring_has_the_sections(code: str) -> None:
    doc = RULES[code].doc
    assert "## What vLLM does" in doc
    _block(RULES[code], "Example")
    _block(RULES[code], "Fixed")


@pytest.mark.parametrize("code", sorted(RULES))
def test_example_triggers_and_fixed_does_not(code: str) -> None:
    rule = RULES[code]
    _needs_target(rule)
    example, fixed = _block(rule, "Example"), _block(rule, "Fixed")
    assert findings_of(example, code), f"{code}: its Example does not trigger it"
    assert not findings_of(fixed, code), f"{code}: its Fixed example still triggers it"
    assert not [f for f in lint(fixed).findings if f.severity == 3], lint(fixed).findings


@pytest.mark.parametrize("code", sorted(RULES))
def test_every_fix_on_the_example_works(code: str) -> None:
    _needs_target(RULES[code])
    example = "# keep this comment\n" + _block(RULES[code], "Example") + "# and this one\n"
    found = findings_of(example, code)
    if not found or example.count("\n") > 40:
        pytest.skip("no finding to fix")
    for finding in found:
        for fix in finding.fixes:
            fixed = apply_fix(example, fix)
            assert comment_lines(fixed) == comment_lines(example), fix.title
            after = [f for f in findings_of(fixed, code) if f.start == finding.start]
            assert len(findings_of(fixed, code)) < len(found) or not after, (fix.title, fixed)


def test_generated_docs_are_current() -> None:
    pages = render_all()
    docs = REPO / "docs"
    committed = {
        path.relative_to(docs).as_posix(): path.read_text(encoding="utf-8")
        for path in [*docs.glob("rules/*.md"), docs / "coverage.md"]
    }
    assert committed == pages, "run: python tools/generate_rule_docs.py"


def test_codes_are_unique_and_listed_by_the_cli() -> None:
    from support import cli

    listing = cli("rules").stdout
    for code, rule in RULES.items():
        assert f"{code}  {rule.name}" in listing
