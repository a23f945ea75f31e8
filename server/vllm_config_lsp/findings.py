"""What a check reports: findings with their fixes, in document offsets.

Offsets are code-point indexes into the document text; the front ends (CLI, LSP) convert
them to their own coordinates, so the engine never has to know about UTF-16 or 1-based
columns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum


class Severity(IntEnum):
    """Ordered so that `--fail-on` can compare: error > warning > info."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class TextEdit:
    start: int
    end: int
    new_text: str


@dataclass(frozen=True)
class Fix:
    """A code action. `safe` fixes are the ones `--fix` and fixAll apply unattended."""

    title: str
    edits: tuple[TextEdit, ...]
    safe: bool = True
    preferred: bool = False


@dataclass(frozen=True)
class Place:
    """A span in another file than the document (the `.env` line a compose file's
    `${VAR}` takes its value from): the file, the 0-based line, the code-point columns on
    it, and the line's text, so that a front end counts columns in its own units without
    reading the file again."""

    path: str
    line: int
    start: int
    end: int
    line_text: str


@dataclass(frozen=True)
class Related:
    """Another setting that takes part in a finding (LSP `relatedInformation`): the
    finding sits on the setting vLLM ignores or overrides, and this points at the one
    that makes it so. With a `place`, that setting is in another file, and `start`..`end`
    is the text of the document that reads it (the reference)."""

    start: int
    end: int
    message: str
    place: Place | None = None


@dataclass(frozen=True)
class Suppressed:
    """The `# vllm-config: disable=CODE -- reason` comment that would hide a finding, kept
    on it when suppressions are ignored (`check --ignore-suppressions`): its 0-based line
    and the reason written after `--` (None without one)."""

    line: int
    reason: str | None = None


@dataclass
class Finding:
    code: str
    severity: Severity
    start: int
    end: int
    message: str
    vllm_source: str | None = None
    fixes: tuple[Fix, ...] = field(default_factory=tuple)
    related: tuple[Related, ...] = field(default_factory=tuple)
    #: Set only when suppressions are ignored: the comment that would have hidden it.
    suppressed: Suppressed | None = None

    def sort_key(self) -> tuple[int, int, str]:
        return (self.start, self.end, self.code)

    @property
    def safe_fix(self) -> Fix | None:
        """The fix applied unattended (`--fix`, fixAll): preferred among the safe ones."""
        safe = [fix for fix in self.fixes if fix.safe]
        return next((fix for fix in safe if fix.preferred), safe[0] if safe else None)


def safe_fix_edits(findings: list[Finding]) -> list[TextEdit]:
    return [edit for finding in findings if finding.safe_fix for edit in finding.safe_fix.edits]


def apply_edits(text: str, edits: list[TextEdit] | tuple[TextEdit, ...]) -> str:
    """Apply non-overlapping edits; overlapping later ones are skipped (first wins)."""
    out: list[str] = []
    cursor = 0
    for edit in sorted(edits, key=lambda e: (e.start, e.end)):
        if edit.start < cursor:
            continue
        out.append(text[cursor : edit.start])
        out.append(edit.new_text)
        cursor = edit.end
    out.append(text[cursor:])
    return "".join(out)
