"""The YAML file as PyYAML sees it, with exact positions, surviving broken input.

vLLM reads the file with `yaml.safe_load` (vllm/utils/argparse_utils.py:646), so values
must be built with SafeLoader's rules (YAML 1.1 booleans, octals, merge keys, last duplicate
wins). The composer's node tree keeps the character offsets we need for diagnostics, and
values are built from it with the same constructor, without ever expanding aliases twice.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

MERGE_TAG = "tag:yaml.org,2002:merge"
#: Alias-expanded node count above which values are not built (an alias bomb would make
#: vLLM's own `json.dumps`/`str()` of the value explode; we must stay responsive).
EXPANSION_LIMIT = 200_000
#: How many syntax errors we step over to keep checking the rest of the file.
MAX_RECOVERIES = 20
#: A failed construct spanning at most this many lines is blanked whole during recovery;
#: a longer one (the root mapping) would take the rest of the file with it.
CONTEXT_LINES = 5
#: PyYAML's composer recurses per nesting level; vLLM's `yaml.safe_load` fails alike.
TOO_DEEP = "maximum recursion depth exceeded: the file nests too deeply for PyYAML to read"


@dataclass
class YamlProblem:
    start: int
    end: int
    message: str
    #: Where the construct that failed began (e.g. an unclosed `[`), when PyYAML says.
    context_start: int | None = None
    #: Where PyYAML stopped reading (its `problem_mark`); `start` when it is the same.
    stopped: int | None = None


@dataclass
class ParsedYaml:
    root: Node | None
    problems: list[YamlProblem] = field(default_factory=list)
    extra_documents: list[Node] = field(default_factory=list)


#: PyYAML contexts that name the construct left open: the error starts where it opens (the
#: quote, the `[`, the key), however far PyYAML read before giving up. Other contexts
#: ("while parsing a block mapping") name the enclosing collection, often the whole file,
#: so the error stays where PyYAML stopped.
_OPENED_AT_CONTEXT = (
    "while scanning a quoted scalar",
    "while scanning a simple key",
    "while parsing a flow sequence",
    "while parsing a flow mapping",
)


def _problem_from_error(text: str, error: yaml.YAMLError) -> YamlProblem:
    context_start = None
    if isinstance(error, yaml.MarkedYAMLError) and error.problem_mark is not None:
        offset = min(error.problem_mark.index, len(text))
        context = error.context
        mark = error.context_mark
        if context and mark is not None:
            context_start = min(mark.index, offset)
            if context in _OPENED_AT_CONTEXT and mark.index < offset:
                return _opened_problem(text, error, context_start, offset)
            if mark.line != error.problem_mark.line:
                context += f" (line {mark.line + 1})"
        parts = [p for p in (context, error.problem) if p]
        message = ", ".join(parts) or str(error)
    elif isinstance(error, yaml.reader.ReaderError):
        offset = min(error.position, len(text))
        message = f"unacceptable character #x{error.character:04x}: {error.reason}"
    else:  # pragma: no cover - every PyYAML error is one of the above
        offset, message = 0, str(error)
    end = offset + 1 if offset < len(text) and text[offset] not in "\r\n" else offset
    return YamlProblem(offset, end, message, context_start)


def _opened_problem(
    text: str, error: yaml.MarkedYAMLError, start: int, stopped: int
) -> YamlProblem:
    """An unclosed construct: reported from where it opens to the end of that line, with
    where PyYAML stopped in the message."""
    assert error.problem_mark is not None
    line_end = len(text)
    for index in range(start, len(text)):
        if text[index] in "\r\n":
            line_end = index
            break
    where = f"line {error.problem_mark.line + 1}"
    if not text[stopped:].strip():
        where += ", the end of the file"
    message = f"{error.context}, {error.problem} ({where})"
    return YamlProblem(start, max(line_end, start + 1), message, start, stopped)


#: What opens a document after the first: a `---` marker, or the directives before it.
_DOCUMENT_START = re.compile(r"^(?:---(?=[ \t\r\n]|$)|%)", re.MULTILINE)


def document_start(text: str, previous_end: int, document: Node) -> int:
    """Where PyYAML's next document begins (the `---` line after the previous document,
    where `safe_load` says "but found another document"); its first node otherwise."""
    node_start = document.start_mark.index
    match = _DOCUMENT_START.search(text, previous_end, node_start + 1)
    return match.start() if match else node_start


def _blank_lines(text: str, first: int, offset: int) -> str:
    """Replace the lines from `first` to `offset` by spaces, keeping every line break so
    that all other offsets stay valid."""
    start = text.rfind("\n", 0, min(first, offset)) + 1
    end = text.find("\n", offset)
    if end == -1:
        end = len(text)
    blank = "".join(ch if ch in "\r\n" else " " for ch in text[start:end])
    return text[:start] + blank + text[end:]


def _compose_all(text: str) -> list[Node]:
    fast = _compose_all_libyaml(text)
    if fast is not None:
        return fast
    return [node for node in yaml.compose_all(text, Loader=yaml.SafeLoader) if node is not None]


#: libyaml (PyYAML's C loader) composes ~10x faster, which is most of a keystroke's work. But
#: vLLM's `yaml.safe_load` is the pure-Python SafeLoader, and the two differ at the edges
#: (tabs, BOM, NEL/LS line breaks, `?` keys, tags, `|#` headers, control characters; libyaml
#: recurses on the C stack without limit, so a 100,000-deep `[[[…` kills the process). So
#: libyaml only sees text without any of those, with bounded nesting; its tree must then be
#: shallow enough that PyYAML itself would compose it; every failure, and everything else,
#: is composed by SafeLoader (its messages and recovery are the ones users see).
_LIBYAML: type[yaml.CSafeLoader] | None = getattr(yaml, "CSafeLoader", None)
#: Larger texts are rare (and capped at engine.MAX_BYTES); keep libyaml's work bounded.
LIBYAML_MAX_CHARS = 1_000_000
#: Flow openers or block indentation beyond these go to SafeLoader (bounds libyaml's depth).
LIBYAML_MAX_OPENERS = 2_000
LIBYAML_MAX_DEPTH = 100
#: Characters the two readers treat differently, wherever they stand (comments included).
_LIBYAML_EXCLUDED_CHARS = re.compile(
    "[^\n\r\x20-\x7e\xa0-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"  # tabs, BOM…
    "|\r(?!\n)"  # a lone CR (CRLF is fine)
)
#: Syntax where they may differ; looked for outside whole-line comments, so a backtick or
#: `@` in a comment does not send the file to the slow reader.
_LIBYAML_EXCLUDED_SYNTAX = re.compile(
    "(?:^|[\\s\\[{,])[?!%@`]"  # explicit keys, tags, directives, reserved indicators
    "|[|>][-+0-9]*#"  # block scalar header glued to a comment
    f"|^[ ?-]{{{2 * LIBYAML_MAX_DEPTH}}}",  # deep block nesting
    re.MULTILINE,
)
_COMMENT_LINE = re.compile(r"^[ ]*#[^\r\n]*", re.MULTILINE)


def libyaml_eligible(text: str) -> bool:
    """Whether libyaml may compose `text` (it then composes exactly like SafeLoader)."""
    if _LIBYAML is None or len(text) > LIBYAML_MAX_CHARS:
        return False
    if text.count("[") + text.count("{") > LIBYAML_MAX_OPENERS:
        return False
    if _LIBYAML_EXCLUDED_CHARS.search(text):
        return False
    return _LIBYAML_EXCLUDED_SYNTAX.search(_COMMENT_LINE.sub("", text)) is None


def _compose_all_libyaml(text: str) -> list[Node] | None:
    """The documents as libyaml composes them, or None when SafeLoader must do it."""
    if _LIBYAML is None or not libyaml_eligible(text):
        return None
    try:
        documents = [n for n in yaml.compose_all(text, Loader=_LIBYAML) if n is not None]
    except yaml.YAMLError:
        return None
    end = _end_of_stream(text)
    for document in documents:
        if not _normalise_libyaml(document, end):
            return None
    return documents


#: The characters YAML breaks lines at (`yaml.reader.Reader.forward`).
_LINE_BREAKS = re.compile("\r\n|[\n\r\x85\u2028\u2029]")


def _end_of_stream(text: str) -> yaml.Mark | None:
    """SafeLoader's mark at the end of a text that ends without a line break (libyaml puts
    the implicit null of a trailing `---` on a line after it: same index, other line);
    None when the text ends with a break (both agree there)."""
    breaks = list(_LINE_BREAKS.finditer(text))
    if breaks and breaks[-1].end() == len(text):
        return None
    column = len(text) - (breaks[-1].end() if breaks else 0)
    return yaml.Mark("<unicode string>", len(text), len(breaks), column, None, 0)


def _normalise_libyaml(root: Node, end: yaml.Mark | None) -> bool:
    """Give libyaml's nodes SafeLoader's plain style (None, not '') and its marks at the end
    of the stream (`end`); False when the tree is nested deeper than LIBYAML_MAX_DEPTH
    (SafeLoader may not compose it)."""
    seen: set[int] = set()
    stack: list[tuple[Node, int]] = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > LIBYAML_MAX_DEPTH:
            return False
        if id(node) in seen:
            continue
        seen.add(id(node))
        if end is not None:
            if node.start_mark.index == end.index:
                node.start_mark = end
            if node.end_mark.index == end.index:
                node.end_mark = end
        if isinstance(node, ScalarNode):
            if node.style == "":
                node.style = None
        elif isinstance(node, MappingNode):
            for key, value in node.value:
                stack.append((key, depth + 1))
                stack.append((value, depth + 1))
        elif isinstance(node, SequenceNode):
            stack.extend((item, depth + 1) for item in node.value)
    return True


def parse_yaml(text: str) -> ParsedYaml:
    """Compose every document; on a syntax error, report it and retry without that line."""
    problems: list[YamlProblem] = []
    current = text
    for _ in range(MAX_RECOVERIES + 1):
        try:
            documents = _compose_all(current)
        except RecursionError:
            problems.append(YamlProblem(0, 0, TOO_DEEP))
            break
        except yaml.YAMLError as error:
            problem = _problem_from_error(current, error)
            problems.append(problem)
            stopped = problem.start if problem.stopped is None else problem.stopped
            at = max(0, min(stopped, len(current) - 1))
            first = at
            context = problem.context_start
            if context is not None and current.count("\n", context, at) <= CONTEXT_LINES:
                first = context  # e.g. an unclosed `[` a line above: drop the whole construct
            elif problem.stopped is not None:
                first = at = problem.start  # a quote left open: its line, not the file's end
            blanked = _blank_lines(current, first, at)
            if blanked == current:
                break
            current = blanked
            continue
        root = documents[0] if documents else None
        if root is not None:
            problems.extend(_unsafe_tags(root))
        return ParsedYaml(root, problems, documents[1:])
    return ParsedYaml(None, problems, [])


def _unsafe_tags(root: Node) -> list[YamlProblem]:
    """Tags `yaml.safe_load` refuses (`!!python/object…` and other custom tags): composing
    never runs them, and neither does vLLM: it stops with PyYAML's ConstructorError. A merge
    key (`<<`) and a value key (`=`) are fine as mapping keys (`flatten_mapping`), and
    nowhere else; a merge key must bring a mapping or a list of mappings."""
    known = yaml.SafeLoader.yaml_constructors
    problems: list[YamlProblem] = []
    seen: set[int] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, is_key = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.tag not in known and not (is_key and node.tag in _KEY_ONLY_TAGS):
            start = node.start_mark.index
            message = f"could not determine a constructor for the tag {node.tag!r}"
            problems.append(YamlProblem(start, max(start + 1, start), message))
        elif isinstance(node, ScalarNode) and len(node.value) > _INT_DIGITS:
            problems.extend(_int_too_long(node))
        if isinstance(node, MappingNode):
            for key, value in node.value:
                if key.tag == MERGE_TAG:
                    problems.extend(_merge_shape(value))
                stack.extend(((key, True), (value, False)))
        elif isinstance(node, SequenceNode):
            stack.extend((item, False) for item in node.value)
    return problems


#: Python's limit on the digits `int()` converts (`sys.get_int_max_str_digits`).
_INT_DIGITS = 4300


def _int_too_long(node: ScalarNode) -> list[YamlProblem]:
    """An integer past Python's digit limit: `yaml.safe_load` raises int()'s ValueError."""
    if node.tag != "tag:yaml.org,2002:int":
        return []
    try:
        _Constructor().construct_object(node, deep=True)
    except ValueError as error:
        return [YamlProblem(node.start_mark.index, node.end_mark.index, str(error))]
    except yaml.YAMLError:
        pass
    return []


#: Tags SafeConstructor handles in a mapping's keys only (`flatten_mapping`).
_KEY_ONLY_TAGS = frozenset({MERGE_TAG, "tag:yaml.org,2002:value"})


def _merge_shape(value: Node) -> list[YamlProblem]:
    """`flatten_mapping`'s ConstructorError for a merge value that is no mapping."""
    if isinstance(value, MappingNode):
        return []
    if isinstance(value, SequenceNode):
        wrong = [item for item in value.value if not isinstance(item, MappingNode)]
        expected = "a mapping"
    else:
        wrong, expected = [value], "a mapping or list of mappings"
    return [
        YamlProblem(
            node.start_mark.index,
            node.start_mark.index + 1,
            f"expected {expected} for merging, but found {node.id}",
        )
        for node in wrong[:1]
    ]


