"""Findings → LSP diagnostics, each carrying its fixes in `data`.

`data` holds the document version, every fix as ready-made LSP edits, and the edits behind
"Disable CODE for this line" and "… for this file", so a code-action request that echoes
the diagnostic can be answered without checking the document again (ruff and debputy do
the same). Clients that drop `data` (Emacs 29's eglot) get the same actions recomputed by
`lsp_actions`.

`codeDescription.href` is the rule's page in the repository (`docs/rules/<CODE>.md`, the
generated documentation), at the address the project declares (`pyproject.toml`
`project.urls`); a code without a page (VC000, an internal error) gets no link.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from vllm_config_lsp.findings import Finding, Fix, Related, Severity
from vllm_config_lsp.lsp.plain_text import plain
from vllm_config_lsp.lsp.positions import Positions
from vllm_config_lsp.lsp.settings import Settings
from vllm_config_lsp.rules import RULE_DOCS_URL as RULE_DOCS_URL  # + `<CODE>.md`: codeDescription

if TYPE_CHECKING:
    from vllm_config_lsp.lsp.session import Snapshot

SOURCE = "vllm-config"
FIX_ALL_KIND = "source.fixAll.vllm-config"

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
_OVERRIDE = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}
_TAGS = {"VC110": types.DiagnosticTag.Deprecated, "VC008": types.DiagnosticTag.Unnecessary}
#: Codes that get no "Disable … for this line" action: internal errors are bugs to report,
#: and an unused suppression is removed, not suppressed.
NOT_DISABLABLE = frozenset({"VC000", "VC008"})


def diagnostics(analysis: Snapshot, settings: Settings) -> list[types.Diagnostic]:
    assert analysis.result is not None
    out = []
    disabler = Disabler(analysis)
    for finding in analysis.result.findings:
        level = settings.severity_overrides.get(finding.code)
        if level == "off" or finding.code in settings.disabled_codes:
            continue
        severity = _OVERRIDE[level] if level else _SEVERITY[finding.severity]
        tag = _TAGS.get(finding.code)
        out.append(
            types.Diagnostic(
                range=analysis.positions.range(*received(analysis.text, finding)),
                message=plain(finding.message),
                severity=severity,
                code=finding.code,
                code_description=rule_page(finding.code),
                source=SOURCE,
                tags=[tag] if tag else None,
                data=finding_data(analysis, finding, disabler),
                related_information=related_information(analysis, finding),
            )
        )
    return out


def received(text: str, finding: Finding) -> tuple[int, int]:
    """What a finding underlines: the text vLLM receives, so a quoted value is underlined
    inside its quotes as a flag is (`"1.5"` → `1.5`); a span over several quoted words stays."""
    start, end = finding.start, finding.end
    quote = text[start] if end - start > 2 and end <= len(text) else ""
    if quote in ("'", '"') and text[end - 1] == quote and quote not in text[start + 1 : end - 1]:
        return start + 1, end - 1
    return start, end


def related_information(
    analysis: Snapshot, finding: Finding
) -> list[types.DiagnosticRelatedInformation] | None:
    """The other settings a finding involves, in this document (a chart template's text
    lies past the values file's end: not shown) or in the file its `place` names (the
    `.env` line a compose `${VAR}` takes its value from)."""
    places = [
        types.DiagnosticRelatedInformation(
            location=_location(analysis, r)
            if r.place is not None
            else types.Location(analysis.uri, analysis.positions.range(r.start, r.end)),
            message=plain(r.message),
        )
        for r in finding.related
        if r.place is not None or r.end <= len(analysis.text)
    ]
    return places or None


def _location(analysis: Snapshot, related: Related) -> types.Location:
    """A place in another file, its columns counted in the session's position encoding."""
    place = related.place
    assert place is not None
    line = Positions(place.line_text, analysis.positions.encoding).range(place.start, place.end)
    return types.Location(
        Path(place.path).absolute().as_uri(),
        types.Range(
            start=types.Position(line=place.line, character=line.start.character),
            end=types.Position(line=place.line, character=line.end.character),
        ),
    )


