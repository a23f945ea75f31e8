"""json_positions: json.loads-identical results and errors, plus positions; human numbers."""

from __future__ import annotations

import ast
import json
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from vllm_config_lsp.document.human_numbers import (
    HumanReadableIntError,
    expand_json_human_readable_numbers,
    human_readable_int,
    human_readable_int_or_auto,
)
from vllm_config_lsp.document.json_positions import (
    MAX_DEPTH,
    JsonArray,
    JsonError,
    JsonNode,
    JsonObject,
    JsonScalar,
    JsonString,
    parse_json,
)


def same(a: Any, b: Any) -> bool:
    """Strict equality: same types, NaN equals NaN, dict key order matters."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


def outcome(fn: Callable[[], Any]) -> tuple[str, Any, Any]:
    try:
        return "ok", fn(), None
    except json.JSONDecodeError as e:
        return "error", e.msg, e.pos
    except JsonError as e:
        return "error", e.msg, e.pos
    except ValueError as e:  # int digit limit: json raises a plain ValueError
        return "error", str(e), None


def walk(root: JsonNode) -> list[JsonNode]:
    nodes, todo = [], [root]
    while todo:
        node = todo.pop()
        nodes.append(node)
        if isinstance(node, JsonArray):
            todo.extend(node.items)
        elif isinstance(node, JsonObject):
            for k, v in node.members:
                todo.extend((k, v))
    return nodes


def check_positions(s: str, root: JsonNode) -> None:
    for node in walk(root):
        assert 0 <= node.start < node.end <= len(s)
        assert same(json.loads(s[node.start : node.end]), node.value), (s, node)
        if isinstance(node, JsonString):
            assert s[node.start] == '"' and s[node.end - 1] == '"'
        if isinstance(node, JsonObject | JsonArray):
            assert s[node.start] in "{[" and s[node.end - 1] in "}]"


def check_against_json(s: str) -> None:
    ours = outcome(lambda: parse_json(s).value)
    theirs = outcome(lambda: json.loads(s))
    if theirs[0] == "ok":
        assert ours[0] == "ok", (s, ours)
        assert same(ours[1], theirs[1]), (s, ours, theirs)
        check_positions(s, parse_json(s))
    else:
        assert ours[0] == "error", (s, ours, theirs)
        assert ours[1:] == theirs[1:] or (theirs[2] is None and ours[1] == theirs[1]), (
            s,
            ours,
            theirs,
        )


# -- hand cases --------------------------------------------------------------------------

CASES = [
    "",
    " ",
    "\ufeff{}",
    "{}",
    "[]",
    " [ ] ",
    "{ }",
    '{"a": 1, "a": 2, "b": [1, 2.5, -0, -0.0, 1e5, 1E-5, 1.5e+3]}',
    "[true, false, null, NaN, Infinity, -Infinity]",
    "[nul]",
    "[tru",
    "[-Infinit]",
    "[-]",
    "-",
    "01",
    "1.",
    "1.e5",
    "1e",
    "1e+",
    "1e-x",
    ".5",
    "+1",
    "1 2",
    "[1,]",
    "[1,,2]",
    "[,1]",
    '{"a":1,}',
    '{"a" 1}',
    '{"a":}',
    "{a: 1}",
    "{'a': 1}",
    '{"a": 1 "b": 2}',
    "[1 2]",
    "[",
    "{",
    '{"a"',
    '{"a":',
    '"abc',
    '"\\',
    '"\\x"',
    '"\\u12"',
    '"\\u12',
    '"\\u0041',
    '"\\u00zz"',
    '"\\ud800"',
    '"\\ud800\\udc00"',
    '"\\ud800\\udc00',
    '"\\ud800\\u0041"',
    '"\\ud800\\uzz00"',
    '"\\ud800\\u12"',
    '"\\udc00\\ud800"',
    '"\\ud83d\\ude00 \\u00e9 \\/ \\b\\f\\n\\r\\t \\" \\\\"',
    '"tab\there"',
    '"nl\nhere"',
    '"\x7f del ok"',
    '"\x1f"',
    "\t\n\r [1]\t\n\r ",
    "[1]\x0b",
    "\x0c[1]",
    "\uff11",
    "[\u0661]",
    "1" * 5000,
    "-" + "9" * 5000,
    "[" * 50 + "]" * 50,
    "[" * 50 + "]" * 49,
    '{"a": {"b": [1, {"c": null}]}}',
    '{"é😀": "中"}',
    "😀",
    "[1]]",
    "{}}",
    "nan",
    "NaN1",
    "Infinityx",
    "true false",
]


@pytest.mark.parametrize("s", CASES)
def test_cases_match_json_loads(s: str) -> None:
    check_against_json(s)


def test_trailing_comma_messages_follow_interpreter() -> None:
    with pytest.raises(JsonError) as info:
        parse_json('{"a": 1 , }')
    if sys.version_info >= (3, 13):
        assert info.value.msg == "Illegal trailing comma before end of object"
        assert info.value.pos == 8
    else:
        assert info.value.msg == "Expecting property name enclosed in double quotes"
        assert info.value.pos == 10


def test_error_attributes() -> None:
    s = '{\n  "a": [1,\n  2 x]}'
    with pytest.raises(JsonError) as info:
        parse_json(s)
    with pytest.raises(json.JSONDecodeError) as ref:
        json.loads(s)
    err = info.value
    assert (err.msg, err.pos, err.lineno, err.colno) == (
        ref.value.msg,
        ref.value.pos,
        ref.value.lineno,
        ref.value.colno,
    )
    assert str(err) == str(ref.value)
    assert isinstance(err, ValueError)


def test_tree_shape() -> None:
    s = '{"a": [0, 2048], "a": "x", "b": {"c": true}}'
    root = parse_json(s)
    assert isinstance(root, JsonObject)
    assert [k.value for k, _ in root.members] == ["a", "a", "b"]
    assert root.value == {"a": "x", "b": {"c": True}}
    a = root.get("a")
    assert isinstance(a, JsonString)
    assert (a.start, a.end) == (s.index('"x"'), s.index('"x"') + 3)
    first = root.members[0][1]
    assert isinstance(first, JsonArray)
    zero = first.items[0]
    assert isinstance(zero, JsonScalar)
    assert (zero.start, zero.end) == (7, 8)
    member = root.get_member("b")
    assert member is not None
    assert member[0].start == s.index('"b"')
    assert root.get("missing") is None


def test_deep_nesting_does_not_recurse() -> None:
    depth = MAX_DEPTH
    root = parse_json("[" * depth + "]" * depth)
    assert isinstance(root, JsonArray)
    assert root.end == 2 * depth


def test_nesting_past_the_limit_is_json_loads_recursion_error() -> None:
    """Deeper than MAX_DEPTH `json.loads` raises RecursionError on every supported Python:
    the same text, at the opener past the limit."""
    text = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    with pytest.raises(JsonError) as raised:
        parse_json(text)
    assert raised.value.pos == MAX_DEPTH
    with pytest.raises(RecursionError) as recursion:
        json.loads(text)
    assert raised.value.msg == str(recursion.value)


def test_a_large_document() -> None:
    """Speed is measured in benchmarks/, not here: this is the size, read right."""
    data = {
        f"key{i}": [i, i * 0.5, f"v\\u00e9{i}", None, True, {"n": [1, 2, 3]}] for i in range(5000)
    }
    s = json.dumps(data, indent=2)
    assert same(parse_json(s).value, json.loads(s))


# -- property tests ----------------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=15,
)


@st.composite
def json_texts(draw: st.DrawFn) -> str:
    value = draw(json_values)
    indent = draw(st.sampled_from([None, 0, 1, "\t", " \r\n"]))
    seps = draw(st.sampled_from([(", ", ": "), (",", ":"), (" ,\n", " :\t")]))
    text = json.dumps(
        value,
        indent=indent,
        separators=seps,
        ensure_ascii=draw(st.booleans()),
    )
    pad = draw(st.sampled_from(["", " ", "\n\t", "\r\n "]))
    return pad + text + draw(st.sampled_from(["", " ", "\n"]))


@given(json_texts())
def test_valid_json_texts(s: str) -> None:
    check_against_json(s)


MUTATION_CHARS = [*'{}[],:"\\ \t\n-+.eE0123456789tfnNIulrsa/bu', "\x00", "\x1f", "é", "😀"]


@given(
    json_texts(),
    st.lists(
        st.tuples(
            st.sampled_from(["insert", "delete", "replace", "truncate", "dup"]),
            st.integers(min_value=0, max_value=10_000),
            st.sampled_from(MUTATION_CHARS),
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_mutated_json_texts(s: str, mutations: list[tuple[str, int, str]]) -> None:
    for op, where, ch in mutations:
        i = where % (len(s) + 1)
        if op == "insert":
            s = s[:i] + ch + s[i:]
        elif op == "delete":
            s = s[:i] + s[i + 1 :]
        elif op == "replace":
            s = s[:i] + ch + s[i + 1 :]
        elif op == "truncate":
            s = s[:i]
        else:
            s = s[:i] + s[i:][:3] + s[i:]
    check_against_json(s)


@given(st.text(alphabet=MUTATION_CHARS, max_size=20))
def test_random_json_alphabet(s: str) -> None:
    check_against_json(s)


# -- human-readable numbers --------------------------------------------------------------


def test_human_readable_int() -> None:
    assert human_readable_int("1k") == 1000
    assert human_readable_int("1K") == 1024
    assert human_readable_int("25.6k") == 25600
    assert human_readable_int(" 2M ") == 2 * 2**20
    assert human_readable_int("4.35k") == int(4.35 * 1000)  # float rounding, like vLLM
    assert human_readable_int("1t") == 10**12
    assert human_readable_int("42") == 42
    assert human_readable_int("-3") == -3
    assert human_readable_int("1_000") == 1000
    with pytest.raises(HumanReadableIntError, match="Decimals are not allowed with binary"):
        human_readable_int("1.5K")
    with pytest.raises(ValueError, match="invalid literal for int"):
        human_readable_int("1.5")
    with pytest.raises(ValueError, match="invalid literal for int"):
        human_readable_int("-1k")
    with pytest.raises(ValueError):
        human_readable_int("9" * 400 + "k")
    assert human_readable_int_or_auto("AUTO") == -1
    assert human_readable_int_or_auto(" -1 ") == -1
    assert human_readable_int_or_auto("2k") == 2000


def test_expansion_positions() -> None:
    s = '{"cpu_bytes_to_use": 80m, "name": "3k", "xs": [1k, 2K, 1.5K, -2g, 1.5k]}'
    root = parse_json(s.replace("1.5K, ", ""), human_readable_numbers=True)
    assert root.value == {
        "cpu_bytes_to_use": 80_000_000,
        "name": "3k",
        "xs": [1000, 2048, -2_000_000_000, 1500],
    }
    s2 = s.replace("1.5K, ", "")
    assert isinstance(root, JsonObject)
    mem = root.get("cpu_bytes_to_use")
    assert mem is not None
    assert s2[mem.start : mem.end] == "80m"
    xs = root.get("xs")
    assert isinstance(xs, JsonArray)
    assert [s2[n.start : n.end] for n in xs.items] == ["1k", "2K", "-2g", "1.5k"]
    assert s2[xs.start : xs.end] == "[1k, 2K, -2g, 1.5k]"
    # 1.5K cannot be converted: it stays as written and json reports it where it is.
    with pytest.raises(JsonError) as info:
        parse_json(s, human_readable_numbers=True)
    assert info.value.msg == "Expecting ',' delimiter"
    assert info.value.pos == s.index("1.5K") + 3
    # Errors after an expansion are mapped back to the original text.
    with pytest.raises(JsonError) as info:
        parse_json("[80m 1]", human_readable_numbers=True)
    assert (info.value.msg, info.value.pos) == ("Expecting ',' delimiter", 5)
    # Without the flag nothing is expanded.
    with pytest.raises(JsonError):
        parse_json("[80m]")


def _load_vllm_functions() -> dict[str, Any]:
    """vLLM's own human_readable_int and _expand_json_human_readable_numbers, taken from a
    vLLM source tree (VLLM_SRC, default /tmp/vllm-0.33.0) without importing vLLM."""
    regex = pytest.importorskip("regex")
    root = Path(os.environ.get("VLLM_SRC", "/tmp/vllm-0.33.0"))
    wanted = {
        root / "vllm/utils/argparse_utils.py": "human_readable_int",
        root / "vllm/engine/arg_utils.py": "_expand_json_human_readable_numbers",
    }
    import argparse

    namespace: dict[str, Any] = {"re": regex, "argparse": argparse}
    for path, name in wanted.items():
        if not path.exists():
            pytest.skip(f"vLLM source not found at {root}")
        tree = ast.parse(path.read_text())
        func = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name)
        exec(compile(ast.Module(body=[func], type_ignores=[]), str(path), "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def vllm_funcs() -> dict[str, Any]:
    return _load_vllm_functions()


HUMAN_ALPHABET = [
    *'0123456789kKmMgGtT.-"\\ ,:[]{}x_é\u0661\xb2\u24b6\u0301\u200d\n',
    "1k",
    "2.5m",
    '"3g"',
]


@given(st.lists(st.sampled_from(HUMAN_ALPHABET), max_size=25).map("".join))
def test_expansion_matches_vllm(vllm_funcs: dict[str, Any], s: str) -> None:
    ours, expansions = expand_json_human_readable_numbers(s)
    try:
        theirs = vllm_funcs["_expand_json_human_readable_numbers"](s)
    except Exception:  # a token vLLM cannot convert: it aborts, we leave that token alone
        theirs = None
    if theirs is not None:
        assert ours == theirs
    for e in expansions:
        assert s[e.start : e.end] == e.original
        assert ours[e.new_start : e.new_end] == e.replacement
        assert str(vllm_funcs["human_readable_int"](e.original)) == e.replacement


@given(st.lists(st.sampled_from(HUMAN_ALPHABET), max_size=25).map("".join))
def test_human_readable_int_matches_vllm(vllm_funcs: dict[str, Any], s: str) -> None:
    try:
        want: Any = vllm_funcs["human_readable_int"](s)
    except Exception as e:
        want = (str(e),)
    try:
        got: Any = human_readable_int(s)
    except ValueError as e:
        got = (str(e),)
    assert got == want


@given(
    json_texts(),
    st.lists(
        st.tuples(st.integers(0, 10_000), st.sampled_from(["1k", " 2K", "0.5m", "7T", "1.5K"])),
        max_size=3,
    ),
)
def test_human_numbers_parse_like_vllm(s: str, inserts: list[tuple[int, str]]) -> None:
    """parse_json(..., human_readable_numbers=True) == json.loads(expanded), positions in s."""
    for where, token in inserts:
        i = where % (len(s) + 1)
        s = s[:i] + token + s[i:]
    expanded, expansions = expand_json_human_readable_numbers(s)
    ours = outcome(lambda: parse_json(s, human_readable_numbers=True).value)
    theirs = outcome(lambda: json.loads(expanded))
    assert ours[0] == theirs[0], (s, ours, theirs)
    if theirs[0] == "ok":
        assert same(ours[1], theirs[1])
        root = parse_json(s, human_readable_numbers=True)
        for node in walk(root):
            piece = s[node.start : node.end]
            assert same(json.loads(expand_json_human_readable_numbers(piece)[0]), node.value)
    else:
        assert ours[1] == theirs[1]
        if theirs[2] is not None:
            # Map json's position (in the expanded text) back by hand.
            pos = theirs[2]
            shift = 0
            for e in expansions:
                if e.new_end <= pos:
                    shift = e.end - e.new_end
                elif e.new_start <= pos:
                    shift = e.start - pos + min(pos - e.new_start, e.end - e.start)
            assert ours[2] == pos + shift
