"""Suppression comments: `# vllm-config: disable=CODE[,CODE]` and friends.

Three forms, by rule code:

* `key: value  # vllm-config: disable=VC101` covers findings that start on that line; on
  the line of a key whose value spans several lines (a block mapping, a block-scalar JSON
  string) it covers the whole entry, because no comment can be written inside a string;
* `# vllm-config: disable-next-line=VC101` covers the next line the same way;
* `# vllm-config: disable-file=VC101` anywhere covers the whole file.

A reason may follow the codes after `--` (`# vllm-config: disable=VC101 -- swap is set by
the chart`): hover shows it, and `check --ignore-suppressions` reports it with each finding
the comment would hide (`apply(..., keep=True)` marks them instead of dropping them).

Applied by `engine.lint` after every rule ran, so the CLI and the language server honour the
same comments. A code that suppressed nothing is reported (VC008, unused-suppression), but
only when its rule ran: `--select`/`--ignore` or an editor's disabled codes must not make
suppressions look unused. Comments are found outside scalars only (a `#` inside a quoted or
block string is text), using the spans the `--config` source reads from its YAML
(`sources.config_layout`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from weakref import WeakKeyDictionary

from vllm_config_lsp.document.markers import MARKER_LINES
from vllm_config_lsp.document.text_index import TextIndex
from vllm_config_lsp.document.text_memo import text_memo
from vllm_config_lsp.findings import Finding, Fix, Severity, Suppressed, TextEdit
from vllm_config_lsp.sources.config_layout import comment_layout, host_layout
from vllm_config_lsp.vllm.config_model import ConfigModel

UNUSED_CODE = "VC008"
#: Findings that no comment can hide: internal errors, and the suppression report itself.
UNSUPPRESSIBLE = frozenset({"VC000", UNUSED_CODE})

_DIRECTIVE = re.compile(r"vllm-config\s*:")
_ITEM = re.compile(
    r"(?P<kind>disable-next-line|disable-file|disable)\s*=\s*"
    r"(?P<codes>[A-Za-z]+[0-9]+(?:\s*,\s*[A-Za-z]+[0-9]+)*)?"
)
_CODE = re.compile(r"[A-Za-z]+[0-9]+")
#: A Dockerfile's parser directive (`# syntax=…`, `# escape=\\`): only at the very top, and
#: a comment line before it makes it a comment (BuildKit's `directives.go`).
_PARSER_DIRECTIVE = re.compile(r"#[ \t]*[A-Za-z][A-Za-z0-9]*[ \t]*=[^\n]*\n")
#: ` -- reason` after the directives, up to the line end (no directive is read in it).
_REASON = re.compile(r"(?:^|(?<=\s))--(?:\s+(?P<reason>.*?))?\s*$")


@dataclass(eq=False)
class CodeRef:
    """One code in a suppression comment, with its span (for the unused report's range)."""

    code: str
    start: int
    end: int
    used: bool = False


@dataclass(eq=False)
class Directive:
    kind: str  # "disable" | "disable-next-line" | "disable-file"
    line: int
    #: Span of `disable=…` (removed when all its codes are unused and others remain).
    start: int
    end: int
    codes: list[CodeRef] = field(default_factory=list)
    comment: Comment | None = None


@dataclass(eq=False)
class Comment:
    line: int
    start: int  # the `#` that opens `# vllm-config: …`
    end: int  # line end
    directives: list[Directive] = field(default_factory=list)
    #: What follows `--` after the directives (`disable=VC101 -- set by the chart`).
    reason: str | None = None


@dataclass(eq=False)
class Layout:
    """What suppression needs to know about the document's structure."""

    index: TextIndex
    #: Spans in which a `#` is text, not a comment (scalar contents).
    scalars: list[tuple[int, int]]
    #: (key line, entry start, entry end) for entries whose value spans several lines.
    entries: list[tuple[int, int, int]]
    #: How the document's syntax takes a comment (`config_layout.COMMENTS`): `line` at a
    #: line's end, `above` on a line of its own, None not at all.
    style: str | None = "line"
    #: A host's YAML literal blocks (`run: |`): a `#` in one is a comment where a shell
    #: reads the block as a script, text where compose splits it.
    literal: list[tuple[int, int]] = field(default_factory=list)
    #: Lines holding a word the shell read (of the document's first start), and the spans
    #: of those words: where a literal block is known to be a script.
    shell_lines: frozenset[int] = frozenset()
    shell_words: list[tuple[int, int]] = field(default_factory=list)

    def line(self, offset: int) -> int:
        return self.index.lsp_position(offset)[0]

    def in_scalar(self, offset: int) -> bool:
        """Whether a `#` at `offset` is text (a literal block's lines are taken as a
        script's, comments included: what a `run: |` holds)."""
        return any(start <= offset < end for start, end in self.scalars) and not any(
            start <= offset < end for start, end in self.literal
        )

    def comment_fits(self, line: int, line_end: int) -> bool:
        """Whether a `#` comment written at the end of `line` is one: the line break is in
        no string, or in a literal block the shell reads as a script, outside its words."""
        if not any(start < line_end < end for start, end in self.scalars):
            return True
        in_script = line in self.shell_lines and any(
            start < line_end < end for start, end in self.literal
        )
        return in_script and not any(start < line_end < end for start, end in self.shell_words)

    def covering_lines(self, offset: int) -> list[int]:
        """Lines whose line-end comment covers `offset`: its own line first, then the key
        lines of enclosing multi-line entries, innermost first."""
        lines = [self.line(offset)]
        enclosing = sorted(
            (entry for entry in self.entries if entry[1] <= offset < entry[2]),
            key=lambda entry: entry[1],
            reverse=True,
        )
        lines.extend(line for line, _, _ in enclosing if line not in lines)
        return lines


_LAYOUTS: WeakKeyDictionary[ConfigModel, Layout] = WeakKeyDictionary()


def layout(model: ConfigModel) -> Layout:
    """Where the scalars and multi-line entries are (once per model: VC008 and `apply`)."""
    cached = _LAYOUTS.get(model)
    if cached is None:
        cached = _LAYOUTS[model] = _layout(model)
    return cached


def _layout(model: ConfigModel) -> Layout:
    origin = model.origin
    if origin is None:  # a host's command line: its host says how it takes comments
        style, (scalars, entries), literal = host_layout(model.invocation.source, model.text)
        words = [w for w in model.invocation.args if w.quoting == "shell" and w.end > w.start]
        lines = frozenset(model.index.lsp_position(word.start)[0] for word in words)
        spans = [(word.start, word.end) for word in words]
        return Layout(model.index, scalars, entries, style, literal, lines, spans)
    return Layout(model.index, *comment_layout(origin, model.text, model.index))


def comments(model: ConfigModel, where: Layout | None = None) -> list[Comment]:
    """Every comment holding a `vllm-config:` directive (one per line)."""
    text = model.text
    matches = _directives(text)
    if not matches:  # e.g. only a `version=` marker: no need for the layout (a tree walk)
        return []
    where = where or layout(model)
    found: list[Comment] = []
    lines: set[int] = set()
    for match_start, match_end in matches:
        line = where.line(match_start)
        if line in lines:
            continue
        line_start = where.index.offset_of_lsp(line, 0)
        if _comment_start(text, line_start, match_start, where) is None:
            continue
        lines.add(line)
        line_end = where.index.offset_of_lsp(line, 1 << 30)
        comment = Comment(line, text.rfind("#", line_start, match_start), line_end)
        reason = _REASON.search(text, match_end, line_end)
        if reason is not None:
            comment.reason = reason.group("reason") or None
        items_end = line_end if reason is None else reason.start()
        for item in _ITEM.finditer(text, match_end, items_end):
            directive = Directive(item.group("kind"), line, item.start(), item.end())
            directive.comment = comment
            codes_at = item.start("codes")
            for code in _CODE.finditer(item.group("codes") or ""):
                directive.codes.append(
                    CodeRef(code.group().upper(), codes_at + code.start(), codes_at + code.end())
                )
            comment.directives.append(directive)
        found.append(comment)
    return found


@text_memo
def _directives(text: str) -> tuple[tuple[int, int], ...]:
    """Where `vllm-config:` is written in `text`: each command line of a host asks (VC008
    runs per command line) for the same document, and scanning all of it per command line
    was quadratic (a 1.9 MB script of 900 command lines: 1.6 s per check, issue 30)."""
    if "vllm-config" not in text:
        return ()
    return tuple(match.span() for match in _DIRECTIVE.finditer(text))


def _comment_start(text: str, line_start: int, before: int, where: Layout) -> int | None:
    """The `#` opening the line's comment when offset `before` lies inside one."""
    at = line_start
    while True:
        at = text.find("#", at, before)
        if at == -1:
            return None
        if (at == line_start or text[at - 1] in " \t") and not where.in_scalar(at):
            return at
        at += 1


def apply(
    model: ConfigModel, findings: list[Finding], ran: set[str], *, keep: bool = False
) -> list[Finding]:
    """Drop suppressed findings (with `keep`, mark them with the comment that would hide
    them instead); report unused codes of rules that ran (when VC008 ran)."""
    found = comments(model)
    if not found:
        return findings
    where = layout(model)
    directives = [d for comment in found for d in comment.directives]
    kept: list[Finding] = []
    for item in findings:
        hiding = None if item.code in UNSUPPRESSIBLE else _suppressed(item, directives, where)
        if hiding is None:
            kept.append(item)
        elif keep:
            reason = hiding.comment.reason if hiding.comment is not None else None
            kept.append(replace(item, suppressed=Suppressed(hiding.line, reason)))
    if UNUSED_CODE in ran:
        kept.extend(_unused(model, found, ran))
    return kept


def _suppressed(item: Finding, directives: list[Directive], where: Layout) -> Directive | None:
    """The first directive that hides `item` (every one that does is marked used)."""
    lines: list[int] | None = None
    hit: Directive | None = None
    for directive in directives:
        refs = [ref for ref in directive.codes if ref.code == item.code]
        if not refs:
            continue
        if directive.kind != "disable-file":
            if lines is None:
                lines = where.covering_lines(item.start)
            target = directive.line + (directive.kind == "disable-next-line")
            if target not in lines:
                continue
        for ref in refs:
            ref.used = True
        hit = hit or directive
    return hit


def _unused(model: ConfigModel, found: list[Comment], ran: set[str]) -> Iterator[Finding]:
    for comment in found:
        for directive in comment.directives:
            unused = [ref for ref in directive.codes if not ref.used and ref.code in ran]
            if not unused:
                continue
            whole = len(unused) == len(directive.codes)
            for ref in unused:
                if whole:
                    edit = _remove_directive(model.text, directive)
                else:
                    edit = _remove_code(directive, ref)
                where = "in this file" if directive.kind == "disable-file" else "here"
                yield Finding(
                    UNUSED_CODE,
                    Severity.INFO,
                    ref.start,
                    ref.end,
                    f"unused suppression: {ref.code} reports nothing {where}; remove it",
                    None,
                    (Fix(f"Remove unused suppression of {ref.code}", (edit,), preferred=True),),
                )


def _remove_code(directive: Directive, ref: CodeRef) -> TextEdit:
    """Remove one code of several, with the comma that separates it from a neighbour."""
    position = directive.codes.index(ref)
    if position + 1 < len(directive.codes):
        return TextEdit(ref.start, directive.codes[position + 1].start, "")
    return TextEdit(directive.codes[position - 1].end, ref.end, "")


def _remove_directive(text: str, directive: Directive) -> TextEdit:
    """Remove a directive; when it is the comment's only one, the `# vllm-config: …` part
    up to the line end (a reason written after it goes too), or the whole line."""
    comment = directive.comment
    assert comment is not None
    if len(comment.directives) > 1:
        return TextEdit(directive.start, directive.end, "")
    start = comment.start
    while start > 0 and text[start - 1] in " \t":
        start -= 1
    if start > 0 and text[start - 1] not in "\r\n":
        return TextEdit(start, comment.end, "")
    end = comment.end
    if text.startswith("\r\n", end):
        end += 2
    elif end < len(text):
        end += 1
    return TextEdit(start, end, "")


def disable_edit(
    model: ConfigModel,
    code: str,
    offset: int,
    where: Layout | None = None,
    found: list[Comment] | None = None,
) -> TextEdit | None:
    """The edit behind "Disable CODE for this line": extend the line's `disable=` list or
    append a comment, on the first line covering `offset` that can take a comment; in a
    host whose comments stand on their own lines (a Dockerfile), a `disable-next-line=`
    line above. (`where`/`found` let a caller with many findings compute the layout once.)"""
    where = where or layout(model)
    if where.style is None:
        return None
    found = comments(model, where) if found is None else found
    if where.style == "above":
        return _line_above(model.text, where, found, code, where.line(offset))
    for line in where.covering_lines(offset):
        line_end = where.index.offset_of_lsp(line, 1 << 30)
        if not where.comment_fits(line, line_end):
            continue  # the line break is inside a string: a `#` there would be text
        if model.text[:line_end].rstrip(" \t").endswith("\\"):
            continue  # a shell continuation: a comment after `\` would end the command
        for comment in found:
            if comment.line != line:
                continue
            for directive in comment.directives:
                if directive.kind == "disable" and directive.codes:
                    return TextEdit(directive.codes[-1].end, directive.codes[-1].end, f",{code}")
        line_start = where.index.offset_of_lsp(line, 0)
        gap = "" if line_end == line_start else "  "
        return TextEdit(line_end, line_end, f"{gap}# vllm-config: disable={code}")
    return None


def _line_above(
    text: str, where: Layout, found: list[Comment], code: str, line: int
) -> TextEdit | None:
    """A `# vllm-config: disable-next-line=CODE` line above `line`, indented as it (or the
    code added to the one there)."""
    for comment in found:
        if comment.line == line - 1:
            for directive in comment.directives:
                if directive.kind == "disable-next-line" and directive.codes:
                    return TextEdit(directive.codes[-1].end, directive.codes[-1].end, f",{code}")
    start = where.index.offset_of_lsp(line, 0)
    if where.in_scalar(start):
        return None
    indent = len(text[start:]) - len(text[start:].lstrip(" \t"))
    newline = "\r\n" if "\r\n" in text else "\n"
    return TextEdit(
        start,
        start,
        f"{text[start : start + indent]}# vllm-config: disable-next-line={code}{newline}",
    )


def disable_file_edit(
    model: ConfigModel, code: str, found: list[Comment] | None = None
) -> TextEdit | None:
    """The edit behind "Disable CODE for this file": extend a `disable-file=` list, else
    add the item to the marker comment of the first lines (a second `# vllm-config:` line
    above it would hide its `version=` from `markers`), else write a comment line at the
    top (after a `#!` line)."""
    if layout(model).style is None:
        return None
    text = model.text
    found = comments(model) if found is None else found
    for comment in found:
        for directive in comment.directives:
            if directive.kind == "disable-file" and directive.codes:
                return TextEdit(directive.codes[-1].end, directive.codes[-1].end, f",{code}")
    index = model.index
    for comment in found:
        line_start = index.offset_of_lsp(comment.line, 0)
        if comment.line < MARKER_LINES and not text[line_start : comment.start].strip():
            end = len(text[: comment.end].rstrip(" \t"))
            return TextEdit(end, end, f" disable-file={code}")
    at = 1 if text.startswith("\ufeff") else 0
    newline = "\r\n" if "\r\n" in text else "\n"
    if layout(model).style == "above":  # a Dockerfile: after its parser directives
        while (parser_directive := _PARSER_DIRECTIVE.match(text, at)) is not None:
            at = parser_directive.end()
    if layout(model).in_scalar(at):
        return None  # the top is text (Markdown prose): no comment can stand there
    if text.startswith("#!", at):
        at = index.offset_of_lsp(1, 0)
        if at == len(text) and not text.endswith(("\n", "\r")):
            return TextEdit(at, at, f"{newline}# vllm-config: disable-file={code}")
    return TextEdit(at, at, f"# vllm-config: disable-file={code}{newline}")