def mapping_pairs(node: MappingNode) -> list[tuple[Node, Node]]:
    """Key/value pairs as SafeConstructor sees them, `<<` merges flattened: the merged
    pairs first (so explicit keys, later in the list, win), then the mapping's own. Positions
    stay on the merged-from nodes, which is where the anchor's text is."""
    return _Flattener().flatten(node)


class _Flattener:
    """`SafeConstructor.flatten_mapping` of PyYAML 6.0.4 (what vLLM 0.33.0 installs), run on
    copies of the pair lists. PyYAML deletes each merge key before following it, which is
    what ends a merge cycle (`&a {<<: *a}`). Since 6.0.3 (yaml/pyyaml#937) merged pairs are
    deduplicated by the identity of the key's text, so a key merged from two mappings keeps
    the later one's value unless CPython shares the string (empty or one Latin-1 character):
    in `<<: [*a, *b]`, `b` wins for `max-model-len`, `a` for `x` (yaml/pyyaml#953, open)."""

    def __init__(self) -> None:
        self.pairs: dict[int, list[tuple[Node, Node]]] = {}

    def flatten(self, node: MappingNode) -> list[tuple[Node, Node]]:
        pairs = self.pairs.setdefault(id(node), list(node.value))
        merge: list[tuple[Node, Node]] = []
        seen: set[object] = set()
        index = 0
        while index < len(pairs):
            key, value = pairs[index]
            if key.tag != MERGE_TAG:
                index += 1
                continue
            del pairs[index]
            if isinstance(value, MappingNode):
                sources = [value]
            elif isinstance(value, SequenceNode):
                sources = [item for item in value.value if isinstance(item, MappingNode)]
            else:  # PyYAML's ConstructorError, reported by `_merge_shape`
                sources = []
            for source in sources:
                for pair in self.flatten(source):
                    identity = _key_identity(pair[0])
                    if identity not in seen:
                        seen.add(identity)
                        merge.append(pair)
        if merge:
            pairs[:0] = merge
        return pairs


