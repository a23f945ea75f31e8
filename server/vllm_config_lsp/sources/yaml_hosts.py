"""What the YAML hosts (Kubernetes, Helm, compose, GitHub workflows) have in common.

Every one of them writes a command line as YAML scalars that something else interprets
(Kubernetes' `$(VAR)`, compose interpolation and its shell-like splitter, a shell run by
`sh -c` or by a workflow step), and several are templates that are not YAML until rendered
(Helm's `{{ }}`, Terraform's `${}`/`%{}`, Actions' `${{ }}`). So the shared pieces are:

* `Frame`: a text whose characters sit somewhere in the document (the document itself, a
  loaded scalar, a YAML document inside a scalar), so that a word found in it can be
  given document offsets however deep it was found;
* `Masked`: a template whose actions are replaced, length for length, by spaces (control
  lines: every branch stays in the file) or by a placeholder (expressions inside a value),
  and put back into the words afterwards as unresolved parts;
* the YAML tree helpers the hosts share (`documents`, `pairs`, `get`, `walk`).

What an argv runs is `sources.argv`'s to say, and `shell.argv_invocations` reads it.

Nothing here raises on malformed input, and every pass is linear in the text.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from functools import cached_property
from itertools import pairwise
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from vllm_config_lsp.document.yaml_scalars import scalar_source_map
from vllm_config_lsp.document.yaml_tree import construct_value, mapping_pairs, parse_yaml
from vllm_config_lsp.sources.invocation import EnvVar, Invocation, Word
from vllm_config_lsp.sources.source_map import SourceMap

__all__ = [
    "Frame",
    "Masked",
    "documents",
    "get",
    "get_pair",
    "go_value",
    "items",
    "key_word",
    "mask_github",
    "mask_templates",
    "node_span",
    "pairs",
    "relocate",
    "relocate_word",
    "scalar_frame",
    "scalar_word",
    "synthetic_word",
    "text_of",
    "value_of",
    "value_word",
    "walk",
]


# -- positions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """A text whose characters sit somewhere in the document. The document itself has no
    maps (offsets are document offsets); a loaded scalar or a word maps each of its
    characters to the document span that wrote it, so anything found in its text (a
    shell command in a `sh -c` string, a YAML document in a ConfigMap) can be relocated."""

    text: str
    starts: tuple[int, ...] | None = None
    ends: tuple[int, ...] | None = None
    #: Document offset just past the text (where an empty suffix would be).
    end: int = 0

    @classmethod
    def of_word(cls, word: Word) -> Frame:
        """A word's text as a frame: what a script string holds maps through its quoting."""
        return cls(word.text, word.starts, word.ends, word.end)

    @cached_property
    def source_map(self) -> SourceMap:
        """The frame's offsets as a `SourceMap` (which moves what is found in the text)."""
        return SourceMap(self.starts, self.ends, self.end)

    def start_of(self, index: int) -> int:
        """Document offset where character `index` starts (the end past the last one)."""
        return self.source_map.start_of(index)

    def end_of(self, index: int) -> int:
        """Document offset of the exclusive end `index`: the end of character `index - 1`."""
        return self.source_map.end_of(index)


def relocate_word(word: Word, frame: Frame) -> Word:
    """A word found in `frame.text`, with document offsets."""
    return frame.source_map.word(word)


def env_mapping(
    frame: Frame,
    node: Node | None,
    origin: str,
    restore: Callable[[Word], Word] = lambda word: word,
    value_of: Callable[[Word], Word] = lambda word: word,
) -> tuple[EnvVar, ...]:
    """A `NAME: value` mapping of environment variables (workflow and service `env:`,
    compose `environment:`, Ray `runtime_env.env_vars`): a value that is no scalar (or
    null) is not known here. `restore` puts template text back; `value_of` applies the
    host's own substitution to a value."""
    found: list[EnvVar] = []
    if not isinstance(node, MappingNode):
        return ()
    for key, value in node.value:
        name = scalar_word(frame, key, "yaml-value")
        if name is None or not name.text:
            continue
        word = None
        if isinstance(value, ScalarNode) and not value.tag.endswith(":null"):
            word = scalar_word(frame, value, "yaml-value")
        found.append(
            EnvVar(restore(name), None if word is None else restore(value_of(word)), origin)
        )
    return tuple(found)


