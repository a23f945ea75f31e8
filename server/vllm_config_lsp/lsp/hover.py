"""Hover: what vLLM says about the flag, nested field or value under the cursor, the model
behind `model:` and the speculative draft (`model_files.describe_model`: their files, read
offline), and the rule behind
a code in a suppression comment. Every hover ends with the vLLM release used and why
(`versions.choose_version`'s reason).

The documentation comes first: on the `model:` key the flag's, the model's files after it
(one sentence when they are not found). A key that names no flag or field is documented as
what it stands for: the flag argparse reads it as (an abbreviation), else the name its quick
fix renames it to (`level` → `mode`), so the user learns what to write, not only that it is
wrong.

Works on the positioned model of the current text: top-level pairs for flags, the JSON
trees of mapping-valued flags (YAML mappings, JSON strings, dotted keys alike) for fields.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

from lsprotocol import types

from vllm_config_lsp.document.value_tree import ValueNode
from vllm_config_lsp.document.yaml_edits import content_end
from vllm_config_lsp.findings import Finding
from vllm_config_lsp.lsp.describe import (
    choices,
    class_at,
    field_doc,
    flag_doc,
    flag_for_key,
    version_note,
)
from vllm_config_lsp.lsp.environ import hover as environ_hover
from vllm_config_lsp.rules.memory import BUDGET_FLAGS, memory_summary
from vllm_config_lsp.rules.support import entries
from vllm_config_lsp.sources.yaml_origin import Pair
from vllm_config_lsp.vllm.catalogue import Catalogue, ClassSpec, FieldSpec, FlagSpec
from vllm_config_lsp.vllm.config_model import ConfigModel

if TYPE_CHECKING:
    from vllm_config_lsp.lsp.session import Session, Snapshot
    from vllm_config_lsp.sources.invocation import Word

#: The flag whose value names the model (`model_files` reads that model's files).
MODEL_FLAG = "model"


def _version_note(analysis: Snapshot, offset: int) -> str:
    """The release the checks use there (the command line's own), and why."""
    return version_note(*analysis.release_at(offset))


async def hover(
    session: Session, analysis: Snapshot, position: types.Position, docs_url: str
) -> types.Hover | None:
    """The request: the model's summary is read on the lint thread (files, caches), in the
    model folders the document was checked with."""
    from vllm_config_lsp.vllm.model_files import describe_model

    if analysis.result is None or analysis.result.model is None:
        return None
    model, offset = analysis.result.model, analysis.positions.offset(position)
    draft = on_draft(model, offset)
    part = None if draft is not None else on_model(model, offset)
    summary = None
    if draft is not None or part is not None:
        folders = analysis.checked.options.model_dirs
        describe = partial(describe_model, draft=draft is not None, brief=part == "key")
        summary = await session.run_on_lint_thread(describe, analysis.text, analysis.path, folders)
    if draft is not None and summary is not None:
        text = f"{summary}\n\n{_version_note(analysis, offset)}"
        return markdown_hover(analysis, text, draft, analysis.capabilities)
    return hover_at(analysis, position, analysis.capabilities, docs_url, summary)


def on_draft(model: ConfigModel, offset: int) -> tuple[int, int] | None:
    """Where the speculative draft is named, when `offset` is on it."""
    from vllm_config_lsp.vllm.model_files import draft_reference

    ref = draft_reference(model)
    if ref is None or not ref.where[0] <= offset <= ref.where[1]:
        return None
    return ref.where


def on_model(model: ConfigModel, offset: int) -> str | None:
    """ "key" or "value" when `offset` is on the top-level `model:` key or its value."""
    for pair in entries(model):
        spec, _ = flag_for_key(model.catalogue, pair.key)
        if spec is None or spec.name != MODEL_FLAG or "." in pair.key:
            continue
        start, key_end = pair.key_node.start_mark.index, pair.key_node.end_mark.index
        if start <= offset <= key_end:
            return "key"
        if key_end < offset <= _value_end(model, pair):
            return "value"
    return None


def _value_end(model: ConfigModel, pair: Pair) -> int:
    return content_end(model.text, pair.value_node)


def hover_at(
    analysis: Snapshot,
    position: types.Position,
    capabilities: types.ClientCapabilities,
    docs_url: str,
    model_summary: str | None = None,
) -> types.Hover | None:
    model = analysis.result.model if analysis.result else None
    if model is None:
        return None
    offset = analysis.positions.offset(position)
    note = _version_note(analysis, offset)
    invocations = analysis.result.invocations if analysis.result else []
    findings = analysis.result.findings if analysis.result else []
    found = _suppression_code(model, offset, docs_url, note) or _on_target(
        invocations or [model], offset
    )
    if found is None and invocations:
        found = environ_hover(invocations, offset)
    if found is None:
        found = (
            _on_command_line(invocations, offset, note, findings)
            if invocations
            else _describe(analysis, model, offset, findings, model_summary)
        )
    if found is None:
        return None
    text, span = found
    return markdown_hover(analysis, text, span, capabilities)


def markdown_hover(
    analysis: Snapshot, text: str, span: tuple[int, int], capabilities: types.ClientCapabilities
) -> types.Hover:
    """The hover in markdown, or as plain text for clients that cannot render it."""
    markdown = _markdown_ok(capabilities)
    return types.Hover(
        contents=types.MarkupContent(
            kind=types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText,
            value=text if markdown else text.replace("**", "").replace("`", ""),
        ),
        range=analysis.positions.range(*span),
    )


def _markdown_ok(capabilities: types.ClientCapabilities) -> bool:
    hover = capabilities.text_document.hover if capabilities.text_document else None
    formats = hover.content_format if hover else None
    return not formats or types.MarkupKind.Markdown in formats


def _on_target(models: Sequence[ConfigModel], offset: int) -> tuple[str, tuple[int, int]] | None:
    """What the text that states the target GPUs resolved to."""
    for model in models:
        target = model.target
        for start, end, origin in target.spans() if target is not None else ():
            if start <= offset <= end and target is not None:
                text = f"**Target:** {target.describe()}\n\n_read from {origin}_"
                if target.count_origin and origin != target.count_origin:
                    text += f"; _the count from {target.count_origin}_"
                elif target.count is None:
                    text += "; _no GPU count given: the world-size check stays off_"
                return text, (start, end)
    return None


def _suppression_code(
    model: ConfigModel, offset: int, docs_url: str, note: str
) -> tuple[str, tuple[int, int]] | None:
    from vllm_config_lsp.rules import rule_by_code
    from vllm_config_lsp.rules.suppression import comments

    for comment in comments(model):
        if comment.line != model.index.lsp_position(offset)[0]:
            continue
        for directive in comment.directives:
            for ref in directive.codes:
                if ref.start <= offset <= ref.end:
                    rule = rule_by_code(ref.code)
                    if rule is None:
                        text = f"`{ref.code}`: no such vllm-config rule\n\n{note}"
                        return text, (ref.start, ref.end)
                    why = f"Disabled here: {comment.reason}\n\n" if comment.reason else ""
                    text = (
                        f"**{rule.code} {rule.name}**\n\n{rule.summary}.\n\n{why}"
                        f"[Documentation]({docs_url}{rule.code}.md)\n\n{note}"
                    )
                    return text, (ref.start, ref.end)
    return None


def _describe(
    analysis: Snapshot,
    model: ConfigModel,
    offset: int,
    findings: Sequence[Finding],
    model_summary: str | None = None,
) -> tuple[str, tuple[int, int]] | None:
    note = _version_note(analysis, offset)
    catalogue = model.catalogue
    for pair in entries(model):  # keys first: a block value's end mark is the next key
        key_start, key_end = pair.key_node.start_mark.index, pair.key_node.end_mark.index
        if not key_start <= offset <= key_end:
            continue
        found = _key_doc(model, pair, offset - key_start, findings, note, model_summary)
        return (found, (key_start, key_end)) if found is not None else None
    for pair in entries(model):
        spec, _ = flag_for_key(catalogue, pair.key)
        start = pair.value_node.start_mark.index
        end = content_end(model.text, pair.value_node)
        if spec is None or not start <= offset <= end:
            continue
        if model_summary and spec.name == MODEL_FLAG and "." not in pair.key:
            return f"{model_summary}\n\n{note}", (start, end)
        tree = _tree_of(model, pair)
        if tree is not None and spec.dataclass_name:
            return _in_tree(model, spec, tree, offset, note, findings)
        values = choices(spec)
        written = str(pair.value)
        if values and written in map(str, values):
            listed = ", ".join(f"`{v}`" for v in values)
            kind = "one of the choices" if spec.choices else "a known value"
            text = f"`{written}`: {kind} of `--{spec.name}` ({listed})\n\n{note}"
            return text, (start, end)
        return None
    return None


def _key_doc(
    model: ConfigModel,
    pair: Pair,
    at: int,
    findings: Sequence[Finding],
    note: str,
    model_summary: str | None,
) -> str | None:
    """The documentation of the flag, or of the field of a dotted key, under the cursor
    (`at` characters into the key)."""
    catalogue, written = model.catalogue, pair.key
    index = written[:at].count(".")
    key, lead = written, ""
    if flag_for_key(catalogue, key)[0] is None and (read_as := _read_as(model, pair)):
        key = read_as.name + key[len(key.split(".", 1)[0]) :]
        lead = (
            f"`{written}` is read as `--{read_as.name}` "
            "(argparse accepts a unique prefix of a flag).\n\n"
        )

    def documented(key: str, lead: str) -> str | None:
        spec, negative = flag_for_key(catalogue, key)
        if spec is None:
            return None
        if index == 0:
            if negative:
                lead += f"`{key}: true` turns the flag off.\n\n"
            ending = note
            if model_summary and spec.name == MODEL_FLAG:
                ending = f"---\n\n{model_summary}\n\n{note}"
            elif spec.name in BUDGET_FLAGS and (budget := memory_summary(model)):
                ending = f"---\n\nMemory on the target GPU: {budget}\n\n{note}"
            return lead + flag_doc(spec, ending)
        dotted = key.split(".")
        field = _field_of(catalogue, spec, dotted[1 : index + 1])
        where = ".".join(dotted[: index + 1])
        return lead + field_doc(*field, where, note) if field is not None else None

    found = documented(key, lead)
    span = (pair.key_node.start_mark.index, pair.key_node.end_mark.index)
    if found is None and (renamed := _renamed(findings, model.text, span)):
        return documented(renamed, _renamed_lead(written, renamed))
    return found


def _renamed_lead(written: str, renamed: str) -> str:
    return f"`{written}`: its quick fix renames it `{renamed}`.\n\n"


def _field_of(
    catalogue: Catalogue, spec: FlagSpec, path: list[str]
) -> tuple[ClassSpec, FieldSpec] | None:
    """The config class and field at `path` inside a JSON-valued flag."""
    cls = class_at(catalogue, spec, path[:-1])
    field = cls.fields.get(path[-1]) if cls else None
    return (cls, field) if cls is not None and field is not None else None


def _read_as(model: ConfigModel, pair: Pair) -> FlagSpec | None:
    """The flag argparse took a top-level key for (`tensor-parallel`: an abbreviation)."""
    for value in model.values:
        if value.use.token.pair is pair:
            return value.use.spec
    return None


def _renamed(findings: Sequence[Finding], text: str, span: tuple[int, int]) -> str | None:
    """The key at `span` of `text` as a quick fix renames it: a fix whose one edit replaces
    a part of it by a name (a removal or a wider rewrite is no rename)."""
    start, end = span
    for finding in findings:
        for fix in finding.fixes:
            if len(fix.edits) != 1:
                continue
            [edit] = fix.edits
            new = edit.new_text
            if start <= edit.start < edit.end <= end and new and not any(c in new for c in " :\n"):
                return (text[start : edit.start] + new + text[edit.end : end]).strip("'\"")
    return None


def _on_command_line(
    models: list[ConfigModel], offset: int, note: str, findings: Sequence[Finding]
) -> tuple[str, tuple[int, int]] | None:
    """A flag word, its value, or a field inside its JSON value, on any host's command
    line; a value written as a variable says where it comes from."""
    for model in models:
        for value in model.values:
            use = value.use
            word = use.token.word
            if word is None or use.token.dotted:
                continue
            option_end = word.source_range(0, len(word.text.split("=", 1)[0]))[1]
            # (an option a chart's template wrote around a value is not in this document)
            if word.start <= offset <= option_end <= len(model.text):
                return flag_doc(use.spec, note, command_line=True), (word.start, option_end)
            for token in use.values or ([use.token] if use.explicit is not None else []):
                written = token.word
                if written is None:
                    continue
                inside = written.resolved and written.start <= offset <= written.end
                if inside and value.tree is not None and use.spec.dataclass_name:
                    # in a JSON value, its own field's documentation (a values key too)
                    return _in_tree(model, use.spec, value.tree, offset, note, findings)
                keyed = _values_key(model.text, word, written, option_end, offset)
                if keyed is not None:
                    said, span = keyed
                    return said + flag_doc(use.spec, note, command_line=True), span
                if not written.start <= offset <= written.end:
                    continue
                if not written.resolved:
                    said = ", ".join(f"`{part}`" for part in written.unresolved) or "a variable"
                    text = f"value comes from {said}: not known here\n\n"
                    return text + flag_doc(use.spec, note, command_line=True), (
                        written.start,
                        written.end,
                    )
                if value.tree is not None and use.spec.dataclass_name:
                    return _in_tree(model, use.spec, value.tree, offset, note, findings)
                return flag_doc(use.spec, note, command_line=True), (written.start, written.end)
    return None


def _values_key(
    text: str, flag: Word, value: Word, option_end: int, offset: int
) -> tuple[str, tuple[int, int]] | None:
    """On a chart's values file: the values key (or its value) that gives the flag a
    chart's template writes its value (`Word.field`, `sources.helm_chart`): the hover
    names the key as the user edits it, then the flag it sets (issue 34 item 4)."""
    if flag.field is None or option_end <= len(text) or flag.quoting.startswith("python"):
        return None
    if not value.start < value.end <= len(text):
        return None
    if value.start <= offset <= value.end:
        span = (value.start, value.end)
    else:
        line = text.rfind("\n", 0, value.start) + 1
        key = flag.field.rsplit(".", 1)[-1]
        head = re.match(rf"[ \t]*(?:-[ \t]+)?({re.escape(key)})[ \t]*:", text[line : value.start])
        if head is None or not line + head.start(1) <= offset <= line + head.end(1):
            return None
        span = (line + head.start(1), line + head.end(1))
    option = flag.text.split("=", 1)[0]
    return f"`{flag.field}` (this chart's value) sets `{option}`\n\n", span


def _tree_of(model: ConfigModel, pair: Pair) -> ValueNode | None:
    for value in model.values:
        token = value.use.token
        if value.tree is not None and (
            token.pair is pair or any(p.key_token.pair is pair for p in token.dotted or ())
        ):
            return value.tree
    return None


def _in_tree(
    model: ConfigModel,
    spec: FlagSpec,
    tree: ValueNode,
    offset: int,
    note: str,
    findings: Sequence[Finding],
) -> tuple[str, tuple[int, int]] | None:
    catalogue = model.catalogue
    path: list[str] = []
    node = tree
    while node.entries:
        for entry in node.entries:
            if entry.key_start <= offset <= entry.key_end and entry.key_end > entry.key_start:
                name, lead = entry.key, ""
                field = _field_of(catalogue, spec, [*path, name])
                span = (entry.key_start, entry.key_end)
                if field is None and (renamed := _renamed(findings, model.text, span)):
                    name, lead = renamed, _renamed_lead(entry.key, renamed)
                    field = _field_of(catalogue, spec, [*path, name])
                if field is None:
                    return None
                where = ".".join([spec.name, *path, name])
                text = lead + field_doc(*field, where, note)
                return text, (entry.key_start, entry.key_end)
            inner = entry.value
            if inner.start <= offset <= inner.end and inner.end > inner.start:
                if not inner.entries:
                    return _field_value(catalogue, spec, [*path, entry.key], inner, note)
                path.append(entry.key)
                node = inner
                break
        else:
            return None
    return None


def _field_value(
    catalogue: Catalogue, spec: FlagSpec, path: list[str], node: ValueNode, note: str
) -> tuple[str, tuple[int, int]] | None:
    cls = class_at(catalogue, spec, path[:-1])
    field = cls.fields.get(path[-1]) if cls else None
    if field is None:
        return None
    tree = field.type
    options = [tree, *(tree.get("options") or ())]
    for option in options:
        if option.get("kind") != "enum":
            continue
        name = str(option.get("name"))
        members = catalogue.enums.get(name, {})
        for member, value in members.items():
            if node.value == value or (
                isinstance(node.value, str) and node.value.upper() == member
            ):
                listed = ", ".join(f"`{m}`" for m in members)
                text = f"`{name}.{member}` (= `{value}`)\n\nMembers: {listed}\n\n{note}"
                return text, (node.start, node.end)
    return None