def _key_identity(key: Node) -> object:
    """What `id(key_node.value)` tells apart: one key node from another, except for the
    strings CPython shares (the empty string and one-character Latin-1 strings)."""
    text = key.value
    if isinstance(text, str) and len(text) <= 1 and (not text or ord(text) < 256):
        return text
    return id(key)


class ExpansionTooLarge(Exception):
    """Raised when building a value would expand aliases beyond EXPANSION_LIMIT nodes."""


def expanded_size(node: Node, memo: dict[int, int] | None = None) -> int:
    """Node count with aliases expanded, computed without expanding them (memoised)."""
    memo = {} if memo is None else memo
    key = id(node)
    if key in memo:
        return memo[key]
    memo[key] = 1  # cycles (recursive aliases) count once
    if isinstance(node, MappingNode):
        total = 1 + sum(expanded_size(k, memo) + expanded_size(v, memo) for k, v in node.value)
    elif isinstance(node, SequenceNode):
        total = 1 + sum(expanded_size(item, memo) for item in node.value)
    else:
        total = 1
    memo[key] = total
    return total


class _Constructor(yaml.constructor.SafeConstructor):
    """SafeConstructor restricted to scalars: collections are rebuilt by `construct_value`
    so merge keys and duplicate keys behave exactly as in `yaml.safe_load`."""


def construct_scalar(node: ScalarNode) -> Any:
    constructor = _Constructor()
    try:
        return constructor.construct_object(node, deep=True)
    except (yaml.constructor.ConstructorError, ValueError):  # ValueError: int past 4,300 digits
        return node.value


def construct_value(node: Node) -> Any:
    """The Python value `yaml.safe_load` gives for `node` (shared for aliased nodes)."""
    if expanded_size(node) > EXPANSION_LIMIT:
        raise ExpansionTooLarge
    memo: dict[int, Any] = {}

    def build(current: Node) -> Any:
        key = id(current)
        if key in memo:
            return memo[key]
        if isinstance(current, ScalarNode):
            value = construct_scalar(current)
            memo[key] = value
            return value
        if isinstance(current, SequenceNode):
            items: list[Any] = []
            memo[key] = items
            items.extend(build(item) for item in current.value)
            return items
        mapping: dict[Any, Any] = {}
        memo[key] = mapping
        for key_node, value_node in mapping_pairs(current):  # type: ignore[arg-type]
            mapping[_hashable(build(key_node))] = build(value_node)
        return mapping

    return build(node)


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((str(k), str(v)) for k, v in value.items()))
    return value