def relocate(invocation: Invocation, frame: Frame, *, image: str | None = None) -> Invocation:
    """An invocation found in `frame.text` (a script string), with document offsets; the
    container image is filled in when the script did not name one itself."""
    return frame.source_map.invocation(invocation, image=image)


def node_span(frame: Frame, node: Node) -> tuple[int, int]:
    """Document span of a node of `frame.text` (quotes and block headers included)."""
    return frame.start_of(node.start_mark.index), frame.end_of(node.end_mark.index)


def scalar_frame(frame: Frame, node: Node) -> Frame | None:
    """The loaded value of a scalar node of `frame.text`, each character mapped to the
    document text that wrote it (quotes, escapes, folding and block indentation
    accounted for by `scalar_source_map`). When the map cannot be rebuilt, every
    character maps to the whole scalar: positions get coarse, never wrong."""
    if not isinstance(node, ScalarNode):
        return None
    value = node.value
    start, end = node.start_mark.index, node.end_mark.index
    smap = scalar_source_map(frame.text, start, end, node.style, value=value)
    if smap is None:
        doc_start, doc_end = node_span(frame, node)
        n = len(value)
        return Frame(value, (doc_start,) * n, (doc_end,) * n, doc_end)
    return Frame(
        value,
        tuple(frame.start_of(i) for i in smap.starts),
        tuple(frame.end_of(i) for i in smap.ends),
        frame.end_of(smap.end),
    )


def scalar_word(frame: Frame, node: Node, quoting: str) -> Word | None:
    """One argv element written as a YAML scalar (a list item, a key's value)."""
    inner = scalar_frame(frame, node)
    if inner is None or inner.starts is None or inner.ends is None:
        return None
    start, end = node_span(frame, node)
    return Word(inner.text, start, end, inner.starts, inner.ends, quoting=quoting)


def synthetic_word(text: str, start: int, end: int, quoting: str) -> Word:
    """A word a host generates from some text (`maxModelLen:` → `--max-model-len`): every
    character maps to the whole span that caused it."""
    n = len(text)
    return Word(text, start, end, (start,) * n, (end,) * n, quoting=quoting)


def key_word(frame: Frame, key: Node, flag: str) -> Word:
    """The flag an operator or launcher writes for a key: when it is the key itself, or the
    key with `--` in front, its characters map one to one onto the key's; otherwise (a
    spelling the host derives, `maxModelLen` → `--max-model-len`) it spans the key."""
    start, end = node_span(frame, key)
    name = scalar_frame(frame, key)
    if name is not None and name.starts is not None and name.ends is not None and name.text:
        if flag == name.text:
            return Word(flag, start, end, name.starts, name.ends, quoting="yaml-key")
        if flag == "--" + name.text:
            starts = (start, start, *name.starts)
            return Word(flag, start, end, starts, (end, end, *name.ends), quoting="yaml-key")
    return synthetic_word(flag, start, end, "yaml-key")


def value_word(frame: Frame, node: Node, text: str, quoting: str = "yaml-value") -> Word:
    """The value a host passes for a key's value: the scalar itself when it is passed as
    loaded, otherwise a generated text (`str(value)`, its JSON) that spans the value."""
    if isinstance(node, ScalarNode) and node.value == text:
        word = scalar_word(frame, node, quoting)
        if word is not None:
            return word
    start, end = node_span(frame, node)
    return synthetic_word(text, start, end, quoting)


# -- YAML trees --------------------------------------------------------------------------


#: A line that starts a document of a YAML stream. It cannot be content (YAML forbids
#: `---` followed by a blank at a line's start inside any scalar), so a stream splits there.
_DOCUMENT_START = re.compile(r"^---(?=[ \t\r\n]|$)", re.MULTILINE)


