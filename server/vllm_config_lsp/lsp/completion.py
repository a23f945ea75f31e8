"""Completion: flag names, flag values, and fields/values inside mapping-valued flags.

Works on the text around the cursor, not on the parsed model: while a key is being typed
the document is usually not valid YAML yet. Five places are recognised:

* a top-level key (`max-num-` → flag names, except those already in the file; a dotted key
  `compilation-config.` → fields of that config class);
* a top-level value (`dtype: ` → choices, each with what vLLM's help says of it;
  `enable-prefix-caching: ` → `true`);
* a key or value in a block mapping under a JSON-valued flag (`compilation-config:` then an
  indented `mo` → `mode`, `cudagraph_mode`, …), at any depth;
* inside a JSON object or YAML flow mapping written as the flag's value (`'{"mo`, block
  scalars, `{mode: …}`), found with a small tolerant scanner of the text before the cursor;
* the `# vllm-config:` comment: its options, the releases after `version=`, rule codes
  after `disable=`.

Clients of the VS Code family run `editor.action.triggerSuggest` after an accepted key whose
value can be completed, so its values (or fields) are offered without Ctrl+Space; other
clients would send the command back to the server, which has none: they get a snippet with
the choices where they take snippets.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from vllm_config_lsp.lsp import environ
from vllm_config_lsp.lsp.describe import (
    choice_doc,
    choices,
    class_at,
    field_detail,
    field_doc,
    flag_detail,
    flag_doc,
    flag_for_key,
    settable_fields,
    type_values,
    version_note,
)
from vllm_config_lsp.sources.association import split_key, top_level_keys
from vllm_config_lsp.vllm.catalogue import Catalogue, ClassSpec, FlagSpec
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.environ import load_environ

if TYPE_CHECKING:
    from vllm_config_lsp.lsp.session import Snapshot

_WORD = re.compile(r"[A-Za-z0-9_.-]*")
_NESTED = re.compile(r"(?P<indent>[ \t]+)(?P<rest>.*)")
#: What a key being completed cannot start with, and a nested key (not a list item).
_KEY_START = "#:'\""
_NESTED_KEY_START = _KEY_START + "-"
#: How a JSON-valued flag's value starts when it is written as JSON or a flow mapping.
_STRUCTURED = ("{", "'", '"', "|", ">")


@dataclass
class Context:
    """What the client can render, and where the completed word sits."""

    analysis: Snapshot
    catalogue: Catalogue
    formats: list[str]
    snippets: bool
    deprecated_tag: bool
    deprecated_flag: bool
    #: The client runs `editor.action.triggerSuggest` (`runs_trigger_suggest`).
    retrigger: bool
    start: int  # offset where the replaced word starts
    end: int  # offset where it ends (the word may continue after the cursor)
    items: list[types.CompletionItem] = field(default_factory=list)

    def doc(self, text: str) -> types.MarkupContent | str:
        """Markdown where the client renders it; plain text otherwise (a bare string when
        the client declares no format at all, as Emacs' eglot does)."""
        if types.MarkupKind.Markdown in self.formats:
            return types.MarkupContent(kind=types.MarkupKind.Markdown, value=text)
        plain = text.replace("**", "").replace("`", "")
        if types.MarkupKind.PlainText in self.formats:
            return types.MarkupContent(kind=types.MarkupKind.PlainText, value=plain)
        return plain

    def add(
        self,
        label: str,
        new_text: str,
        *,
        kind: types.CompletionItemKind,
        detail: str | None = None,
        doc: str | None = None,
        present: bool = False,
        deprecated: bool = False,
        snippet: bool = False,
        suggest_next: bool = False,
        order: int | None = None,
    ) -> None:
        """`suggest_next`: what follows the inserted text can be completed (asked for at
        once where the client can be told to); `order`: a place in the list other than by
        label (releases newest first)."""
        positions = self.analysis.positions
        rank = label if order is None else f"{order:05d}"
        item = types.CompletionItem(
            label=label,
            kind=kind,
            detail=detail,
            documentation=self.doc(doc) if doc else None,
            sort_text=("1" if present or deprecated else "0") + rank,
            filter_text=label,
            text_edit=types.TextEdit(
                range=positions.range(self.start, self.end), new_text=new_text
            ),
            insert_text_format=types.InsertTextFormat.Snippet if snippet else None,
            command=TRIGGER_SUGGEST if suggest_next and self.retrigger else None,
        )
        if deprecated and self.deprecated_tag:
            item.tags = [types.CompletionItemTag.Deprecated]
        elif deprecated and self.deprecated_flag:
            item.deprecated = True
        self.items.append(item)


#: VS Code's command that opens the suggestions again (after a key: its values).
TRIGGER_SUGGEST = types.Command(title="Suggest", command="editor.action.triggerSuggest")
#: `clientInfo.name` of the editors built on VS Code (its `env.appName`), which have it.
VS_CODE_FAMILY = ("Visual Studio Code", "code-server", "VSCodium", "Cursor", "Windsurf")


def runs_trigger_suggest(client_name: str | None) -> bool:
    return bool(client_name) and str(client_name).startswith(VS_CODE_FAMILY)


def complete(
    analysis: Snapshot, position: types.Position, trigger: str | None = None
) -> types.CompletionList | None:
    """The items at `position`, for the client the snapshot was checked for; `trigger`: the
    trigger character the client says opened it (None: typed letters or Ctrl+Space)."""
    capabilities, client_name = analysis.capabilities, analysis.client_name
    model = analysis.result.model if analysis.result else None
    if model is None:
        return None
    text = analysis.text
    offset = analysis.positions.offset(position)
    line = analysis.positions.index.lsp_position(offset)[0]
    line_start = analysis.positions.index.offset_of_lsp(line, 0)
    prefix = text[line_start:offset]
    on_command_line = bool(analysis.result and analysis.result.invocations)
    if trigger == "-" and not _in_flag(text, line_start, prefix, on_command_line):
        return None  # a YAML list item's `-`: nothing is being named yet
    after = _WORD.match(text, offset)
    word_end = after.end() if after else offset
    ctx = _context(analysis, model.catalogue, capabilities, offset, word_end)
    ctx.retrigger = runs_trigger_suggest(client_name)
    if analysis.result is not None and analysis.result.invocations:
        if not _environment(ctx, analysis.result.invocations, text, line_start, offset):
            _command_line(ctx, analysis.result.invocations, text, offset)
        return types.CompletionList(is_incomplete=False, items=ctx.items) if ctx.items else None
    if _in_comment(prefix):
        _marker_comment(ctx, prefix, line)
        return types.CompletionList(is_incomplete=False, items=ctx.items) if ctx.items else None
    if _WORD.fullmatch(prefix):
        _top_key(ctx, text, prefix, line_start, offset)
    elif (top := _key_and_value(prefix)) is not None:
        key, value_at = top
        value = prefix[value_at:]
        spec = flag_for_key(model.catalogue, key)[0]
        if value[:1] in _STRUCTURED and spec is not None and spec.dataclass_name:
            _structured(ctx, key, text[line_start + value_at : offset])
        else:
            quoted = value[:1] in ("'", '"')
            ctx.start = offset - len(value) + quoted
            _top_value(ctx, key, quoted)
    elif _NESTED.fullmatch(prefix):
        _nested(ctx, text, line, prefix, offset)
    if not ctx.items:
        return None
    return types.CompletionList(is_incomplete=False, items=ctx.items)


def _in_flag(text: str, line_start: int, prefix: str, command_line: bool) -> bool:
    """Whether the `-` just typed (the end of `prefix`, the line so far) is part of a name
    being written: a flag on a command line (`--`, `-t`, `--max-`), a key's inner dash
    (`max-`); not a YAML list item's marker (a `-` alone on its line, unless the line
    before ends with a shell continuation `\\`)."""
    before = prefix[:-1]
    if not command_line:
        return bool(before) and (before[-1].isalnum() or before[-1] == "_")
    if before.strip(" \t"):
        return True
    return text[:line_start].rstrip("\r\n").endswith("\\")


def _context(
    analysis: Snapshot,
    catalogue: Catalogue,
    capabilities: types.ClientCapabilities,
    offset: int,
    word_end: int,
) -> Context:
    completion = capabilities.text_document.completion if capabilities.text_document else None
    item = completion.completion_item if completion else None
    formats = (item.documentation_format if item else None) or []
    tags = item.tag_support.value_set if item and item.tag_support else []
    return Context(
        analysis=analysis,
        catalogue=catalogue,
        formats=[str(getattr(f, "value", f)) for f in formats],
        snippets=bool(item and item.snippet_support),
        deprecated_tag=types.CompletionItemTag.Deprecated in tags,
        deprecated_flag=bool(item and item.deprecated_support),
        retrigger=False,
        start=offset,
        end=word_end,
    )


def _in_comment(prefix: str) -> bool:
    quote: str | None = None
    for index, ch in enumerate(prefix):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (index == 0 or prefix[index - 1] in " \t"):
            return True
    return False


# -- environment -----------------------------------------------------------------------------


def _environment(
    ctx: Context, models: list[ConfigModel], text: str, line_start: int, offset: int
) -> bool:
    """Variable names where a host sets the environment (a Kubernetes `env:` list, a compose
    `environment:`, `ENV`, `export`), and the choices of the variable being set; True when
    the cursor is on such a name or on a known variable's value."""
    site = environ.completion_site(text, line_start, offset)
    model = models[-1]
    catalogue = load_environ(model.version)
    if site is None or catalogue is None:
        return False
    what, start, name = site
    if what == "value":
        spec = catalogue.variables.get(name)
        if spec is None:
            return False
        ctx.start = start
        for value in environ.value_choices(spec):
            ctx.add(
                value,
                value,
                kind=types.CompletionItemKind.EnumMember,
                detail=name,
                doc=environ.describe(spec, catalogue),
            )
        return True
    ctx.start = start
    for spec in catalogue.variables.values():
        ctx.add(
            spec.name,
            spec.name,
            kind=types.CompletionItemKind.Variable,
            detail=f"default {spec.default_text()}",
            doc=environ.describe(spec, catalogue),
            present=not spec.name.startswith("VLLM_"),
        )
    return True


# -- command lines ---------------------------------------------------------------------------


def _command_line(ctx: Context, models: list[ConfigModel], text: str, offset: int) -> None:
    """Options of the command line being typed (`--max-m…`), or the choices of the option
    before the cursor; the flags already on that command line sort last."""
    model = next((m for m in reversed(models) if m.invocation.start <= offset), None)
    if model is None:
        return
    start = offset
    while start > 0 and text[start - 1] not in " \t\r\n'\"[,":
        start -= 1
    typed = text[start:offset]
    written = [w.end for w in model.invocation.args if w.end <= len(text)]  # not a template's
    between = text[max(written, default=offset) : start]
    if "\n\n" in between or ("\n" in between and "\\\n" not in between and "- " not in between):
        return  # past the end of this command line
    if _command_line_json(ctx, model, text, offset):
        return
    ctx.start = start
    note = version_note(*ctx.analysis.release_at(ctx.start))
    if typed.startswith("-"):
        used = {use.spec.name for use in model.result.uses}
        for spec in model.catalogue.flags.values():
            if spec.positional or spec.action in ("help", "version"):
                continue
            ctx.add(
                "--" + spec.name,
                "--" + spec.name,
                kind=types.CompletionItemKind.Property,
                detail=flag_detail(spec),
                doc=flag_doc(spec, note, command_line=True),
                present=spec.name in used,
                deprecated=bool(spec.deprecated),
            )
        return
    before = [w for w in model.invocation.args if w.end <= start]
    option = model.catalogue.option_index.get(before[-1].text) if before else None
    for value in choices(option) if option is not None and option.takes_value else []:
        ctx.add(
            str(value),
            str(value),
            kind=types.CompletionItemKind.EnumMember,
            doc=choice_doc(option.help, value) if option is not None else None,
        )


def _command_line_json(ctx: Context, model: ConfigModel, text: str, offset: int) -> bool:
    """Inside a JSON value on a command line (`--compilation-config '{"cudagraph_m`, or
    `--speculative-config={…`): its fields and their values, as in a `--config` file. Which
    flag the value belongs to is argparse's reading of the command line (abbreviations
    included), as hover has it."""
    for value in model.values:
        use = value.use
        for token in use.values or ([use.token] if use.explicit is not None else []):
            word = token.word
            if word is None or not word.start < offset <= word.end:
                continue
            typed = word.text[: sum(1 for start in word.starts if start < offset)]
            body = typed.partition("=")[2] if token is use.token else typed
            if not use.spec.dataclass_name or not body.startswith("{"):
                return False
            opening = word.starts[len(typed) - len(body)]
            written = text[word.start : offset]
            ctx.start = offset
            plain = '\\"' not in written and (opening == 0 or text[opening - 1] != '"')
            _in_json(ctx, use.spec, body, quotes_as_written=plain)
            return True
    return False


# -- top level -------------------------------------------------------------------------------


def _top_key(ctx: Context, text: str, prefix: str, line_start: int, offset: int) -> None:
    if "." in prefix:
        head, *path = prefix.split(".")
        spec, _ = flag_for_key(ctx.catalogue, head)
        if spec is None or not spec.dataclass_name:
            return
        ctx.start = offset - len(path[-1])
        cls = class_at(ctx.catalogue, spec, path[:-1])
        if cls is not None:
            _fields(ctx, cls, f"{spec.name}.{'.'.join(path[:-1])}".rstrip("."), set(), "yaml")
        return
    ctx.start = line_start
    has_colon = text[ctx.end : ctx.end + 1] == ":"
    line_end = text.find("\n", offset)
    others = text[:line_start] + (text[line_end:] if line_end != -1 else "")
    present = {  # written on another line (dotted keys may name a flag several times)
        spec.name
        for key in top_level_keys(others) or ()
        if "." not in key and (spec := flag_for_key(ctx.catalogue, key)[0]) is not None
    }
    note = version_note(*ctx.analysis.release_at(ctx.start))
    for spec in ctx.catalogue.flags.values():
        if spec.positional or spec.action in ("help", "version") or spec.name == "config":
            continue
        if spec.name in present:
            continue
        new_text, snippet, more = spec.name, False, False
        if not has_colon:
            new_text, snippet, more = _key_insert(ctx, spec)
        ctx.add(
            spec.name,
            new_text,
            kind=types.CompletionItemKind.Property,
            detail=flag_detail(spec),
            doc=flag_doc(spec, note),
            deprecated=bool(spec.deprecated),
            snippet=snippet,
            suggest_next=more,
        )


def _key_insert(ctx: Context, spec: FlagSpec) -> tuple[str, bool, bool]:
    """(text, whether a snippet, whether its value can be completed next)."""
    if not spec.takes_value:
        return f"{spec.name}: true", False, False
    if spec.dataclass_name:
        return f"{spec.name}:\n  ", False, True
    values = choices(spec)
    if ctx.snippets and values and spec.choices and not ctx.retrigger:
        options = ",".join(_snippet_escape(_yaml_scalar(v)) for v in values)
        return f"{spec.name}: ${{1|{options}|}}", True, False
    return f"{spec.name}: ", False, bool(values)


def _top_value(ctx: Context, key: str, quoted: bool) -> None:
    if "." in key:
        head, *path = key.split(".")
        spec, _ = flag_for_key(ctx.catalogue, head)
        if spec is not None and spec.dataclass_name:
            _field_values(ctx, spec, path, "yaml")
        return
    spec, _ = flag_for_key(ctx.catalogue, key)
    if spec is None:
        return
    if not spec.takes_value:
        ctx.add(
            "true",
            "true",
            kind=types.CompletionItemKind.Value,
            detail=f"sets --{spec.name} (`false` would be dropped by vLLM)",
        )
        return
    for value in choices(spec):
        shown = str(value)
        ctx.add(
            shown,
            _yaml_scalar(value) if not quoted else shown,
            kind=types.CompletionItemKind.EnumMember,
            detail=("choice of" if spec.choices else "known value of") + f" --{spec.name}",
            doc=choice_doc(spec.help, value),
        )


# -- nested block mappings -------------------------------------------------------------------


def _nested(ctx: Context, text: str, line: int, prefix: str, offset: int) -> None:
    index = ctx.analysis.positions.index
    indent = len(prefix) - len(prefix.lstrip(" \t"))
    rest = prefix[indent:]
    path: list[str] = []
    siblings: set[str] = set()
    current = indent
    for number in range(line - 1, -1, -1):
        start = index.offset_of_lsp(number, 0)
        raw = text[start : index.offset_of_lsp(number, 1 << 30)]
        stripped = raw.lstrip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        own = len(raw) - len(stripped)
        if own == 0 and (top := _key_and_value(raw)) is not None:
            key, value_at = top
            if raw[value_at : value_at + 1] in _STRUCTURED:  # in a JSON string or flow mapping
                _structured(ctx, key, text[start + value_at : offset])
            return
        if own == 0 and current < 0:
            return
        if own == indent == current and (sibling := _sibling_key(stripped)) is not None:
            siblings.add(sibling)
        if own >= current:
            continue
        opener = _opener_key(stripped)
        if opener is None:
            current = -1  # not a block mapping: only a structured value can be completed
        elif current > 0:
            path.insert(0, opener)
            current = own
        if own == 0:
            break
    if not path or current != 0:
        return
    spec, _ = flag_for_key(ctx.catalogue, path[0])
    if spec is None or not spec.dataclass_name:
        return
    if _WORD.fullmatch(rest):
        ctx.start = offset - len(rest)
        cls = class_at(ctx.catalogue, spec, path[1:])
        if cls is not None:
            where = ".".join([spec.name, *path[1:]])
            _fields(ctx, cls, where, siblings, "yaml")
    elif (pair := _key_and_value(rest)) is not None and _BARE_VALUE.fullmatch(rest[pair[1] :]):
        ctx.start = offset - (len(rest) - pair[1])
        _field_values(ctx, spec, [*path[1:], pair[0]], "yaml")


#: A nested value being typed: no spaces, comment or quotes.
_BARE_VALUE = re.compile(r"[^\s#'\"]*")


def _key_and_value(line: str) -> tuple[str, int] | None:
    """`key: value` (a space or tab after the colon): the key and where the value starts."""
    found = split_key(line, _KEY_START)
    if found is None or line[found[1] : found[1] + 1] not in (" ", "\t") or "\n" in line:
        return None
    key, after = found
    return key, len(line) - len(line[after:].lstrip(" \t"))


def _sibling_key(stripped: str) -> str | None:
    """The key of a nested `key:` or `key: value` line (indentation removed)."""
    found = split_key(stripped, _NESTED_KEY_START)
    if found is None:
        return None
    key, after = found
    return key if after == len(stripped) or stripped[after].isspace() else None


def _opener_key(stripped: str) -> str | None:
    """The key of a line opening a block mapping (`key:`, maybe a comment after it)."""
    found = split_key(stripped, _NESTED_KEY_START)
    if found is None or stripped[found[1] :].lstrip()[:1] not in ("", "#"):
        return None
    return found[0]


def _fields(ctx: Context, cls: ClassSpec, where: str, present: set[str], style: str) -> None:
    note = version_note(*ctx.analysis.release_at(ctx.start))
    for spec in settable_fields(cls):
        new_text = (
            spec.name
            if style == "bare"
            else f'"{spec.name}": '
            if style == "json"
            else f"{spec.name}: "
        )
        ctx.add(
            spec.name,
            new_text,
            kind=types.CompletionItemKind.Field,
            detail=field_detail(spec),
            doc=field_doc(cls, spec, f"{where}.{spec.name}", note),
            present=spec.name in present,
            suggest_next=style != "bare" and _has_values(ctx.catalogue, spec.type),
        )


def _has_values(catalogue: Catalogue, tree: dict[str, Any]) -> bool:
    """Whether a field's values are worth suggesting (a lone `null` is not)."""
    return any(value is not None for value, _ in type_values(catalogue, tree))


def _field_values(ctx: Context, spec: FlagSpec, path: list[str], style: str) -> None:
    cls = class_at(ctx.catalogue, spec, path[:-1])
    target = cls.fields.get(path[-1]) if cls else None
    if target is None:
        return
    for value, what in type_values(ctx.catalogue, target.type):
        if style == "bare":
            label = new_text = str(value)
        elif style == "json":
            label = new_text = json.dumps(value)
        else:
            label = new_text = _yaml_scalar(value)
        ctx.add(
            label,
            new_text,
            kind=types.CompletionItemKind.EnumMember,
            detail=what,
            doc=choice_doc(target.doc, value),
        )


# -- the `# vllm-config:` comment ------------------------------------------------------------

_MARKER_TYPED = re.compile(r"#\s*vllm-config\b(?P<colon>\s*:)?(?P<options>[^#]*)$")
_DISABLE_LIST = re.compile(r"(?:^|[\s,])disable(?:-next-line|-file)?\s*=[\w\s,]*,\s*$")
DISABLE_KINDS = ("disable", "disable-next-line", "disable-file")
MARKER_WORD = "vllm-config"


def _marker_comment(ctx: Context, prefix: str, line: int) -> None:
    """Options of a `# vllm-config:` comment (`version=` only where it counts: a comment
    line in the first lines), releases after `version=`, rule codes after `disable=`."""
    from vllm_config_lsp.document.markers import MARKER_LINES

    typed = _MARKER_TYPED.search(prefix)
    if typed is None:
        begun = re.search(r"#\s*(?P<word>[\w-]+)$", prefix)
        if begun is not None and MARKER_WORD.startswith(begun.group("word")):
            ctx.start -= len(begun.group("word"))
            ctx.add(
                MARKER_WORD,
                f"{MARKER_WORD}: ",
                kind=types.CompletionItemKind.Keyword,
                detail="options of vllm-config-lsp for this file",
                suggest_next=True,
            )
        return
    options = typed.group("options")
    token = re.search(r"[^\s,]*$", options)
    word = token.group() if token else ""
    key, equals, value = word.partition("=")
    ctx.start = ctx.start - len(value if equals else word)
    if equals and key == "version":
        _releases(ctx)
    elif equals and key in DISABLE_KINDS:
        _rule_codes(ctx)
    elif not equals:
        if _DISABLE_LIST.search(options[: len(options) - len(word)]):
            _rule_codes(ctx)  # a list goes on, or the next option starts
        names = list(DISABLE_KINDS)
        if line < MARKER_LINES and prefix.lstrip().startswith("#"):
            names.insert(0, "version")
        lead = "" if typed.group("colon") else ": "
        for order, name in enumerate(names):
            ctx.add(
                f"{name}=",
                f"{lead}{name}=",
                kind=types.CompletionItemKind.Keyword,
                detail=_OPTION_DETAILS[name],
                order=order,
                suggest_next=True,
            )


_OPTION_DETAILS = {
    "version": "the vLLM release this file is checked against",
    "disable": "rule codes not reported on this line",
    "disable-next-line": "rule codes not reported on the next line",
    "disable-file": "rule codes not reported in this file",
}


def _releases(ctx: Context) -> None:
    from vllm_config_lsp.vllm.catalogue import available_versions

    for order, release in enumerate(reversed(available_versions())):
        ctx.add(release, release, kind=types.CompletionItemKind.Value, detail="vLLM", order=order)


def _rule_codes(ctx: Context) -> None:
    from vllm_config_lsp.rules import all_rules

    for rule in all_rules():
        ctx.add(
            rule.code,
            rule.code,
            kind=types.CompletionItemKind.Value,
            detail=rule.name,
            doc=rule.summary,
        )


# -- JSON strings and flow mappings ----------------------------------------------------------


@dataclass
class _Frame:
    is_object: bool
    key: str | None = None
    expect_key: bool = True
    keys: set[str] = field(default_factory=set)


def _structured(ctx: Context, key: str, value: str) -> None:
    """`value` is the flag's value text up to the cursor: a JSON string (quoted or block
    scalar) or a YAML flow mapping."""
    spec, _ = flag_for_key(ctx.catalogue, key)
    if spec is None or not spec.dataclass_name:
        return
    body = value
    if body[:1] in "|>":
        newline = body.find("\n")
        if newline == -1:
            return
        body = body[newline + 1 :]
    elif body[:1] == '"':
        return  # JSON inside a double-quoted YAML string needs `\"`: not worth guessing
    elif body[:1] == "'":
        body = body[1:]
    _in_json(ctx, spec, body, quotes_as_written=True)


def _in_json(ctx: Context, spec: FlagSpec, body: str, *, quotes_as_written: bool) -> None:
    """Fields and values at the end of a JSON value's text `body` (what vLLM will read),
    the cursor at `ctx.start`. `quotes_as_written`: a `"` inserted here reaches vLLM as a
    `"` (not so inside a double-quoted shell string, where it must be `\\"`); otherwise
    only the text inside an opened string is completed."""
    scanned = _scan(body)
    if scanned is None:
        return
    stack, partial, in_string = scanned
    if not stack or not stack[-1].is_object or not (in_string or quotes_as_written):
        return
    path = [frame.key for frame in stack[:-1] if frame.key is not None]
    frame = stack[-1]
    ctx.start = ctx.start - len(partial)
    if frame.expect_key:
        cls = class_at(ctx.catalogue, spec, path)
        if cls is not None:
            style = "bare" if in_string else "json"
            _fields(ctx, cls, ".".join([spec.name, *path]), frame.keys, style)
    elif frame.key is not None:
        _field_values(ctx, spec, [*path, frame.key], "bare" if in_string else "json")


def _scan(body: str) -> tuple[list[_Frame], str, bool] | None:
    """Containers open at the end of `body`, the partial word being typed, and whether it
    is inside quotes. Tolerant: unquoted YAML flow words count as strings."""
    stack: list[_Frame] = []
    index = 0
    while index < len(body):
        ch = body[index]
        if ch in " \t\r\n":
            index += 1
            continue
        if ch in "{[":
            stack.append(_Frame(is_object=ch == "{"))
        elif ch in "}]":
            if not stack:
                return None
            stack.pop()
        elif ch == ":" and stack and stack[-1].is_object:
            stack[-1].expect_key = False
        elif ch == "," and stack and stack[-1].is_object:
            stack[-1].expect_key = True
            stack[-1].key = None
        elif ch not in ":,":
            word, index, quoted, closed = _token(body, index)
            if not closed:
                return stack, word, quoted
            if stack and stack[-1].is_object and stack[-1].expect_key:
                stack[-1].key = word
                stack[-1].keys.add(word)
            continue
        index += 1
    return stack, "", False


_BARE = re.compile(r"[^\s,:{}\[\]\"']*")


def _token(body: str, index: int) -> tuple[str, int, bool, bool]:
    """A string or bare word at `index`: (text, next index, quoted, whether it ended before
    the end of `body`, i.e. the cursor is not inside it)."""
    quote = body[index]
    if quote in "\"'":
        end = index + 1
        while end < len(body) and body[end] != quote:
            end += 2 if body[end] == "\\" else 1
        if end >= len(body):
            return body[index + 1 :], len(body), True, False
        return body[index + 1 : end], end + 1, True, True
    match = _BARE.match(body, index)
    end = max(match.end() if match else index, index + 1)
    return body[index:end], end, False, end < len(body)


# -- value spelling --------------------------------------------------------------------------


def _yaml_scalar(value: Any) -> str:
    """`value` written so that YAML reads it back unchanged (`'on'`, not `on`)."""
    import yaml

    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    text = str(value)
    if isinstance(value, str):
        try:
            if yaml.safe_load(text) == text and "#" not in text and ": " not in text:
                return text
        except yaml.YAMLError:
            pass
        return "'" + text.replace("'", "''") + "'"
    return text


def _snippet_escape(text: str) -> str:
    return re.sub(r"([$}\\,|])", r"\\\1", text)
