"""One entry point for every front end: text in, findings out.

The CLI and the language server both call `lint`; neither holds rule logic. Rules run in
code order and a crashing rule becomes an internal-error finding instead of a traceback, so
one bug never hides the other diagnostics.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from vllm_config_lsp.findings import Finding, Severity, apply_edits, safe_fix_edits
from vllm_config_lsp.rules import FIRST_IMPERATIVE_CODE, Rule, all_rules
from vllm_config_lsp.rules.suppression import apply as apply_suppressions
from vllm_config_lsp.sources.hosts import find_invocations
from vllm_config_lsp.sources.invocation import own_findings
from vllm_config_lsp.vllm.catalogue import load_catalogue
from vllm_config_lsp.vllm.config_model import ConfigModel, build_invocation_model, build_model
from vllm_config_lsp.vllm.versions import choose_version, invocation_release

#: Files larger than this are not parsed (a config is a few KB; this keeps editors responsive).
MAX_BYTES = 2_000_000

INTERNAL_ERROR = "VC000"

#: Applying one fix can reveal the next (a renamed key then gets its value checked); a few
#: rounds reach the fixed point on every case seen, and the bound keeps a fix loop finite.
FIX_ROUNDS = 5


@dataclass
class LintResult:
    findings: list[Finding]
    #: The `--config` file's model, or the first command line's.
    model: ConfigModel | None
    #: One model per vLLM command line of a host document (empty for a `--config` file).
    invocations: list[ConfigModel] = field(default_factory=list)


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


def _internal(what: str) -> Finding:
    detail = traceback.format_exc(limit=-1).strip().splitlines()[-1]
    return Finding(INTERNAL_ERROR, Severity.WARNING, 0, 0, f"internal error in {what}: {detail}")


def _too_large() -> LintResult:
    message = f"file is larger than {MAX_BYTES:,} characters; not checked"
    return LintResult([Finding(INTERNAL_ERROR, Severity.ERROR, 0, 0, message)], None)


def _run_rules(model: ConfigModel, rules: list[Rule]) -> list[Finding]:
    findings: list[Finding] = []
    for rule in rules:
        if not rule.applies_to(model.version):
            continue
        try:
            findings.extend(rule.check(model))
        except Exception:  # a rule bug must not take the other diagnostics down
            findings.append(_internal(f"rule {rule.code}"))
    return findings


def _suppressed(model: ConfigModel, findings: list[Finding], rules: list[Rule]) -> list[Finding]:
    """`# vllm-config: disable=…` comments apply to every front end and host alike."""
    try:
        return apply_suppressions(model, findings, {rule.code for rule in rules})
    except Exception:  # a suppression bug must not hide the findings either
        return [*findings, _internal("suppression")]


def lint(
    text: str,
    *,
    version: str | None = None,
    select: set[str] | None = None,
    ignore: set[str] | None = None,
    model_on_cli: bool | None = None,
    path: Path | None = None,
    model_dirs: Iterable[Path] = (),
    host: str | None = None,
    version_stated: bool = False,
) -> LintResult:
    """`path` (the file on disk) and `model_dirs` let model-aware rules find the model's
    files: relative model folders are resolved against the file's folder. `host` is the
    source kind of a document that holds command lines (`sources.hosts.host_of`); None
    checks the text as a `--config` file. `version_stated`: the user named the release
    (`--vllm-version`, the setting, the marker comment), which image tags do not override."""
    if len(text) > MAX_BYTES:
        return _too_large()
    if version is None:  # front ends pass their choice; else the file's own marker counts
        version = choose_version(text)[0]
    rules = _selected(all_rules(), select, ignore)
    if host is not None:
        return _lint_host(text, host, version, rules, path, tuple(model_dirs), version_stated)
    model = build_model(
        text,
        load_catalogue(version),
        model_on_cli=model_on_cli,
        path=path,
        model_dirs=tuple(model_dirs),
    )
    findings = _suppressed(model, _run_rules(model, rules), rules)
    findings.sort(key=Finding.sort_key)
    return LintResult(findings, model)


def _lint_host(
    text: str,
    host: str,
    version: str,
    rules: list[Rule],
    path: Path | None,
    model_dirs: tuple[Path, ...],
    version_stated: bool,
) -> LintResult:
    """Each command line is checked on its own, against the release its own image or pin
    names (unless the user named one; else the front end's choice); findings on words vLLM
    will not see as written (`$TP`, `{{ .Values.x }}`) are dropped: unknown is not wrong.
    Where a word may expand to any arguments (`$EXTRA_ARGS`, `"$@"`), the checks that
    combine settings (VC300 on) are dropped too; per-flag checks (unknown flags, types,
    choices, bounds) stay."""
    try:
        invocations = find_invocations(host, text, path)
    except Exception:  # a host parser bug must not take the editor down
        return LintResult([_internal(f"the {host} reader")], None)
    models: list[ConfigModel] = []
    findings: list[Finding] = []
    for invocation in invocations:
        release = invocation_release(invocation, version, stated=version_stated)[0]
        model = build_invocation_model(
            text, load_catalogue(release), invocation, path=path, model_dirs=model_dirs
        )
        models.append(model)
        unknown = [(w.start, w.end) for w in invocation.args if not w.resolved]
        for found in _run_rules(model, rules):
            if any(start < found.end and found.start < end for start, end in unknown):
                continue
            if model.open_ended and found.code >= FIRST_IMPERATIVE_CODE:
                continue  # `$EXTRA_ARGS` may set (or override) what the check needs
            findings.append(found)
    findings = own_findings(findings, text)  # a chart template's words: it reports them
    if models:
        findings = _suppressed(models[0], findings, rules)
    findings.sort(key=Finding.sort_key)
    return LintResult(findings, models[0] if models else None, models)


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
