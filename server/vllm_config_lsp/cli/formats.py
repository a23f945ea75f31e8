"""CLI output formats: text (ruff-style), json (a stable contract), github, sarif.

All positions here are 1-based lines and 1-based columns counted in characters, the way
terminals and CI annotations count; the LSP layer does its own UTF-16 conversion.

Keys, values, paths and messages come from the files checked, so every format escapes what a
terminal or a log parser would act on (a key holding `\\n::error …` must not start a line a
CI runner reads as a command) and what no encoder writes (lone surrogates from YAML escapes):
one such file must not take every other file's report down with it.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote_from_bytes

from vllm_config_lsp import __version__
from vllm_config_lsp.document.text_index import TextIndex
from vllm_config_lsp.findings import Finding, Fix, Related, Suppressed
from vllm_config_lsp.rules import RULE_DOCS_URL, all_rules

#: The tool's own page, SARIF's `informationUri`.
PROJECT_URL = "https://github.com/vllm-config-lsp/vllm-config-lsp"

#: DEL, C1 controls (NEL among them), the Unicode line and paragraph separators, lone
#: surrogates: JSON text may hold them raw, a reader of it should not have to.
_UNSAFE_ABOVE_ASCII = "\x7f-\x9f\u2028\u2029\ud800-\udfff"
_UNPRINTABLE = re.compile(f"[\x00-\x1f{_UNSAFE_ABOVE_ASCII}]")
_JSON_UNSAFE = re.compile(f"[{_UNSAFE_ABOVE_ASCII}]")


def printable(text: str) -> str:
    """`text` with each control character, line separator and lone surrogate written as its
    Python escape (`\\n`, `\\x1b`, `\\u2028`, `\\ud800`): one line, no terminal sequence,
    always encodable."""
    return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def _json_text(value: object) -> str:
    """`json.dumps` escapes C0 controls only; the rest of the unsafe set becomes `\\uXXXX`
    too (JSON text holds them only inside strings, where that escape means the same)."""
    text = json.dumps(value, indent=2, ensure_ascii=False)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


@dataclass
class FileReport:
    path: str
    text: str
    findings: list[Finding]

    def position(self, offset: int) -> tuple[int, int]:
        line, col = self.index.line_col(offset)
        return line + 1, col + 1

    @property
    def index(self) -> TextIndex:
        cached: TextIndex | None = getattr(self, "_index", None)
        if cached is None:
            cached = TextIndex(self.text)
            self._index = cached
        return cached


def chosen_fix(finding: Finding) -> Fix | None:
    """The one fix a non-interactive consumer gets: the preferred one, else the first."""
    return next(
        (f for f in finding.fixes if f.preferred), finding.fixes[0] if finding.fixes else None
    )


def _fix_json(report: FileReport, fix: Fix | None) -> dict[str, Any] | None:
    if fix is None:
        return None
    edits = []
    for edit in fix.edits:
        line, column = report.position(edit.start)
        end_line, end_column = report.position(edit.end)
        edits.append(
            {
                "line": line,
                "column": column,
                "end_line": end_line,
                "end_column": end_column,
                "new_text": edit.new_text,
            }
        )
    return {"title": fix.title, "edits": edits}


def render_json(reports: list[FileReport]) -> str:
    rows = []
    for report in reports:
        for f in report.findings:
            line, column = report.position(f.start)
            end_line, end_column = report.position(f.end)
            rows.append(
                {
                    "file": report.path,
                    "line": line,
                    "column": column,
                    "end_line": end_line,
                    "end_column": end_column,
                    "severity": f.severity.label,
                    "code": f.code,
                    "message": f.message,
                    "fix": _fix_json(report, chosen_fix(f)),
                    "related": [_related_json(report, r) for r in f.related],
                    "suppression": _suppression_json(f.suppressed),
                }
            )
    return _json_text(rows)


def _related_at(report: FileReport, related: Related) -> tuple[str | None, int, int]:
    """Where a related setting is, 1-based: in another file (its path) or in this one."""
    if related.place is not None:
        return related.place.path, related.place.line + 1, related.place.start + 1
    line, column = report.position(related.start)
    return None, line, column


def _related_sarif(report: FileReport, related: Related, ident: int) -> dict[str, Any]:
    """A SARIF `relatedLocations` entry: the setting that makes the finding so, in this
    file or in the one its `place` names (the `.env` line of a compose reference), so
    code scanning shows both ends of a warning, as the editor's related information does."""
    if related.place is not None:
        place = related.place
        uri = _artifact_uri(place.path)
        line = place.line + 1
        region = {
            "startLine": line,
            "startColumn": place.start + 1,
            "endLine": line,
            "endColumn": place.end + 1,
        }
    else:
        uri = _artifact_uri(report.path)
        region = _region(report, related.start, related.end)
    return {
        "id": ident,
        "physicalLocation": {"artifactLocation": {"uri": uri}, "region": region},
        "message": {"text": related.message},
    }


