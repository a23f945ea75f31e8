"""yaml_scalars: per-character source offsets of PyYAML scalars."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
import yaml
from hypothesis import assume, given
from hypothesis import strategies as st
from vllm_config_lsp.document.json_positions import JsonArray, JsonObject, parse_json
from vllm_config_lsp.document.yaml_scalars import (
    scalar_source_map,
)


# The per-character offset view of `scalar_source_map`, as the properties below state it.
def scalar_char_offsets(text: str, start: int, end: int, style: str | None) -> list[int] | None:
    """One source offset per character of the scalar's loaded value, plus a final entry.

    ``offsets[i]`` is where value character ``i`` comes from (for characters without a
    literal source -- escapes, folded or chomped line breaks -- the start of what produced
    them); ``offsets[-1]`` is just past the source of the last character, so value range
    ``[i, j)`` maps to ``[offsets[i], offsets[j])``.  Offsets are non-decreasing and within
    ``[start, end]``.  None if the text does not scan like PyYAML did (should not happen).
    """
    result = scalar_source_map(text, start, end, style)
    return None if result is None else result.offsets


def map_range(offsets: list[int], start: int, end: int) -> tuple[int, int]:
    """Map a value-index range ``[start, end)`` to a source-offset range.

    Indexes are clamped to the value (``len(offsets) - 1`` characters), so a range reported
    past the end of a string still lands on the scalar.
    """
    if not offsets:
        return 0, 0
    last = len(offsets) - 1
    start = min(max(start, 0), last)
    end = min(max(end, start), last)
    return offsets[start], offsets[end]


BREAK_CHARS = "\r\n\x85\u2028\u2029"


def compose(text: str) -> yaml.Node:
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    assert node is not None
    return node


def scalars(text: str) -> Iterator[tuple[yaml.ScalarNode, yaml.Node | None]]:
    """Every ScalarNode of every document, with its parent collection node."""
    seen: set[int] = set()
    for root in yaml.compose_all(text, Loader=yaml.SafeLoader):
        todo: list[tuple[yaml.Node, yaml.Node | None]] = [(root, None)] if root else []
        while todo:
            node, parent = todo.pop()
            if id(node) in seen:  # aliases share the anchored node
                continue
            seen.add(id(node))
            if isinstance(node, yaml.ScalarNode):
                yield node, parent
            elif isinstance(node, yaml.SequenceNode):
                todo.extend((child, node) for child in node.value)
            elif isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    todo.append((k, node))
                    todo.append((v, node))


def check_scalar(text: str, node: yaml.ScalarNode) -> list[int]:
    """The properties every mapping must have; returns the offsets."""
    start, end = node.start_mark.index, node.end_mark.index
    offsets = scalar_char_offsets(text, start, end, node.style)
    assert offsets is not None, (text, node)
    value = node.value
    assert len(offsets) == len(value) + 1
    assert all(start <= o <= end for o in offsets)
    assert all(a <= b for a, b in itertools.pairwise(offsets))
    smap = scalar_source_map(text, start, end, node.style, value=value)
    assert smap is not None
    assert smap.value == value
    unhinted = scalar_source_map(text, start, end, node.style)  # block indent inferred
    assert unhinted is not None
    assert unhinted.value == value
    assert unhinted.offsets == offsets
    for i, ch in enumerate(value):
        o = offsets[i]
        src = text[smap.starts[i] : smap.ends[i]]
        if src == ch:
            continue  # literal
        # Not literal: an escape, a doubled quote, or a line break that was folded/kept.
        if node.style == '"' and src.startswith("\\"):
            continue
        if node.style == "'" and src == "''" and ch == "'":
            continue
        assert text[o] in BREAK_CHARS, (text, value, i, src)
        assert ch in " \n\u2028\u2029", (text, value, i, src)
    # The final entry is just past the last character's source.
    if value:
        assert offsets[-1] == smap.ends[-1]
    return offsets


def check_document(text: str) -> int:
    count = 0
    for node, _parent in scalars(text):
        check_scalar(text, node)
        count += 1
    return count


# -- hand-written cases ------------------------------------------------------------------

HAND_CASES = [
    "a: plain\n",
    "a: plain multi\n  line  folded\n\n  with blank   \n\n\n  lines # comment\nb: 1\n",
    "- plain in seq\n  continued\n- [flow, plain\n   multi, 'q''x'\n   , \"d\\n\"]\n",
    "{a: b c\n   d, e: f}\n",
    "a: 'single ''quoted'' text'\n",
    "a: 'single\n  folded\n\n  twice\n    '\n",
    "a: 'trailing  \n  spaces'\n",
    'a: "esc \\0\\a\\b\\t\\\t\\n\\v\\f\\r\\e\\ \\"\\\\\\/\\N\\_\\L\\P"\n',
    'a: "hex \\x41 \\u00e9 \\U0001F600 \\ud83d\\ude00"\n',
    'a: "escaped \\\n    break"\n',
    'a: "escaped \\\n\n    break then blank"\n',
    'a: "fold\n   \t  tab\n\n\n  x"\n',
    'a: "line sep\u2028in quotes"\n',
    "a: 'line sep \u2029 para'\n",
    "a: |\n  literal\n   more\n\n  end\n",
    "a: |-\n  strip\n\n\n",
    "a: |+\n  keep\n\n\n",
    "a: >\n  folded\n  text\n\n  para\n   indented\n  back\n",
    "a: >-\n  folded\n  strip\n",
    "a: >+\n  folded\n  keep\n\n",
    "a: |2\n    two extra\n   one extra\n",
    "a: >2-\n   x\n  y\n",
    "a: |1+\n  x\n\n",
    "a: |  # comment\n  text\n",
    "a: |\n\n\n  leading blank lines\n",
    "a: |\n \n   \n   spaces-only lines before the first\n",
    "a: |\n  \t tab content\n",
    "a: >\n  x\n \n  y\n",
    "- |2\n   x\n- >1\n  y\n",
    "- - |2\n     x\n",
    "a:\n  b: |2\n      x\n     y\n",
    "a:\n  |2\n    x\n",
    "a:\n- |1\n  x\n",
    "? |2\n   complex key\n: v\n",
    "a:\n  b: |1\n     x\n",
    "- a: |1\n     x\n",
    "a:\n  - |1\n     x\n",
    "a:\n  c: 1\n  b:\n    |2\n        x\n",
    "x:\n  y:\n    z: 1\nb:\n  |1\n    x\n",
    "a:\n  \"k\": |1\n     x\n  'j': >1\n     y\n",
    "a:\n  &k k: |1\n     x\n",
    "a:\n  ? q\n  : |1\n     x\n",
    "- - a: |1\n         x\n",
    "a: &anchor !!str |2\n    x\n",
    'a: !!str &x\n  # comment\n  "v"\n',
    "a: !<tag:yaml.org,2002:str> 'v'\n",
    "a: !foo'bar 'q'\n",
    "a: !!str\nb: &e\nc: *e\n",
    "a:\n",
    "''\n",
    '""\n',
    "|\n",
    "|+\n\n\n",
    ">\n",
    "--- |\n  doc\n--- >\n  two\n...\n",
    "plain at root\n  continued\n",
    "a: é😀中文 plain\n  next\n",
    "a: 'é😀\n  中文'\n",
    "a: |\n  é😀\n  中文\n",
    "a: tail-no-newline",
    "a: |\n  tail-no-newline",
    "a: 'x'",
    'a: "mixed\r\n  crlf\r\n\r\n  blank"\r\nb: |\r\n  crlf\r\n  block\r\n',
    "a: >\r  lone\r  cr\r",
    "a: plain\x85  nel\x85\x85  fold\n",
    'a: "nel\x85in dq"\n',
    "a: |\n  nel\x85  block\n",
    "a: plain\u2028  ls\n",
    "\ufeffa: bom\n",
    "a: |\n  # not a comment\n",
    "a: x#not-comment\n",
    "a: -not-seq\n",
    "a: 'b: c'\n",
]


@pytest.mark.parametrize("text", HAND_CASES)
def test_hand_cases(text: str) -> None:
    assert check_document(text) > 0


def test_crlf_versions_of_hand_cases() -> None:
    for text in HAND_CASES:
        crlf = text.replace("\r\n", "\n").replace("\n", "\r\n")
        check_document(crlf)


def test_explicit_values() -> None:
    text = 'a: "x\\ty\\\n  z"\n'
    node = compose(text).value[0][1]
    smap = scalar_source_map(text, node.start_mark.index, node.end_mark.index, '"')
    assert smap is not None
    assert smap.value == "x\tyz"
    bs = text.index("\\t")
    assert smap.starts == [bs - 1, bs, bs + 2, text.index("z")]
    assert smap.ends[1] == bs + 2  # the escape's span covers both characters
    assert smap.source_range(1, 2) == (bs, bs + 2)

    text = "a: >\n  one\n  two\n"
    node = compose(text).value[0][1]
    offsets = scalar_char_offsets(text, node.start_mark.index, node.end_mark.index, ">")
    assert node.value == "one two\n"
    assert offsets is not None
    assert offsets[3] == text.index("one") + 3  # folded space -> the line break
    assert offsets[7] == text.index("two") + 3  # chomped newline -> the final line break
    assert offsets[-1] == len(text)


def test_parent_indent_and_value_hints() -> None:
    text = "a:\n  b: |1\n     x\n"
    node = compose(text).value[0][1].value[0][1]
    assert node.value == "  x\n"
    args = (text, node.start_mark.index, node.end_mark.index, "|")
    good = scalar_source_map(*args, parent_indent=2)
    assert good is not None
    assert good.value == "  x\n"
    # The end mark cannot tell parent indents apart here: a wrong one scans another value.
    wrong = scalar_source_map(*args, parent_indent=-1)
    assert wrong is not None
    assert wrong.value == "    x\n"
    assert scalar_source_map(*args, parent_indent=-1, value=node.value) is None
    # Without hints the parent indent is inferred from the text.
    inferred = scalar_source_map(*args)
    assert inferred is not None
    assert inferred.value == "  x\n"
    assert scalar_source_map(*args, value="something else") is None
    hinted = scalar_source_map(*args, value="  x\n")
    assert hinted is not None
    assert hinted.starts[0] == text.index("x") - 2


def test_never_raises() -> None:
    text = "a: 'unterminated\n"
    for style in (None, "'", '"', "|", ">", "?"):
        for start, end in ((0, len(text)), (3, len(text)), (5, 2), (-1, 4), (0, 999)):
            scalar_char_offsets(text, start, end, style)
    assert scalar_char_offsets("a: |0\n x\n", 3, 9, "|") is None
    assert scalar_char_offsets('"\\q"', 0, 4, '"') is None


def test_map_range() -> None:
    offsets = [10, 11, 15, 16]
    assert map_range(offsets, 0, 1) == (10, 11)
    assert map_range(offsets, 1, 3) == (11, 16)
    assert map_range(offsets, 2, 2) == (15, 15)
    assert map_range(offsets, -4, 99) == (10, 16)
    assert map_range(offsets, 3, 1) == (16, 16)
    assert map_range([7], 0, 0) == (7, 7)


def test_long_scalars() -> None:
    words = " ".join(f"w{i}" for i in range(20000))
    docs = [
        "a: " + words.replace(" ", "\n  ", 5000) + "\n",
        "a: '" + words.replace(" ", "\n  ") + "'\n",
        'a: "' + words.replace(" ", "\\t\n  ") + '"\n',
        "a: >\n  " + words.replace(" ", "\n  ") + "\n",
    ]
    for text in docs:
        node = compose(text).value[0][1]
        offsets = scalar_char_offsets(text, node.start_mark.index, node.end_mark.index, node.style)
        assert offsets is not None
        assert len(offsets) == len(node.value) + 1


# -- the seed example, spelled five ways -------------------------------------------------

SEED_KEY = "encoder_cudagraph_token_budgets"
SEED_SPELLINGS = {
    # A plain scalar cannot start with '{', so the "plain" spelling is YAML flow syntax: the
    # 0 is then a plain scalar of its own.
    "plain": 'compilation-config: {"encoder_cudagraph_token_budgets": [0, 2048]}\n',
    "single": "compilation-config: '{\"encoder_cudagraph_token_budgets\": [0, 2048]}'\n",
    "single-folded": (
        "compilation-config: '{\"encoder_cudagraph_token_budgets\":\n    [0, 2048]}'\n"
    ),
    "double": 'compilation-config: "{\\"encoder_cudagraph_token_budgets\\": [0, 2048]}"\n',
    "double-escaped-zero": (
        'compilation-config: "{\\"encoder_cudagraph_token_budgets\\":\\\n   [\\x30, 2048]}"\n'
    ),
    "literal": (
        'compilation-config: |\n  {\n    "encoder_cudagraph_token_budgets": [0, 2048]\n  }\n'
    ),
    "folded": ('compilation-config: >-\n  {"encoder_cudagraph_token_budgets":\n  [0,\n  2048]}\n'),
}


def expected_zero_offset(text: str) -> int:
    if "\\x30" in text:
        return text.index("\\x30")
    return text.index("[0") + 1


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("name", sorted(SEED_SPELLINGS))
def test_seed_zero_maps_to_exact_offset(name: str, newline: str) -> None:
    text = SEED_SPELLINGS[name].replace("\n", newline)
    value_node = compose(text).value[0][1]
    want = expected_zero_offset(text)
    if name == "plain":
        zero = value_node.value[0][1].value[0]
        offsets = scalar_char_offsets(text, zero.start_mark.index, zero.end_mark.index, None)
        assert offsets == [want, want + 1]
        return
    assert isinstance(value_node, yaml.ScalarNode)
    offsets = check_scalar(text, value_node)
    root = parse_json(value_node.value)
    assert isinstance(root, JsonObject)
    budgets = root.get(SEED_KEY)
    assert isinstance(budgets, JsonArray)
    zero_node = budgets.items[0]
    assert zero_node.value == 0
    start, end = map_range(offsets, zero_node.start, zero_node.end)
    assert start == want
    if name == "double-escaped-zero":
        assert end == want + 4  # the next character (',') follows the 4-character escape
        smap = scalar_source_map(text, value_node.start_mark.index, value_node.end_mark.index, '"')
        assert smap is not None
        assert smap.source_range(zero_node.start, zero_node.end) == (want, want + 4)
    else:
        assert end == want + 1
        assert text[start:end] == "0"


# -- property tests ----------------------------------------------------------------------

ALPHABET = st.sampled_from(
    [
        *"ab xyz01:#-?,[]{}'\"\\\t\n\r&*!|>%@`é中",
        *("\x85", "\u2028", "\u2029", "😀", "\ufeff", "\xa0", "\x07", "  ", "\n\n", " \n  "),
    ]
)
values = st.lists(ALPHABET, max_size=30).map("".join)


@given(
    value=values,
    style=st.sampled_from([None, "'", '"', "|", ">"]),
    width=st.sampled_from([5, 12, 80]),
    indent=st.sampled_from([2, 3, 5]),
    line_break=st.sampled_from(["\n", "\r\n", "\r"]),
    allow_unicode=st.booleans(),
    shape=st.sampled_from(["root", "map", "seq", "nested", "seqmap", "key"]),
)
def test_dumped_scalars(
    value: str,
    style: str | None,
    width: int,
    indent: int,
    line_break: str,
    allow_unicode: bool,
    shape: str,
) -> None:
    """Whatever PyYAML's emitter writes, in any style, maps back exactly."""
    data: object = {
        "root": value,
        "map": {"k": value, "k2": "x"},
        "seq": [value, "x"],
        "nested": {"a": {"b": [value]}},
        "seqmap": [{"k": value, "j": [value]}],
        "key": {value: 1},
    }[shape]
    text = yaml.dump(
        data,
        Dumper=yaml.SafeDumper,
        default_style=style,
        width=width,
        indent=indent,
        line_break=line_break,
        allow_unicode=allow_unicode,
    )
    assert check_document(text) > 0


