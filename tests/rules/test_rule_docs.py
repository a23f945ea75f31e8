"""Each rule's docstring is its documentation and its fixture: the `## Example` block must
trigger the rule, the `## Fixed` block must not, and every fix offered on the example must
remove the finding, keep the file valid YAML, and leave comments elsewhere alone."""

from __future__ import annotations

import re
import sys

import pytest
from support import REPO, apply_fix, comment_lines
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules import Rule, all_rules

sys.path.insert(0, str(REPO / "tools"))
from generate_rule_docs import render_all

RULES = {rule.code: rule for rule in all_rules()}


@pytest.fixture(autouse=True)
def _fixture_models(monkeypatch: pytest.MonkeyPatch) -> None:
    """Model-aware rules (VC6xx) name Hub models in their examples; their config.json files
    are hand-written fixtures under tests/fixtures/models/<org>/<name>/."""
    monkeypatch.setenv("VLLM_CONFIG_MODEL_DIRS", str(REPO / "tests" / "fixtures" / "models"))


def _block(rule: Rule, heading: str) -> str:
    match = re.search(rf"## {heading}\n```(?:yaml|sh)\n(.*?)```", rule.doc, re.S)
    assert match, f"{rule.code}: docstring lacks a '## {heading}' yaml (or sh) block"
    return match.group(1)


def _host(rule: Rule) -> str | None:
    """Rules about the command line itself (`vllm serve --model …`) show a shell example."""
    return "shell" if "## Example\n```sh\n" in rule.doc else None


def _found(text: str, code: str) -> list[Finding]:
    return [f for f in lint(text, host=_host(RULES[code])).findings if f.code == code]


@pytest.mark.parametrize("code", sorted(RULES))
def test_docstring_has_the_sections(code: str) -> None:
    doc = RULES[code].doc
    assert "## What vLLM does" in doc
    _block(RULES[code], "Example")
    _block(RULES[code], "Fixed")


@pytest.mark.parametrize("code", sorted(RULES))
def test_example_triggers_and_fixed_does_not(code: str) -> None:
    rule = RULES[code]
    example, fixed = _block(rule, "Example"), _block(rule, "Fixed")
    assert _found(example, code), f"{code}: its Example does not trigger it"
    assert not _found(fixed, code), f"{code}: its Fixed example still triggers it"
    errors = [f for f in lint(fixed, host=_host(rule)).findings if f.severity == 3]
    assert not errors, errors


@pytest.mark.parametrize("code", sorted(RULES))
def test_every_fix_on_the_example_works(code: str) -> None:
    example = "# keep this comment\n" + _block(RULES[code], "Example") + "# and this one\n"
    found = _found(example, code)
    if not found or example.count("\n") > 40:
        pytest.skip("no finding to fix")
    for finding in found:
        for fix in finding.fixes:
            fixed = apply_fix(example, fix)
            assert comment_lines(fixed) == comment_lines(example), fix.title
            after = [f for f in _found(fixed, code) if f.start == finding.start]
            assert len(_found(fixed, code)) < len(found) or not after, (fix.title, fixed)


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
