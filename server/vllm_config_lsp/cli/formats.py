"""CLI output formats: text (ruff-style), json (a stable contract), github, sarif.

All positions here are 1-based lines and 1-based columns counted in characters, the way
terminals and CI annotations count; the LSP layer does its own UTF-16 conversion.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from vllm_config_lsp import __version__
from vllm_config_lsp.document.text_index import TextIndex
from vllm_config_lsp.findings import Finding, Fix
from vllm_config_lsp.rules import all_rules

DOCS_URL = "https://github.com/vllm-config-lsp/vllm-config-lsp/blob/main/docs/rules/{code}.md"


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
                }
            )
    return json.dumps(rows, indent=2, ensure_ascii=False)


def render_text(reports: list[FileReport], *, show_source: bool = True) -> str:
    lines = []
    for report in reports:
        for f in report.findings:
            line, column = report.position(f.start)
            lines.append(f"{report.path}:{line}:{column}: {f.severity.label} {f.code} {f.message}")
            if show_source:
                index = report.index
                text_line = report.text[index.line_start(line - 1) : index.line_end(line - 1)]
                lines.append(f"    {text_line}")
                width = max(1, min(f.end, index.line_end(line - 1)) - f.start)
                lines.append("    " + " " * (column - 1) + "^" * width)
            for fix in f.fixes:
                marker = "fix" if fix.safe else "fix (unsafe)"
                lines.append(f"    {marker}: {fix.title}")
    return "\n".join(lines)


def _escape_github(text: str, *, property_value: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
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
    level = {"error": "error", "warning": "warning", "info": "note"}
    rules = [
        {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.doc.strip()},
            "helpUri": DOCS_URL.format(code=rule.code),
        }
        for rule in all_rules()
    ]
    results = []
    for report in reports:
        for f in report.findings:
            line, column = report.position(f.start)
            end_line, end_column = report.position(f.end)
            region = {
                "startLine": line,
                "startColumn": column,
                "endLine": end_line,
                "endColumn": end_column,
            }
            result: dict[str, Any] = {
                "ruleId": f.code,
                "level": level[f.severity.label],
                "message": {"text": f.message},
                "locations": [
                    {
                        "physicalLocation": {
                            "artifactLocation": {"uri": report.path},
                            "region": region,
                        }
                    }
                ],
            }
            fix = chosen_fix(f)
            if fix is not None:
                replacements = []
                for edit in fix.edits:
                    sl, sc = report.position(edit.start)
                    el, ec = report.position(edit.end)
                    replacements.append(
                        {
                            "deletedRegion": {
                                "startLine": sl,
                                "startColumn": sc,
                                "endLine": el,
                                "endColumn": ec,
                            },
                            "insertedContent": {"text": edit.new_text},
                        }
                    )
                result["fixes"] = [
                    {
                        "description": {"text": fix.title},
                        "artifactChanges": [
                            {"artifactLocation": {"uri": report.path}, "replacements": replacements}
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
                    "driver": {"name": "vllm-config-lsp", "version": __version__, "rules": rules}
                },
                "results": results,
            }
        ],
    }
    return json.dumps(sarif, indent=2, ensure_ascii=False)


RENDERERS = {
    "text": render_text,
    "json": render_json,
    "github": render_github,
    "sarif": render_sarif,
}
