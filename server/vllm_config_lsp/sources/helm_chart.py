"""A Helm chart's values file, read through the chart's templates.

`values.yaml` holds no command line: a template writes the container and `{{ .Values.x }}`
puts a value into it. So the words vLLM receives from a values file are found where Helm
puts them: each template of the chart (`*.yaml`/`*.tpl` under the `templates/` folder next
to the values file, on disk; nothing is fetched or run) is rendered as far as plain value
references go, then read by the Kubernetes/Helm reader like any template, all of them as
one stream (as `helm template` prints them: a Deployment of one template runs the script a
ConfigMap of another holds). Rendering keeps Helm's order, text first and YAML after, so a
value lands the same way in a list item, a `--flag=` word, a `sh -c` script, an env
variable that `$(VAR)` names, or the image tag.

Every character of the rendered text remembers who wrote it: a value's characters point at
the values file's scalar, the template's at offsets past the values file's end
(`invocation.elsewhere`). The rules see the whole argv, the template's fixed flags
included, and the values file reports only what falls on its own values; the template,
checked as a document of its own, reports the rest. Only references that Helm renders the
same whatever the rest of the chart does are substituted: `.Values.a.b` (or `$.Values…`)
alone or piped to `quote`, `squote`, `default LITERAL` (or `default .Chart.AppVersion`, when
the value is set), and `default LITERAL .Values.a.b`; a list of scalars put in whole,
`toYaml .Values.a.b | nindent N` (or `indent N`, how charts write a container's `command:`
and `args:` from values), as the block sequence Helm prints, each item quoted;
any other action (`include`, `if`, `range`, `toYaml` of a map) stays a template, unresolved.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from yaml.nodes import MappingNode, Node, SequenceNode

from vllm_config_lsp.sources import kubernetes
from vllm_config_lsp.sources.hosts import chart_folder
from vllm_config_lsp.sources.invocation import GpuClaim, Invocation, Word, elsewhere
from vllm_config_lsp.sources.safe_read import read_text, walk
from vllm_config_lsp.sources.yaml_hosts import (
    Frame,
    documents,
    get,
    go_value,
    is_terraform_template,
    mask_templates,
    node_span,
    relocate,
    scalar_frame,
    value_of,
)

__all__ = ["find_invocations"]

#: Bounds on what is read next to a values file: an editor checks it on every keystroke.
MAX_ENTRIES = 2000
MAX_TEMPLATES = 200
MAX_TEMPLATE_BYTES = 1_000_000
MAX_TOTAL_BYTES = 4_000_000
#: Characters the templates may render to, all together: a reference repeated 1,000 times
#: to a value of 100 KB rendered 100 MB (and 5.8 GB of character maps) before. Past it a
#: reference stays as written (unresolved).
MAX_RENDERED_CHARS = 1_000_000
_SUFFIXES = (".yaml", ".tpl")

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_REFERENCE = re.compile(rf"\$?\.Values((?:\.{_NAME})+)")
_LITERAL = r'-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|`[^`]*`|true|false'
_DEFAULT_FIRST = re.compile(rf"default\s+({_LITERAL})\s+")
#: A pipeline stage: `quote`, `squote`, `default LITERAL`, or `default .Chart.AppVersion`
#: (`helm create`'s image tag: the value wins when it is set; the chart's appVersion is not
#: read, so an empty value leaves the action a template).
_STAGE = re.compile(
    rf"\s*\|\s*(?:(quote|squote)|default\s+({_LITERAL})|default\s+(\$?\.Chart\.AppVersion)\b)"
)
#: `toYaml .Values.a.b | nindent 8`: the value printed as YAML at that indentation.
_TO_YAML_BODY = rf"toYaml\s+(\$?\.Values(?:\.{_NAME})+)\s*\|\s*(n?indent)\s+(\d+)"
_TO_YAML = re.compile(_TO_YAML_BODY)
_LISTED_ACTION = re.compile(rf"\{{\{{-?\s*{_TO_YAML_BODY}\s*-?\}}\}}")
_TRIM_SPACE = " \t\r\n"
_VALUE = "yaml-value"


def find_invocations(text: str, path: Path | None) -> list[Invocation]:
    """The vLLM starts the chart's templates make of the values file `text` at `path`: the
    ones with at least one word the values wrote, anchored on the first such word."""
    folder = chart_folder(path) if path is not None else None
    if folder is None:
        return []
    roots = documents(text)
    values = roots[0] if roots else None
    found: list[Invocation] = []
    room = MAX_RENDERED_CHARS
    keys: dict[tuple[int, int], str] = {}
    frames: list[Frame] = []
    for template in _templates(folder / "templates"):
        rendered = _render(template, values, text, room, keys)
        room = max(0, room - len(rendered.text))
        frames.append(rendered)
    # one stream, as `helm template` prints it: a container runs the script a ConfigMap
    # of another template holds (`sources.kubernetes`, mounted scripts)
    rendered = _joined(frames, elsewhere(text, 0))
    for invocation in kubernetes.find_invocations(rendered.text, expand_env=True):
        on_values = _on_values(relocate(invocation, rendered), text, keys)
        if on_values is not None:
            found.append(on_values)
    return found


#: Between two rendered templates: a line that ends one YAML document and starts the next.
_SEPARATOR = "\n---\n"


def _joined(frames: list[Frame], at: int) -> Frame:
    """The rendered templates as one text, each character still mapped to who wrote it;
    the separators map to `at` (the template side, past the values file)."""
    text: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for index, frame in enumerate(frames):
        if index:
            text.append(_SEPARATOR)
            starts.extend([at] * len(_SEPARATOR))
            ends.extend([at] * len(_SEPARATOR))
        text.append(frame.text)
        starts.extend(frame.starts or range(len(frame.text)))
        ends.extend(frame.ends or range(1, len(frame.text) + 1))
    end = frames[-1].end if frames else at
    return Frame("".join(text), tuple(starts), tuple(ends), end)


def _templates(folder: Path) -> Iterator[str]:
    """The chart's templates in path order, within bounds: regular files under the folder
    (no symbolic link, which may lead out of the chart), a size per file and in all."""
    paths: list[Path] = []
    entries = 0
    for root, dirs, files in walk(folder):  # does not follow links to folders
        dirs.sort()
        entries += len(dirs) + len(files)
        paths.extend(Path(root, name) for name in sorted(files) if name.endswith(_SUFFIXES))
        if entries > MAX_ENTRIES:
            break
    total = 0
    for path in paths[:MAX_TEMPLATES]:
        if os.path.islink(path):
            continue
        text = read_text(path, min(MAX_TEMPLATE_BYTES, MAX_TOTAL_BYTES - total))
        if text is not None:
            total += len(text.encode("utf-8"))
            yield text


def _render(
    template: str,
    values: Node | None,
    values_text: str,
    room: int,
    keys: dict[tuple[int, int], str],
) -> Frame:
    """The template with each simple value reference replaced by its value (Helm's `{{-`
    and `-}}` trim the template's spaces beside it), every character mapped to the text
    that wrote it: the values file, or the template (`elsewhere`). Values are put in while
    the rendered text stays within `room` characters; `keys` gathers the values key path
    (`vllm.tensorParallelSize`) of each value put in, by the span of its scalar."""
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []

    def copy(start: int, end: int) -> None:
        chars.extend(template[start:end])
        starts.extend(elsewhere(values_text, at) for at in range(start, end))
        ends.extend(elsewhere(values_text, at + 1) for at in range(start, end))

    done = 0
    read: dict[int, Frame | None] = {}  # each value node's characters, read once
    masked = mask_templates(template, is_terraform_template(template)).spans
    for start, end in sorted({*masked, *_listed(template)}):
        value = _value(template, start, end, values, values_text, read, keys)
        if value is None or value.starts is None or value.ends is None:
            continue
        if len(chars) + (start - done) + len(value.text) > room:
            continue  # past MAX_RENDERED_CHARS: the action stays as written
        floor = len(chars)
        copy(done, start)
        if template.startswith("{{-", start) and template[start + 3 : start + 4] in _TRIM_SPACE:
            while len(chars) > floor and chars[-1] in _TRIM_SPACE:
                del chars[-1], starts[-1], ends[-1]
        chars.extend(value.text)
        starts.extend(value.starts)
        ends.extend(value.ends)
        done = end
        if template.startswith("-}}", end - 3) and template[end - 4 : end - 3] in _TRIM_SPACE:
            while done < len(template) and template[done] in _TRIM_SPACE:
                done += 1
    copy(done, len(template))
    return Frame("".join(chars), tuple(starts), tuple(ends), elsewhere(values_text, len(template)))


def _listed(template: str) -> Iterator[tuple[int, int]]:
    """The `toYaml .Values.a.b | nindent N` actions, which sit alone on their lines (so
    `mask_templates` blanks them rather than holding their place)."""
    for found in _LISTED_ACTION.finditer(template):
        yield found.start(), found.end()


def _value(
    template: str,
    start: int,
    end: int,
    values: Node | None,
    values_text: str,
    read: dict[int, Frame | None],
    keys: dict[tuple[int, int], str],
) -> Frame | None:
    """What the action `template[start:end]` prints, or None unless it is a simple value
    reference: the value's characters from the values file, the quotes and defaults the
    template adds from the action."""
    body = template[start + 2 : end - 2].strip(_TRIM_SPACE)
    body = body.removeprefix("-").removesuffix("-").strip(_TRIM_SPACE)
    listed = _TO_YAML.fullmatch(body)
    if listed is not None:
        action = (elsewhere(values_text, start), elsewhere(values_text, end))
        path = listed.group(1).split(".Values.", 1)[1]
        node = _lookup(values, path.split("."))
        indent = int(listed.group(3))
        return _sequence(node, values_text, action, indent, listed.group(2) == "nindent")
    stages: list[tuple[str, str | None]] = []
    first = _DEFAULT_FIRST.match(body)
    if first is not None:
        stages.append(("default", first.group(1)))
    at = first.end() if first else 0
    reference = _REFERENCE.match(body, at)
    if reference is None:
        return None
    at = reference.end()
    while at < len(body):
        stage = _STAGE.match(body, at)
        if stage is None:
            return None
        if stage.group(3):
            stages.append(("default-chart", None))
        else:
            stages.append((stage.group(1), None) if stage.group(1) else ("default", stage.group(2)))
        at = stage.end()
    path = reference.group(1)[1:]
    node = _lookup(values, path.split("."))
    if node is not None:
        keys.setdefault(node_span(Frame(values_text), node), path)
    loaded = value_of(node)
    if id(node) not in read:
        read[id(node)] = _from_values(node, loaded, values_text)
    printed = read[id(node)]
    action = (elsewhere(values_text, start), elsewhere(values_text, end))
    for name, literal in stages:
        if name == "default-chart":
            if not loaded:
                return None  # the chart's appVersion: not read
        elif name == "default":
            if not loaded:  # Sprig's `empty`: nil, false, 0, "", an empty list or map
                loaded = _literal(literal or "")
                printed = _printed(go_value(loaded), action) if loaded is not None else None
        elif printed is not None:
            mark = '"' if name == "quote" else "'"
            if mark in printed.text or "\\" in printed.text or not printed.text.isprintable():
                return None  # Go would escape it: not worth following
            assert printed.starts is not None and printed.ends is not None
            printed = Frame(
                mark + printed.text + mark,
                (action[0], *printed.starts, action[1] - 1),
                (action[0] + 1, *printed.ends, action[1]),
                printed.end,
            )
            loaded = printed.text
    return printed


def _sequence(
    node: Node | None,
    values_text: str,
    action: tuple[int, int],
    indent: int,
    newline: bool,
) -> Frame | None:
    """A list of scalars as `toYaml | nindent` prints it: one `- "item"` line each at
    `indent` spaces (after a line break for `nindent`), each item's characters on its
    scalar and the rest on the action; None for anything else (a map, a nested list, a
    value Go would escape), which stays a template."""
    if not isinstance(node, SequenceNode) or not node.value or indent > 200:
        return None
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []

    def written(text: str) -> None:  # characters the action writes
        chars.extend(text)
        starts.extend([action[0]] * len(text))
        ends.extend([action[1]] * len(text))

    for index, item in enumerate(node.value):
        printed = _from_values(item, value_of(item), values_text)
        if printed is None or printed.starts is None or printed.ends is None:
            return None
        if '"' in printed.text or "\\" in printed.text or not printed.text.isprintable():
            return None
        written(("\n" if newline or index else "") + " " * indent + '- "')
        chars.extend(printed.text)
        starts.extend(printed.starts)
        ends.extend(printed.ends)
        written('"')
    return Frame("".join(chars), tuple(starts), tuple(ends), action[1])


def _lookup(values: Node | None, keys: list[str]) -> Node | None:
    """The node of `.Values.a.b`, or None where a key is missing."""
    node = values
    for key in keys:
        if not isinstance(node, MappingNode):
            return None
        node = get(node, key)
    return node


def _from_values(node: Node | None, loaded: Any, values_text: str) -> Frame | None:
    """A scalar value as Helm prints it, on its scalar: character for character where the
    printed text is the loaded one, else every character on the whole scalar. Maps,
    lists, nulls and multi-line strings are not printed into a command line simply."""
    if node is None or not isinstance(loaded, (str, int, float)):
        return None
    text = go_value(loaded)
    if "\n" in text or "\r" in text:
        return None
    document = Frame(values_text)
    exact = scalar_frame(document, node)
    if exact is not None and exact.text == text:
        return exact
    return _printed(text, node_span(document, node))


def _printed(text: str, span: tuple[int, int]) -> Frame:
    """A text written by a span as a whole (a default in the action, a reformatted number)."""
    n = len(text)
    return Frame(text, (span[0],) * n, (span[1],) * n, span[1])


def _literal(text: str) -> Any:
    """A Go template literal's value (`8`, `0.9`, `"auto"`, a raw string, `true`)."""
    if text in ("true", "false"):
        return text == "true"
    if text.startswith("`"):
        return text[1:-1]
    try:
        if text.startswith('"'):
            return json.loads(text)
        return float(text) if "." in text else int(text)
    except ValueError:
        return None


def _on_values(
    invocation: Invocation, text: str, keys: dict[tuple[int, int], str]
) -> Invocation | None:
    """The invocation as the values file sees it, or None when no word holds a value: each
    word that holds one spans its values (a flag the template writes around a value is
    found on the value's line), and the start is the first such word. A flag the template
    writes whose value a values key gives (`--tensor-parallel-size` then
    `{{ .Values.vllm.tensorParallelSize }}`, or `--port={{ .Values.port }}`) is named by
    that key (`Word.field`): what the user edits in this file (issue 34)."""
    length = len(text)
    args = [_anchored(word, length) for word in invocation.args]
    first = next((word for word in args if word.end <= length), None)
    if first is None:
        return None
    for at, word in enumerate(args):
        if not word.text.startswith("-") or word.field is not None:
            continue
        if word.end > length and at + 1 < len(args) and not args[at + 1].text.startswith("-"):
            key = _key_of(args[at + 1], length, keys)  # `--flag` then its value
        elif word.end <= length and "=" in word.text and word.starts[0] >= length:
            key = _key_of(word, length, keys)  # `--flag={{ .Values.x }}`
        else:
            continue
        if key is not None:
            args[at] = replace(word, field=key)
    gpus = tuple(_claim_on_values(claim, length, keys) for claim in invocation.gpus)
    return replace(
        invocation, source="helm", start=first.start, end=first.end, args=args, gpus=gpus
    )


def _claim_on_values(claim: GpuClaim, length: int, keys: dict[tuple[int, int], str]) -> GpuClaim:
    """A GPU claim whose text a values key wrote (`nvidia.com/gpu: {{ .Values.gpus }}`) is
    named by that key, the place a fix asks for more GPUs (`gpus: 4`)."""
    key = _key_at(claim.start, claim.end, keys) if 0 <= claim.start < claim.end <= length else None
    return replace(claim, origin=key) if key is not None else claim


def _key_of(word: Word, length: int, keys: dict[tuple[int, int], str]) -> str | None:
    """The values key whose scalar wrote the word's characters that the values file wrote."""
    return _key_at(word.start, word.end, keys) if word.end <= length else None


def _key_at(start: int, end: int, keys: dict[tuple[int, int], str]) -> str | None:
    """The one values key whose scalar holds `[start, end)`, if one does."""
    found = {key for (at, to), key in keys.items() if at <= start and end <= to}
    return found.pop() if len(found) == 1 else None


def _anchored(word: Word, length: int) -> Word:
    """A word whose characters the values file partly wrote, spanning those characters,
    with their quoting (a replacement goes into the values file's YAML)."""
    own = [(start, end) for start, end in zip(word.starts, word.ends, strict=True) if end <= length]
    if not own:
        return word
    return replace(
        word,
        start=min(start for start, _ in own),
        end=max(end for _, end in own),
        quoting=_VALUE,
    )