def stream_documents(text: str) -> list[tuple[int, str]]:
    """(offset, text) of each document of a YAML stream, split at its `---` lines (the
    first piece may be a header of comments)."""
    cuts = [match.start() for match in _DOCUMENT_START.finditer(text) if match.start() > 0]
    bounds = [0, *cuts, len(text)]
    return [(start, text[start:end]) for start, end in pairwise(bounds)]


def documents(text: str) -> list[Node]:
    """Every document of a (possibly broken, possibly multi-document) YAML text."""
    try:
        parsed = parse_yaml(text)
    except MemoryError:
        raise  # reported by the engine: not read, rather than no start
    except Exception:  # parse_yaml never raises; a RecursionError deep inside might
        return []
    roots = [parsed.root] if parsed.root is not None else []
    return roots + list(parsed.extra_documents)


def pairs(node: Node | None) -> list[tuple[Node, Node]]:
    """A mapping's pairs as `yaml.safe_load` sees them (merge keys flattened)."""
    if not isinstance(node, MappingNode):
        return []
    try:
        return mapping_pairs(node)
    except RecursionError:
        return []


def get(node: Node | None, key: str) -> Node | None:
    """The value node of `key` (the last one wins, as in `safe_load`)."""
    found: Node | None = None
    for key_node, value in pairs(node):
        if isinstance(key_node, ScalarNode) and key_node.value == key:
            found = value
    return found


def get_pair(node: Node | None, key: str) -> tuple[Node, Node] | None:
    """Key and value nodes of `key`: operator mappings point their flags at the key."""
    found: tuple[Node, Node] | None = None
    for key_node, value in pairs(node):
        if isinstance(key_node, ScalarNode) and key_node.value == key:
            found = (key_node, value)
    return found


def text_of(node: Node | None) -> str | None:
    """A scalar's loaded text (None for collections and missing keys)."""
    return node.value if isinstance(node, ScalarNode) else None


def items(node: Node | None) -> list[Node]:
    """A sequence's items; anything else (a typo'd mapping, a scalar) has none."""
    return list(node.value) if isinstance(node, SequenceNode) else []


def distinct(nodes: list[Node]) -> list[Node]:
    """`nodes` with each node once: an aliased container, service or step (`- *c` 10,000
    times) holds the same words at the same offsets, so it is read once."""
    return list({id(node): node for node in reversed(nodes)}.values())[::-1]


def distinct_pairs(found: list[tuple[Node, Node]]) -> list[tuple[Node, Node]]:
    """`pairs(…)` with each value node once (services `b: *a`): see `distinct`."""
    seen: set[int] = set()
    out = []
    for key, value in found:
        if id(value) not in seen:
            seen.add(id(value))
            out.append((key, value))
    return out


def value_of(node: Node | None) -> Any:
    """The Python value `yaml.safe_load` gives, or None when it cannot be built."""
    if node is None:
        return None
    try:
        return construct_value(node)
    except Exception:  # alias bombs, recursion: the value is unknown
        return None


def walk(root: Node) -> Iterator[tuple[Node, Node | None]]:
    """Every node with its parent collection, without recursion, each aliased node once."""
    seen: set[int] = set()
    stack: list[tuple[Node, Node | None]] = [(root, None)]
    while stack:
        node, parent = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        yield node, parent
        if isinstance(node, MappingNode):
            for key, value in reversed(node.value):
                stack.append((value, node))
                stack.append((key, node))
        elif isinstance(node, SequenceNode):
            stack.extend((item, node) for item in reversed(node.value))


# -- templates ---------------------------------------------------------------------------