LINE = st.lists(
    st.sampled_from(["a", "b", "é", "😀", " ", "  ", "'", '"', "\\", "#", ":", "x: y", "\t"]),
    max_size=6,
).map("".join)


@st.composite
def handwritten_scalar_docs(draw: st.DrawFn) -> str:
    """Plausible but free-form scalar spellings (kept only if PyYAML composes them)."""
    style = draw(st.sampled_from(["plain", "single", "double", "block"]))
    lines = draw(st.lists(LINE, min_size=1, max_size=5))
    indents = [" " * draw(st.integers(0, 5)) for _ in lines]
    newline = draw(st.sampled_from(["\n", "\r\n", "\r", "\x85", "\u2028"]))
    prefix = draw(st.sampled_from(["a: ", "- ", "a:\n  b: ", "- - ", "a: !!str &x ", ""]))
    if style == "block":
        header = draw(st.sampled_from(["|", ">", "|-", ">+", "|2", ">1-", "|+3", "| # c"]))
        body = newline.join(ind + line for ind, line in zip(indents, lines, strict=True))
        return prefix + header + newline + body + newline
    if style == "plain":
        first = draw(st.sampled_from(["p", "é", "x-y", "1.5"]))
        body = newline.join(ind + line for ind, line in zip(indents, lines, strict=True))
        return prefix + first + body + newline
    quote = "'" if style == "single" else '"'
    if style == "double":
        escape = draw(st.sampled_from(["\\n", "\\x41", "\\u00e9", "\\U0001F600", "\\\\", '\\"']))
        lines[0] = lines[0] + escape
    body = newline.join(ind + line for ind, line in zip(indents, lines, strict=True))
    return prefix + quote + body + quote + newline


@given(handwritten_scalar_docs())
def test_handwritten_scalars(text: str) -> None:
    try:
        list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except yaml.YAMLError:
        assume(False)
    except ValueError:  # e.g. an out-of-range escape
        assume(False)
    check_document(text)


PIECES = [
    *("a", "é", "😀", " ", "  ", "    ", "\n", "\r\n", "\r", "\x85", "\u2028", "\t"),
    *("'", '"', "''", "\\", "\\n", "\\x41", "#", ": ", ":", "- ", "? ", "k: "),
    *("|", ">", "|2", ">-", "|+", "&x ", "!!str ", "*x", "[", "]", "{", "}", ", "),
    *("\n  ", "\n    ", "--- ", "...\n"),
]


@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=25).map("".join))
def test_random_documents(text: str) -> None:
    """Arbitrary token soup; whatever PyYAML manages to compose must map back exactly."""
    try:
        list(yaml.compose_all(text, Loader=yaml.SafeLoader))
    except (yaml.YAMLError, ValueError):
        assume(False)
    check_document(text)
