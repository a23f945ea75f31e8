"""One entry point for every front end: text in, findings out.

The CLI and the language server both call `lint`; neither holds rule logic. Rules run in
code order and a crashing rule becomes an internal-error finding instead of a traceback, so
one bug never hides the other diagnostics.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from vllm_config_lsp.findings import Finding, Severity, apply_edits, safe_fix_edits
from vllm_config_lsp.rules import Rule, all_rules
from vllm_config_lsp.rules.suppression import apply as apply_suppressions
from vllm_config_lsp.vllm.catalogue import load_catalogue
from vllm_config_lsp.vllm.config_model import ConfigModel, build_model

#: Files larger than this are not parsed (a config is a few KB; this keeps editors responsive).
MAX_BYTES = 2_000_000

INTERNAL_ERROR = "VC000"

#: Applying one fix can reveal the next (a renamed key then gets its value checked); a few
#: rounds reach the fixed point on every case seen, and the bound keeps a fix loop finite.
FIX_ROUNDS = 5


@dataclass
class LintResult:
    findings: list[Finding]
    model: ConfigModel | None


def _selected(
    rules: Iterable[Rule], select: set[str] | None, ignore: set[str] | None
) -> list[Rule]:
    chosen = []
    for rule in rules:
        if select and not any(rule.code.startswith(s) for s in select):
            continue
        if ignore and any(rule.code.startswith(s) for s in ignore):
            continue
        chosen.append(rule)
    return chosen


def lint(
    text: str,
    *,
    version: str | None = None,
    select: set[str] | None = None,
    ignore: set[str] | None = None,
    model_on_cli: bool | None = None,
    path: Path | None = None,
    model_dirs: Iterable[Path] = (),
) -> LintResult:
    """`path` (the file on disk) and `model_dirs` let model-aware rules find the model's
    files: relative model folders are resolved against the file's folder."""
    if len(text) > MAX_BYTES:
        return LintResult(
            [
                Finding(
                    INTERNAL_ERROR,
                    Severity.ERROR,
                    0,
                    0,
                    f"file is larger than {MAX_BYTES:,} characters; not checked",
                )
            ],
            None,
        )
    if version is None:  # front ends pass their choice; else the file's own marker counts
        from vllm_config_lsp.vllm.versions import choose_version

        version = choose_version(text)[0]
    model = build_model(
        text,
        load_catalogue(version),
        model_on_cli=model_on_cli,
        path=path,
        model_dirs=tuple(model_dirs),
    )
    findings: list[Finding] = []
    rules = [rule for rule in all_rules() if rule.applies_to(model.version)]
    selected = _selected(rules, select, ignore)
    for rule in selected:
        try:
            findings.extend(rule.check(model))
        except Exception:  # a rule bug must not take the other diagnostics down
            detail = traceback.format_exc(limit=-1).strip().splitlines()[-1]
            findings.append(
                Finding(
                    INTERNAL_ERROR,
                    Severity.WARNING,
                    0,
                    0,
                    f"internal error in rule {rule.code}: {detail}",
                )
            )
    # `# vllm-config: disable=…` comments apply to every front end alike
    try:
        findings = apply_suppressions(model, findings, {rule.code for rule in selected})
    except Exception:  # a suppression bug must not hide the findings either
        detail = traceback.format_exc(limit=-1).strip().splitlines()[-1]
        findings.append(
            Finding(
                INTERNAL_ERROR, Severity.WARNING, 0, 0, f"internal error in suppression: {detail}"
            )
        )
    findings.sort(key=Finding.sort_key)
    return LintResult(findings, model)


def fix_all(
    text: str, findings: list[Finding], relint: Callable[[str], list[Finding]]
) -> tuple[str, list[Finding]]:
    """`check --fix` and the editor's fixAll: apply the safe fixes, check again, repeat up
    to `FIX_ROUNDS` times. `relint` checks a text with the caller's settings."""
    for _ in range(FIX_ROUNDS):
        edits = safe_fix_edits(findings)
        if not edits:
            break
        text = apply_edits(text, edits)
        findings = relint(text)
    return text, findings
