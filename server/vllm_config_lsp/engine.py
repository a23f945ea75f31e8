"""One entry point for every front end: text in, findings out.

The CLI and the language server both call `lint`; neither holds rule logic. Rules run in
code order and a crashing rule becomes an internal-error finding instead of a traceback, so
one bug never hides the other diagnostics.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

from vllm_config_lsp.findings import Finding, Severity, apply_edits, safe_fix_edits
from vllm_config_lsp.rules import FIRST_IMPERATIVE_CODE, Rule, all_rules
from vllm_config_lsp.rules.suppression import apply as apply_suppressions
from vllm_config_lsp.sources.hosts import find_invocations
from vllm_config_lsp.sources.invocation import GpuClaim, Invocation, own_findings
from vllm_config_lsp.vllm.catalogue import load_catalogue
from vllm_config_lsp.vllm.config_model import (
    ConfigModel,
    build_invocation_model,
    build_model,
    host_document,
)
from vllm_config_lsp.vllm.hardware import Stated, Target, resolve_target
from vllm_config_lsp.vllm.versions import choose_version, invocation_release

#: Files larger than this are not parsed (a config is a few KB; this keeps editors responsive).
MAX_BYTES = 2_000_000

INTERNAL_ERROR = "VC000"

#: Applying one fix can reveal the next (a renamed key then gets its value checked); a few
#: rounds reach the fixed point on every case seen, and the bound keeps a fix loop finite.
FIX_ROUNDS = 5


class LintResult:
    """What `lint` found. For a host of command lines, the per-command-line models (hover,
    completion, code lenses, tests) are built on first use, not on every keystroke: the
    findings of a command line a keystroke did not touch come from the engine's memo."""

    def __init__(
        self,
        findings: list[Finding],
        model: ConfigModel | None,
        command_lines: Sequence[CommandLine] = (),
        document: ConfigModel | None = None,
    ) -> None:
        self.findings = findings
        self._model = model
        #: Every vLLM command line of a host document, with the release it is checked for.
        self.command_lines = list(command_lines)
        #: What `# vllm-config: disable=` comments are read against: the `--config` file's
        #: model, or the host document's text with its first command line.
        self.document = document if document is not None else model

    @cached_property
    def invocations(self) -> list[ConfigModel]:
        """One model per vLLM command line of a host document (empty for a `--config` file)."""
        return [line.model() for line in self.command_lines]

    @property
    def model(self) -> ConfigModel | None:
        """The `--config` file's model, or the first command line's."""
        if self._model is None and self.command_lines:
            return self.invocations[0]
        return self._model


@dataclass(frozen=True)
class CommandLine:
    """One command line of a host document and how to build what vLLM makes of it."""

    text: str
    invocation: Invocation
    release: str
    path: Path | None
    model_dirs: tuple[Path, ...]
    #: The target the user states outside the document (CLI, editor setting).
    stated: Stated | None = None

    @cached_property
    def target(self) -> Target | None:
        return _target(self.text, self.invocation.gpus, self.stated)

    def model(self) -> ConfigModel:
        model = build_invocation_model(
            self.text,
            load_catalogue(self.release),
            self.invocation,
            path=self.path,
            model_dirs=self.model_dirs,
        )
        model.target = self.target
        return model


def _target(text: str, claims: Sequence[GpuClaim], stated: Stated | None) -> Target | None:
    """The target hardware; a bug in reading it leaves the file without one (the checks it
    decides stay off) rather than taking the other diagnostics down."""
    try:
        return resolve_target(text, claims, stated)
    except Exception:
        return None


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
        if not rule.applies_to(model.catalogue):
            continue
        try:
            findings.extend(rule.run(model))
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
    gpus: Stated | None = None,
) -> LintResult:
    """`path` (the file on disk) and `model_dirs` let model-aware rules find the model's
    files: relative model folders are resolved against the file's folder. `host` is the
    source kind of a document that holds command lines (`sources.hosts.host_of`); None
    checks the text as a `--config` file. `version_stated`: the user named the release
    (`--vllm-version`, the setting, the marker comment), which image tags do not override.
    `gpus`: the target the user states (`--gpu`/`--gpus`, the editor setting); the marker
    comment and what the document says are read here."""
    if len(text) > MAX_BYTES:
        return _too_large()
    if version is None:  # front ends pass their choice; else the file's own marker counts
        version = choose_version(text)[0]
    rules = _selected(all_rules(), select, ignore)
    if host is not None:
        where = (path, tuple(model_dirs))
        return _lint_host(text, host, version, rules, where, version_stated, gpus)
    model = build_model(
        text,
        load_catalogue(version),
        model_on_cli=model_on_cli,
        path=path,
        model_dirs=tuple(model_dirs),
    )
    model.target = _target(text, (), gpus)
    findings = _suppressed(model, _run_rules(model, rules), rules)
    findings.sort(key=Finding.sort_key)
    return LintResult(findings, model)