#: What an expression that stands inside a value is replaced with before YAML reads the
#: text: a plain-scalar character, neither YAML nor shell syntax.
PLACEHOLDER = "x"
_GO_CONTROL = re.compile(
    r"(?:if|else|end|range|with|define|block|break|continue)\b|/\*|\$[\w]*\s*:?="
)
_TERRAFORM_DIRECTIVE_LINE = re.compile(r"^[ \t]*%\{", re.MULTILINE)
#: What makes a Go template Helm's rather than an operator's (KServe's `{{.Name}}`) or a
#: Jinja chat template's inside a ConfigMap (which shares `{{-`).
_HELM_MARKERS = re.compile(
    r"\.(?:Values|Release|Chart|Capabilities|Files)\b|\b(?:include|toYaml|nindent|tpl)\b"
)


@dataclass
class Masked:
    """A template text with its actions replaced length for length (so every offset still
    indexes the original), and the expression spans to put back into words."""

    original: str
    text: str
    #: Sorted, disjoint (start, end) of the expressions replaced by the placeholder.
    spans: list[tuple[int, int]] = field(default_factory=list)
    #: Whether the actions look like Helm's (`.Values`, `include`, `toYaml`).
    helm: bool = False
    _starts: list[int] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        """Span starts once, for the bisection of every restored word."""
        self._starts = [span[0] for span in self.spans]

    def restore_word(self, word: Word) -> Word:
        """Put back the template text where the placeholder stood, and list each
        expression the word holds among its unresolved parts."""
        if not self.spans:
            return word
        starts = self._starts
        chars = list(word.text)
        hits: list[int] = []
        for index, (start, end) in enumerate(zip(word.starts, word.ends, strict=False)):
            at = bisect.bisect_right(starts, start) - 1
            if at < 0 or start >= self.spans[at][1]:
                continue
            if end - start == 1 and index < len(chars):
                chars[index] = self.original[start]
            if at not in hits:
                hits.append(at)
        if not hits:
            return word
        added = tuple(self.original[slice(*self.spans[at])] for at in hits)
        restored = "".join(chars)
        # what the reader listed as unresolved in the masked text, as the template wrote it
        kept = tuple(
            restored[found : found + len(item)] if (found := word.text.find(item)) >= 0 else item
            for item in word.unresolved
        )
        return replace(
            word,
            text=restored,
            unresolved=kept + tuple(a for a in added if a not in kept),
        )

    def restore(self, found: Sequence[Invocation]) -> list[Invocation]:
        """Every argument of every invocation with its template text put back."""
        if not self.spans:
            return list(found)
        return [replace(inv, args=[self.restore_word(w) for w in inv.args]) for inv in found]