def _region(report: FileReport, start: int, end: int) -> dict[str, int]:
    line, column = report.position(start)
    end_line, end_column = report.position(end)
    return {"startLine": line, "startColumn": column, "endLine": end_line, "endColumn": end_column}


def _related_json(report: FileReport, related: Related) -> dict[str, Any]:
    path, line, column = _related_at(report, related)
    row: dict[str, Any] = {"line": line, "column": column, "message": related.message}
    if path is not None:
        row["file"] = path
    return row


def _suppression_json(suppressed: Suppressed | None) -> dict[str, Any] | None:
    """With `--ignore-suppressions`: the comment that would hide the finding."""
    if suppressed is None:
        return None
    return {"line": suppressed.line + 1, "reason": suppressed.reason}


def _suppression_text(suppressed: Suppressed) -> str:
    reason = f" -- {printable(suppressed.reason)}" if suppressed.reason else " (no reason given)"
    return f"    suppressed: line {suppressed.line + 1}{reason}"


def render_statistics(reports: list[FileReport], *, as_json: bool = False) -> str:
    """`--statistics`, as ruff has it: one row per code, most frequent first, `[*]` when
    `--fix` fixes some of them."""
    from vllm_config_lsp.rules import rule_by_code

    counts: dict[str, list[Finding]] = {}
    for report in reports:
        for f in report.findings:
            counts.setdefault(f.code, []).append(f)
    rows = []
    for code, found in sorted(counts.items(), key=lambda item: (-len(item[1]), item[0])):
        rule = rule_by_code(code)
        rows.append(
            {
                "code": code,
                "name": rule.name if rule is not None else None,
                "count": len(found),
                "fixable": sum(1 for f in found if f.safe_fix is not None),
            }
        )
    if as_json:
        return _json_text(rows)
    width = max((len(str(row["count"])) for row in rows), default=1)
    return "\n".join(
        f"{row['count']:>{width}}\t{row['code']}\t{'[*]' if row['fixable'] else '[ ]'} "
        f"{row['name'] or ''}".rstrip()
        for row in rows
    )


def render_text(reports: list[FileReport], *, show_source: bool = True) -> str:
    return "\n".join(line for report in reports for line in text_lines(report, show_source))


def text_lines(report: FileReport, show_source: bool = True) -> Iterator[str]:
    """One file's findings in the text format, line by line (written as they come)."""
    where = printable(report.path)
    for f in report.findings:
        line, column = report.position(f.start)
        yield f"{where}:{line}:{column}: {f.severity.label} {f.code} {printable(f.message)}"
        if show_source:
            yield from _excerpt(report, f, line)
        for related in f.related:
            at = _related_at(report, related)
            place = f"{printable(at[0])}:" if at[0] is not None else ""
            yield f"    note: {place}{at[1]}:{at[2]}: {printable(related.message)}"
        if f.suppressed is not None:
            yield _suppression_text(f.suppressed)
        for fix in f.fixes:
            marker = "fix" if fix.safe else "fix (unsafe)"
            yield f"    {marker}: {printable(fix.title)}"


#: An excerpt shows at most this many characters of the line (before escaping), the
#: finding's start at most EXCERPT_BEFORE from its left end: a line of 100 KB with 2,000
#: findings would print it 2,000 times.
EXCERPT_WIDTH = 120
EXCERPT_BEFORE = 40
_CUT = "..."