def _lint_host(
    text: str,
    host: str,
    version: str,
    rules: list[Rule],
    where: tuple[Path | None, tuple[Path, ...]],
    version_stated: bool,
    gpus: Stated | None,
) -> LintResult:
    """Every command line of a host document, each on its own; suppression comments
    apply to the document as a whole. `where`: the file and the model folders."""
    path, model_dirs = where
    try:
        invocations = find_invocations(host, text, path)
    except Exception:  # a host parser bug must not take the editor down
        return LintResult([_internal(f"the {host} reader")], None)
    lines = [
        CommandLine(text, invocation, release, path, model_dirs, gpus)
        for invocation in invocations
        for release in [invocation_release(invocation, version, stated=version_stated)[0]]
    ]
    ran = tuple(rule.code for rule in rules)
    findings = [found for line in lines for found in _command_line_findings(line, rules, ran)]
    findings = own_findings(findings, text)  # a chart template's words: it reports them
    document = None
    if lines:
        document = host_document(text, load_catalogue(version), invocations[0])
        findings = _suppressed(document, findings, rules)
    findings.sort(key=Finding.sort_key)
    return LintResult(findings, None, lines, document)


@dataclass(frozen=True)
class _Checked:
    """A command line's findings, in offsets from the start of its first line."""

    findings: tuple[Finding, ...]
    #: The line the command line started on, when a message names a line number (then a
    #: move to another line is a new check).
    line: int | None


#: Findings of the command lines checked lately, by what they depend on: their lines' text,
#: their words' shape relative to it, the release, the rules run and where model folders are
#: looked for. A keystroke changes one command line of a long script or recipe; the others
#: are found here instead of being checked again. (A model folder that appears on disk is
#: seen at the next edit of that command line, as a `--config` file sees it at its next edit.)
_CHECKED: dict[tuple[object, ...], _Checked] = {}
_CHECKED_LIMIT = 2048


def forget_checked() -> None:
    """Drop the command-line memo: the files it was computed from changed (a model's
    config.json fetched into the cache)."""
    _CHECKED.clear()


_NAMES_LINE = re.compile(r"\bline \d")


def _command_line_findings(
    line: CommandLine, rules: list[Rule], ran: tuple[str, ...]
) -> list[Finding]:
    """Each command line is checked on its own, against the release its own image or pin
    names (unless the user named one; else the front end's choice); findings on words vLLM
    will not see as written (`$TP`, `{{ .Values.x }}`) are dropped: unknown is not wrong.
    Where a word may expand to any arguments (`$EXTRA_ARGS`, `"$@"`), the checks that
    combine settings (VC300 on) are dropped too; per-flag checks (unknown flags, types,
    choices, bounds) stay."""
    text, invocation = line.text, line.invocation
    low, high = _extent(text, invocation)
    target = line.target
    key = (
        text[low:high],
        _shape(invocation, low),
        line.release,
        ran,
        line.path,
        line.model_dirs,
        None if target is None else replace(target, start=0, end=0, count_start=0, count_end=0),
    )
    memo = _CHECKED.get(key)
    if memo is not None and (memo.line is None or memo.line == text.count("\n", 0, low)):
        return [_moved(found, low) for found in memo.findings]
    model = line.model()
    unknown = [(w.start, w.end) for w in invocation.args if not w.resolved]
    findings = []
    for found in _run_rules(model, rules):
        if any(start < found.end and found.start < end for start, end in unknown):
            continue
        if model.open_ended and found.code >= FIRST_IMPERATIVE_CODE:
            continue  # `$EXTRA_ARGS` may set (or override) what the check needs
        findings.append(found)
    if all(_within(found, low, high) for found in findings):
        if len(_CHECKED) >= _CHECKED_LIMIT:
            del _CHECKED[next(iter(_CHECKED))]  # the oldest
        names_line = any(_NAMES_LINE.search(found.message) for found in findings)
        _CHECKED[key] = _Checked(
            tuple(_moved(found, -low) for found in findings),
            text.count("\n", 0, low) if names_line else None,
        )
    return findings


def _extent(text: str, invocation: Invocation) -> tuple[int, int]:
    """The whole lines the command line and its fixes touch."""
    starts = [invocation.start, *(word.start for word in invocation.args)]
    ends = [invocation.end, *(word.end for word in invocation.args)]
    if invocation.insert_at is not None:
        starts.append(invocation.insert_at)
        ends.append(invocation.insert_at)
    low = text.rfind("\n", 0, min(starts)) + 1
    high = text.find("\n", max(ends))
    return low, len(text) if high == -1 else high


def _shape(invocation: Invocation, low: int) -> tuple[object, ...]:
    """What the host made of the lines, relative to their start (the same text in another
    context, e.g. with another image, is another command line)."""
    return (
        invocation.source,
        invocation.entrypoint,
        invocation.start - low,
        invocation.image,
        invocation.pinned_version,
        tuple(
            (w.text, w.start - low, w.end - low, w.unresolved, w.quoting, w.splat)
            for w in invocation.args
        ),
    )


def _within(found: Finding, low: int, high: int) -> bool:
    spans = [edit for fix in found.fixes for edit in fix.edits] + list(found.related)
    return low <= found.start <= found.end <= high and all(
        low <= span.start <= span.end <= high for span in spans
    )


def _moved(found: Finding, by: int) -> Finding:
    fixes = tuple(
        replace(fix, edits=tuple(replace(e, start=e.start + by, end=e.end + by) for e in fix.edits))
        for fix in found.fixes
    )
    related = tuple(replace(r, start=r.start + by, end=r.end + by) for r in found.related)
    return replace(found, start=found.start + by, end=found.end + by, fixes=fixes, related=related)


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