def rule_page(code: str) -> types.CodeDescription | None:
    """The link to a rule's documentation; None for codes without a page."""
    if code not in documented_codes():
        return None
    return types.CodeDescription(href=f"{RULE_DOCS_URL}{code}.md")


@cache
def documented_codes() -> frozenset[str]:
    """Codes with a page in docs/rules/: one per rule (`tools/generate_rule_docs.py`)."""
    from vllm_config_lsp.rules import all_rules

    return frozenset(rule.code for rule in all_rules())


class Disabler:
    """The "Disable CODE for this line / file" edits of one analysis (the document's
    layout is computed once, not per finding)."""

    def __init__(self, analysis: Snapshot) -> None:
        from vllm_config_lsp.rules.suppression import comments, layout

        self.analysis = analysis
        self.model = analysis.result.document if analysis.result else None
        self.where = layout(self.model) if self.model else None
        self.found = comments(self.model, self.where) if self.model else []
        #: "… for this file" depends on the code alone: once per code, not per finding
        #: (40,000 findings of one code cost 38 s when each looked at the whole text).
        self._file_edits: dict[str, dict[str, Any] | None] = {}

    def edit(self, finding: Finding) -> dict[str, Any] | None:
        from vllm_config_lsp.rules.suppression import disable_edit

        if self.model is None or finding.code in NOT_DISABLABLE:
            return None
        edit = disable_edit(self.model, finding.code, finding.start, self.where, self.found)
        return _edit_json(self.analysis.positions.text_edit(edit)) if edit else None

    def file_edit(self, finding: Finding) -> dict[str, Any] | None:
        from vllm_config_lsp.rules.suppression import disable_file_edit

        if self.model is None or finding.code in NOT_DISABLABLE:
            return None
        if finding.code not in self._file_edits:
            edit = disable_file_edit(self.model, finding.code, self.found)
            made = _edit_json(self.analysis.positions.text_edit(edit)) if edit else None
            self._file_edits[finding.code] = made
        return self._file_edits[finding.code]


def finding_data(
    analysis: Snapshot, finding: Finding, disabler: Disabler | None = None
) -> dict[str, Any]:
    positions = analysis.positions
    data: dict[str, Any] = {
        "version": analysis.version,
        "fixes": [fix_data(positions, fix) for fix in finding.fixes],
    }
    disabler = disabler or Disabler(analysis)
    disable = disabler.edit(finding)
    if disable is not None:
        data["disable"] = disable
    disable_file = disabler.file_edit(finding)
    if disable_file is not None:
        data["disableFile"] = disable_file
    return data


def fix_data(positions: Positions, fix: Fix) -> dict[str, Any]:
    return {
        "title": fix.title,
        "safe": fix.safe,
        "preferred": fix.preferred,
        "edits": [_edit_json(positions.text_edit(edit)) for edit in fix.edits],
    }


def _edit_json(edit: types.TextEdit) -> dict[str, Any]:
    r = edit.range
    return {
        "range": {
            "start": {"line": r.start.line, "character": r.start.character},
            "end": {"line": r.end.line, "character": r.end.character},
        },
        "newText": edit.new_text,
    }


def edit_from_json(raw: Any) -> types.TextEdit | None:
    """The inverse of `_edit_json`, tolerant of whatever a client echoes back."""
    try:
        r = raw["range"]
        return types.TextEdit(
            range=types.Range(
                start=types.Position(
                    line=int(r["start"]["line"]), character=int(r["start"]["character"])
                ),
                end=types.Position(
                    line=int(r["end"]["line"]), character=int(r["end"]["character"])
                ),
            ),
            new_text=str(raw["newText"]),
        )
    except (KeyError, TypeError, ValueError):
        return None