def go_value(value: Any) -> str:
    """A value as a Helm template prints it (`{{ .Values.x }}`, `quote`). Helm reads values
    through YAML→JSON, so every number is a float64, and Go's `%v` prints a float64 in its
    shortest form with an exponent from 1e+06 up (`strconv.FormatFloat(f, 'g', -1, 64)`):
    `maxModelLen: 1048576` reaches vLLM as `1.048576e+06`."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if not isinstance(value, (int, float)):
        return str(value)
    number = float(value)
    if number != number:
        return "NaN"
    if number in (float("inf"), float("-inf")):
        return "+Inf" if number > 0 else "-Inf"
    if number == 0:
        return "0"
    sign = "-" if number < 0 else ""
    digits_tuple = Decimal(repr(abs(number))).normalize().as_tuple()
    digits = "".join(str(d) for d in digits_tuple.digits)
    exponent = int(digits_tuple.exponent)
    point = exponent + len(digits)  # position of the decimal point in `digits`
    power = point - 1
    if power < -4 or power >= 6:
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{mantissa}e{'-' if power < 0 else '+'}{abs(power):02d}"
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return f"{sign}{digits}{'0' * (point - len(digits))}"
    return f"{sign}{digits[:point]}.{digits[point:]}"


def action_end(text: str, at: int, close: str, quotes: str) -> int:
    """End (exclusive) of a template action whose body starts at `at`, skipping quoted
    strings of the template language; -1 when it never closes."""
    n = len(text)
    index = at
    while index < n:
        char = text[index]
        if char in quotes:
            index += 1
            while index < n and text[index] != char:
                if text[index] == "\\" and char != "`":
                    index += 1
                index += 1
            index += 1
            continue
        if text.startswith(close, index):
            return index + len(close)
        index += 1
    return -1


def braced_end(text: str, at: int) -> int:
    """End of a Terraform `${ … }` whose body starts at `at` (braces nest, strings skip)."""
    depth = 1
    index = at
    n = len(text)
    while index < n:
        char = text[index]
        if char == '"':
            index += 1
            while index < n and text[index] != '"':
                index += 2 if text[index] == "\\" else 1
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return -1


def _apply(original: str, actions: list[tuple[int, int, bool]], helm: bool) -> Masked:
    """Replace each action: control actions and actions alone on their lines by spaces,
    expressions by the placeholder; line breaks stay where they are."""
    if not actions:
        return Masked(original, original, [], helm)
    residue = list(original)
    for start, end, _ in actions:
        for index in range(start, end):
            if residue[index] not in "\r\n":
                residue[index] = " "
    breaks = [index for index, char in enumerate(original) if char == "\n"]
    blank: list[bool] = []
    line_start = 0
    for line_end in [*breaks, len(original)]:
        blank.append(not "".join(residue[line_start:line_end]).strip())
        line_start = line_end + 1
    out = list(original)
    spans: list[tuple[int, int]] = []
    for start, end, control in actions:
        first = bisect.bisect_left(breaks, start)
        last = bisect.bisect_left(breaks, max(start, end - 1))
        alone = all(blank[first : last + 1])
        fill = " " if control or alone else PLACEHOLDER
        for index in range(start, end):
            if out[index] not in "\r\n":
                out[index] = fill
        if fill == PLACEHOLDER:
            spans.append((start, end))
    return Masked(original, "".join(out), spans, helm)


def mask_actions(original: str, actions: list[tuple[int, int, bool]]) -> Masked:
    """Template actions another host's scanner found (`sources.templates`: start, end,
    whether it is a control action), replaced as `mask_templates` replaces its own."""
    return _apply(original, actions, False)


def is_terraform_template(text: str) -> bool:
    """A line starts with a `%{` directive: `${…}` and `%{…}` are Terraform's."""
    return _TERRAFORM_DIRECTIVE_LINE.search(text) is not None


def mask_templates(text: str, terraform: bool) -> Masked:
    """Go templates (Helm, KServe's `{{.Name}}`) and, in a Terraform template
    (`is_terraform_template` of the whole file), its `${…}` interpolations and `%{…}`
    directives."""
    actions: list[tuple[int, int, bool]] = []
    index = 0
    n = len(text)
    while index < n:
        brace = text.find("{", index)
        if brace == -1:
            break
        if text.startswith("{{", brace):
            end = action_end(text, brace + 2, "}}", "\"`'")
            if end == -1:
                break
            body = text[brace + 2 : end - 2].strip(" \t\r\n-")
            actions.append((brace, end, _GO_CONTROL.match(body) is not None))
            index = end
            continue
        if terraform and brace > 0 and text[brace - 1] in "$%":
            mark = brace - 1
            if mark > 0 and text[mark - 1] == text[mark]:  # `$${`, `%%{`: literal
                index = brace + 1
                continue
            end = braced_end(text, brace + 1)
            if end == -1:
                index = brace + 1
                continue
            actions.append((mark, end, text[mark] == "%"))
            index = end
            continue
        index = brace + 1
    helm = any(_HELM_MARKERS.search(text, start, end) for start, end, _ in actions)
    return _apply(text, actions, helm)


def mask_github(text: str) -> Masked:
    """GitHub Actions `${{ … }}` expressions (resolved by the runner before any shell)."""
    actions: list[tuple[int, int, bool]] = []
    index = 0
    while True:
        at = text.find("${{", index)
        if at == -1:
            break
        end = action_end(text, at + 3, "}}", "'")
        if end == -1:
            break
        actions.append((at, end, False))
        index = end
    return _apply(text, actions, False)
