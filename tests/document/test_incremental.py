"""The entry-by-entry path (`incremental`) gives exactly what the full path gives.

The cache is warmed with a document, then the edited document is checked both ways: the
findings (with fixes), the composed node tree (tags, values, styles, marks), the top-level
pairs and the flag values must be identical.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from support import CORPUS, PASTES, node_signature
from vllm_config_lsp.document import yaml_incremental as incremental
from vllm_config_lsp.engine import LintResult, lint

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from stress import generate

CORPUS_TEXTS = [p.read_text() for p in sorted((CORPUS / "real").glob("*.yaml"))[:40]]
STRESS = generate(240)
EXTRA = [
    STRESS,
    "model: m\nx: &a [1]\ny: *a\n",  # an alias across entries: the full path
    "model: m\nhf-overrides: &a\n  b: *a\n",  # a recursive alias: a cycle of nodes
    "model: m\n<<: {port: 1}\nport: 2\n",  # a top-level merge key: the full path
    "model: m\nport: 1\nport: 2\n",  # duplicates across entries
    '# head\nmodel: m\nhf-overrides:\n  a: 1\n  a: 2\nkv-transfer-config: |\n  {"a": 1}\n',
    "model: m\nspeculative-config:\n  num-speculative-tokens: 2\n  num_speculative_tokens: 3\n",
    'model: m\nlist:\n- 1\n- 2\nquoted: "a\n  b"\n# vllm-config: disable=VC101\nbad: x\n',
]
VERSIONS = ["0.33.0", "0.12.0", None]


@contextmanager
def _mode(enabled: bool) -> Iterator[None]:
    saved = incremental.ENABLED, incremental.MIN_CHARS
    incremental.ENABLED, incremental.MIN_CHARS = enabled, 0
    try:
        yield
    finally:
        incremental.ENABLED, incremental.MIN_CHARS = saved


def _signature(result: LintResult) -> dict[str, Any]:
    model = result.model
    out: dict[str, Any] = {"findings": [repr(f) for f in result.findings]}
    if model is None or model.origin is None:
        return out
    source = model.origin
    root = source.parsed.root
    out["root"] = [_kind(*row) for row in node_signature(root)] if root is not None else None
    out["problems"] = [repr(p) for p in source.parsed.problems]
    out["pairs"] = [
        (p.key, repr(p.value), p.key_node.start_mark.index, p.value_node.end_mark.index)
        for p in source.pairs
    ]
    out["bad"] = [(n.start_mark.index, what) for n, what in source.bad_keys]
    out["values"] = [
        (v.spec.name, repr(v.value), v.error, v.value_span(), _tree(v.tree)) for v in model.values
    ]
    out["too_large"] = source.too_large is not None
    return out


def _kind(name: str, *rest: object) -> tuple[object, ...]:
    """Moved nodes are subclasses (`_MovedScalar` is a ScalarNode)."""
    return (name.replace("_Moved", "") + ("Node" if name.startswith("_Moved") else ""), *rest)


def _tree(node: Any) -> Any:
    if node is None:
        return None
    return (
        node.start,
        node.end,
        repr(node.value),
        node.origin,
        None
        if node.entries is None
        else [
            (e.key, e.key_start, e.key_end, e.start, e.end, e.remove_span, _tree(e.value))
            for e in node.entries
        ],
        None if node.items is None else [_tree(item) for item in node.items],
    )


def _check(text: str, version: str | None) -> None:
    with _mode(False):
        full = _signature(lint(text, version=version))
    with _mode(True):
        incremental_result = lint(text, version=version)
        assert _signature(incremental_result) == full
        # a second time: everything comes from the cache
        assert _signature(lint(text, version=version)) == full


@st.composite
def edit_scripts(draw: st.DrawFn) -> tuple[str, list[str], str | None]:
    """A base document and the texts after each of a few edits (typing, deleting, pasting:
    at line starts too, where entries split)."""
    text = draw(st.sampled_from([*EXTRA, *CORPUS_TEXTS]))
    texts = []
    for _ in range(draw(st.integers(1, 4))):
        starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        if draw(st.booleans()):
            at = draw(st.sampled_from(starts)) + draw(st.integers(0, 2))
        else:
            at = draw(st.integers(0, len(text)))
        at = min(at, len(text))
        length = draw(st.integers(0, 12))
        paste = draw(st.one_of(PASTES, st.sampled_from(["\n", "x: 1\n", "  ", "- ", "&a ", "*a"])))
        text = text[:at] + paste + text[at + length :]
        texts.append(text)
    return draw(st.sampled_from([*EXTRA, *CORPUS_TEXTS])), texts, draw(st.sampled_from(VERSIONS))


@given(edit_scripts())
def test_incremental_equals_full_for_random_edits(
    script: tuple[str, list[str], str | None],
) -> None:
    base, texts, version = script
    with _mode(True):
        lint(base, version=version)  # warm the cache with another placement of the entries
    for text in texts:
        _check(text, version)


def test_extra_documents_are_equal() -> None:
    for text in EXTRA:
        for version in VERSIONS:
            _check(text, version)


def test_stress_document_takes_the_incremental_path() -> None:
    composed = incremental.compose(generate())
    assert composed is not None
    assert len(composed.pieces) > 10


def test_unusual_documents_take_the_full_path() -> None:
    with _mode(True):
        for text in [
            "a: 1\n---\nb: 2\n",
            "%YAML 1.1\n---\na: 1\n",
            "- a\n- b\n",
            "  a: 1\nb: 2\n",
            "a: !!python/object:os.system x\n",
            "a:\tb\n",
            "x: &a 1\ny: *a\n",
            "<<: {a: 1}\n",
            "{a: 1, b: 2}\n",
            "a: [1,\n2]\n",
        ]:
            assert incremental.compose(text) is None, text
