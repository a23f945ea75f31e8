"""Completion of the keyword arguments of vLLM's Python constructors (issue 28 item 7), and
of a keyword's string value (`dtype="` → the flag's choices).

Inside `LLM(`, `EngineArgs(`, `AsyncEngineArgs(` (imported from `vllm`), or Ray Serve LLM's
`engine_kwargs=dict(` (imported from `ray.serve.llm`), a name typed where a keyword goes
(after the `(` or a `,`) is completed with the fields the constructor of the document's
release accepts (`vllm.engine_args`), inserted as `name=`, each documented as the flag that
sets the same field. Works on the text before the cursor with Python's own tokenizer, so a
call being typed (`LLM(model="m", max_model_l)`, not valid Python yet) is read too; strings
and comments never count as brackets.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lsprotocol import types

from vllm_config_lsp.lsp.describe import choice_doc, choices, flag_detail, flag_doc, version_note
from vllm_config_lsp.vllm.catalogue import FlagSpec, load_catalogue
from vllm_config_lsp.vllm.engine_args import constructor

if TYPE_CHECKING:
    from vllm_config_lsp.lsp.session import Snapshot

__all__ = ["complete_keywords", "is_python"]

_VLLM_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+vllm[\w.]*[ \t]+import|import[ \t]+vllm)\b", re.M)
_RAY_IMPORT = re.compile(r"^[ \t]*from[ \t]+ray\.serve\.llm[ \t]+import\b", re.M)
_CONSTRUCTORS = frozenset({"LLM", "EngineArgs", "AsyncEngineArgs"})
#: Ray Serve LLM builds `AsyncEngineArgs(**engine_kwargs)`.
_RAY_KWARGS = "AsyncEngineArgs"


@dataclass
class _Frame:
    """One open bracket: its character, the constructor its call builds (None: another
    call or no call), and the keywords already written at its level."""

    bracket: str
    builds: str | None
    written: set[str] = field(default_factory=set)


def is_python(snapshot: Snapshot) -> bool:
    """The document is Python source (by its language id, else by its name)."""
    document = snapshot.checked.document
    if document.language_id is not None:
        return document.language_id == "python"
    return document.name.endswith((".py", ".pyi"))


#: A keyword's string value being typed: `dtype="bf` (its name, the text after the quote).
_STRING_VALUE = re.compile(r"([A-Za-z_]\w*)[ \t]*=[ \t]*[\"']([\w.-]*)\Z")


def complete_keywords(snapshot: Snapshot, position: types.Position) -> types.CompletionList | None:
    """The constructor's keywords at `position`, or the choices of the keyword whose string
    value is being typed there; None where neither goes."""
    text = snapshot.text
    offset = snapshot.positions.offset(position)
    typing = _STRING_VALUE.search(text, max(0, offset - 200), offset)
    if typing is not None:
        return _choices(snapshot, text, typing, offset)
    start = offset
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    end = offset
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    if start < offset and text[start].isdigit():
        return None
    frame = _frame_of(text, start)
    if frame is None or frame.builds is None:
        return None
    version = snapshot.vllm_version
    accepts = constructor(version, frame.builds)
    if accepts is None:
        return None
    by_field = _by_field(version)
    note = version_note(version, snapshot.version_source)
    markdown = _markdown(snapshot.capabilities)
    where = snapshot.positions.range(start, end)
    items: list[types.CompletionItem] = []
    for name in sorted(accepts.accepted):
        spec = by_field.get(name)
        doc = flag_doc(spec, note) if spec is not None else f"`{frame.builds}({name}=…)`\n\n{note}"
        items.append(
            types.CompletionItem(
                label=name,
                kind=types.CompletionItemKind.Property,
                detail=flag_detail(spec) if spec is not None else frame.builds,
                documentation=types.MarkupContent(kind=types.MarkupKind.Markdown, value=doc)
                if markdown
                else doc.replace("**", "").replace("`", ""),
                sort_text=("1" if name in frame.written else "0") + name,
                filter_text=name,
                text_edit=types.TextEdit(range=where, new_text=f"{name}="),
            )
        )
    return types.CompletionList(is_incomplete=False, items=items)


def _frame_of(text: str, start: int) -> _Frame | None:
    """The constructor call a keyword at `start` belongs to, when the module imports it."""
    frame = _keyword_frame(text[:start])
    if frame is None or frame.builds is None:
        return None
    imported = _RAY_IMPORT if frame.builds == _RAY_KWARGS else _VLLM_IMPORT
    return frame if imported.search(text) else None


def _by_field(version: str) -> dict[str, FlagSpec]:
    catalogue = load_catalogue(version)
    return {spec.dest: spec for spec in catalogue.flags.values() if not spec.positional}


def _choices(
    snapshot: Snapshot, text: str, typing: re.Match[str], offset: int
) -> types.CompletionList | None:
    """`dtype="bf|"`: the choices of the flag the keyword sets, replacing what is typed."""
    frame = _frame_of(text, typing.start())
    if frame is None or frame.builds is None:
        return None
    accepts = constructor(snapshot.vllm_version, frame.builds)
    spec = _by_field(snapshot.vllm_version).get(typing.group(1))
    if accepts is None or spec is None or typing.group(1) not in accepts.accepted:
        return None
    end = offset
    while end < len(text) and (text[end].isalnum() or text[end] in "_.-"):
        end += 1
    where = snapshot.positions.range(typing.start(2), end)
    markdown = _markdown(snapshot.capabilities)
    items = []
    for value in choices(spec):
        if not isinstance(value, str):
            continue
        doc = choice_doc(spec.help, value)
        items.append(
            types.CompletionItem(
                label=value,
                kind=types.CompletionItemKind.EnumMember,
                detail=f"--{spec.name}",
                documentation=None
                if doc is None
                else types.MarkupContent(kind=types.MarkupKind.Markdown, value=doc)
                if markdown
                else doc,
                filter_text=value,
                text_edit=types.TextEdit(range=where, new_text=value),
            )
        )
    return types.CompletionList(is_incomplete=False, items=items) if items else None


def _markdown(capabilities: types.ClientCapabilities) -> bool:
    completion = capabilities.text_document.completion if capabilities.text_document else None
    item = completion.completion_item if completion else None
    formats = (item.documentation_format if item else None) or []
    return types.MarkupKind.Markdown in [getattr(f, "value", f) for f in formats]


def _keyword_frame(before: str) -> _Frame | None:
    """The call whose keyword is being typed after `before`, when `before` ends with its
    `(` or a `,` at its level; None otherwise (a value, a subscript, no call)."""
    stack: list[_Frame] = []
    previous: list[tokenize.TokenInfo] = []
    last: tokenize.TokenInfo | None = None
    try:
        for token in tokenize.generate_tokens(io.StringIO(before).readline):
            kind, string = token.type, token.string
            if kind in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT):
                continue
            if kind in (tokenize.DEDENT, tokenize.ENDMARKER):
                continue
            if kind == tokenize.OP and string in "([{":
                stack.append(_Frame(string, _builds(previous) if string == "(" else None))
            elif kind == tokenize.OP and string in ")]}":
                if stack:
                    stack.pop()
            elif (
                kind == tokenize.OP
                and string == "="
                and stack
                and previous
                and previous[-1].type == tokenize.NAME
                and len(previous) > 1
                and previous[-2].string in ("(", ",")
            ):
                stack[-1].written.add(previous[-1].string)
            previous = [*previous[-3:], token]
            last = token
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass  # the text ends inside the call being typed
    if not stack or stack[-1].bracket != "(" or last is None:
        return None
    return stack[-1] if last.string in ("(", ",") else None


def _builds(previous: list[tokenize.TokenInfo]) -> str | None:
    """The constructor a `(` after `previous` calls: `LLM`, `vllm.EngineArgs`, or a
    `dict` that is Ray's `engine_kwargs=`."""
    if not previous or previous[-1].type != tokenize.NAME:
        return None
    name = previous[-1].string
    if name in _CONSTRUCTORS:
        return name
    if name == "dict" and len(previous) > 2 and previous[-2].string == "=":
        return _RAY_KWARGS if previous[-3].string == "engine_kwargs" else None
    return None