def _excerpt(report: FileReport, finding: Finding, line: int) -> list[str]:
    """The finding's line (a window of it around the finding) and a caret under it,
    counted in the escaped line's characters."""
    start, end = report.index.line_start(line - 1), report.index.line_end(line - 1)
    low = max(start, finding.start - EXCERPT_BEFORE) if end - start > EXCERPT_WIDTH else start
    high = min(end, low + EXCERPT_WIDTH)
    head = _CUT if low > start else ""
    tail = _CUT if high < end else ""
    before = head + printable(report.text[low : finding.start])
    marked = printable(report.text[finding.start : min(finding.end, high)])
    shown = head + printable(report.text[low:high]) + tail
    return [f"    {shown}", "    " + " " * len(before) + "^" * max(1, len(marked))]


def _escape_github(text: str, *, property_value: bool = False) -> str:
    """GitHub's workflow-command escapes, after `printable` took every line break out."""
    text = printable(text).replace("%", "%25")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render_github(reports: list[FileReport]) -> str:
    lines = []
    level = {"error": "error", "warning": "warning", "info": "notice"}
    for report in reports:
        for f in report.findings:
            line, column = report.position(f.start)
            end_line, end_column = report.position(f.end)
            props = (
                f"file={_escape_github(report.path, property_value=True)},line={line},col={column},"
                f"endLine={end_line},endColumn={end_column},title={f.code}"
            )
            lines.append(f"::{level[f.severity.label]} {props}::{_escape_github(f.message)}")
    return "\n".join(lines)


def render_sarif(reports: list[FileReport]) -> str:
    """SARIF 2.1.0 as GitHub code scanning reads it: every rule with its `shortDescription`,
    its documentation (`fullDescription`, `help`) and `helpUri` (its page in docs/rules/);
    each result with `ruleId` and `ruleIndex`, `level`, the region, the settings that take
    part in it (`relatedLocations`) and the chosen fix."""
    level = {"error": "error", "warning": "warning", "info": "note"}
    rules = [
        {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.doc.strip()},
            "help": {"text": rule.doc.strip(), "markdown": rule.doc.strip()},
            "helpUri": f"{RULE_DOCS_URL}{rule.code}.md",
        }
        for rule in all_rules()
    ]
    index = {rule["id"]: at for at, rule in enumerate(rules)}
    results = []
    for report in reports:
        for f in report.findings:
            region = _region(report, f.start, f.end)
            result: dict[str, Any] = {
                "ruleId": f.code,
                **({"ruleIndex": index[f.code]} if f.code in index else {}),
                "level": level[f.severity.label],
                "message": {"text": f.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": _artifact_uri(report.path)},
                            "region": region,
                        }
                    }
                ],
            }
            # a chart template's text lies past the values file's end: not a place in it
            related = [r for r in f.related if r.place is not None or r.end <= len(report.text)]
            if related:
                result["relatedLocations"] = [
                    _related_sarif(report, r, ident) for ident, r in enumerate(related, 1)
                ]
            if f.suppressed is not None:
                # --ignore-suppressions: reported, so not as a SARIF `suppressions` entry
                # (code scanning closes those); the comment goes in the property bag
                result["properties"] = {"vllmConfigSuppression": _suppression_json(f.suppressed)}
            fix = chosen_fix(f)
            if fix is not None:
                replacements = []
                for edit in fix.edits:
                    replacements.append(
                        {
                            "deletedRegion": _region(report, edit.start, edit.end),
                            "insertedContent": {"text": edit.new_text},
                        }
                    )
                result["fixes"] = [
                    {
                        "description": {"text": fix.title},
                        "artifactChanges": [
                            {
                                "artifactLocation": {"uri": _artifact_uri(report.path)},
                                "replacements": replacements,
                            }
                        ],
                    }
                ]
            results.append(result)
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "vllm-config-lsp",
                        "version": __version__,
                        "informationUri": PROJECT_URL,
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }
    return _json_text(sarif)


def _artifact_uri(path: str) -> str:
    """SARIF locations are URIs: an absolute path becomes a `file:` URI, a relative one a
    relative reference, both percent-encoded from the path's bytes (`#`, `%`, spaces and
    undecodable names survive the trip)."""
    where = Path(path)
    if where.is_absolute():
        return where.as_uri()
    return quote_from_bytes(os.fsencode(where.as_posix()))


RENDERERS = {
    "text": render_text,
    "json": render_json,
    "github": render_github,
    "sarif": render_sarif,
}
