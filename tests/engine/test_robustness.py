"""Hostile and half-typed input: clear findings, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from support import CORPUS, PASTES, cli, codes, node_signature
from vllm_config_lsp.engine import INTERNAL_ERROR, lint

SEED = (
    "model: Qwen/Qwen2.5-VL-7B-Instruct\ncompilation-config:\n"
    "  cudagraph_mm_encoder: true\n  encoder_cudagraph_token_budgets: [0, 2048, 4096]\n"
)
CORPUS_TEXTS = [p.read_text() for p in sorted((CORPUS / "real").glob("*.yaml"))[:40]]


def _sane(text: str) -> list[str]:
    findings = lint(text).findings
    for f in findings:
        assert 0 <= f.start <= f.end <= len(text), f
        assert f.code != INTERNAL_ERROR, f.message
        for fix in f.fixes:
            for edit in fix.edits:
                assert 0 <= edit.start <= edit.end <= len(text)
    return [f.code for f in findings]


def test_syntax_error_mid_edit_keeps_checking_the_rest() -> None:
    text = SEED + "max-model-len: [4096\nswap-space: 4\n"
    found = _sane(text)
    assert "VC001" in found
    assert "VC301" in found  # the rest of the file is still checked


def test_tabs() -> None:
    found = _sane("model: m\n\tmax-num-seqs: 4\n")
    assert found == ["VC001"]


def test_crlf_positions() -> None:
    text = SEED.replace("\n", "\r\n")
    [finding] = lint(text).findings
    assert text[finding.start : finding.end] == "0"


def test_multiple_documents() -> None:
    assert _sane("model: m\n---\nport: 8000\n") == ["VC003"]


def test_alias_bomb() -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
    assert _sane("\n".join(lines) + "\n") == ["VC006"]


def test_recursive_alias() -> None:
    _sane("model: m\nhf-overrides: &x {a: *x}\n")


@pytest.mark.parametrize(
    "text",
    ["", "# only a comment\n", "- a\n- b\n", "just text\n", "null\n", "42\n"],
    ids=["empty", "comment", "list", "scalar", "null", "number"],
)
def test_not_a_mapping(text: str) -> None:
    assert _sane(text) == ["VC002"]


def test_merge_keys_and_anchors() -> None:
    text = (
        "base: &base {max-num-seqs: 8}\n"
        "model: m\n"
        "compilation-config: &cc\n  mode: 3\n"
        "<<: {max-model-len: 4096}\n"
    )
    found = _sane(text)
    assert "VC101" in found  # `base` is not a flag; the merged key is fine


def test_unicode_positions() -> None:
    text = "# 模型 🚀 config\nmodel: 'Qwen/通义-🚀'\nmax-num-seqs: 'x🚀'\n"
    [finding] = lint(text).findings
    assert text[finding.start : finding.end] == "'x🚀'"


def test_huge_file_is_refused_quickly() -> None:
    text = "model: m\n" + "# padding\n" * 300_000
    [finding] = lint(text).findings
    assert finding.code == INTERNAL_ERROR


def test_long_but_reasonable_file() -> None:
    text = "model: m\n" + "".join(f"# note {i}\nmax-num-seqs: {i}\n" for i in range(2000))
    found = _sane(text)
    assert found.count("VC004") == 1999


def test_binary_and_undecodable_files(tmp_path: Path) -> None:
    binary = tmp_path / "a.vllm.yaml"
    binary.write_bytes(b"\x00\x01\x02model: m\n")
    latin = tmp_path / "b.vllm.yaml"
    latin.write_bytes("model: caf\xe9\n".encode("latin-1"))
    result = cli("check", str(binary), str(latin))
    assert result.returncode == 2
    assert "binary file" in result.stderr
    assert "not UTF-8" in result.stderr
    assert "Traceback" not in result.stderr


def test_directory_given_as_file_argument(tmp_path: Path) -> None:
    result = cli("check", str(tmp_path))
    assert result.returncode == 0
    assert "Traceback" not in result.stderr


@given(
    base=st.sampled_from([SEED, *CORPUS_TEXTS]),
    edits=st.lists(
        st.tuples(st.integers(0, 10_000), st.integers(0, 8), st.text(max_size=6)),
        max_size=4,
    ),
)
def test_random_edits_never_crash(base: str, edits: list[tuple[int, int, str]]) -> None:
    text = base
    for position, length, insert in edits:
        at = position % (len(text) + 1)
        text = text[:at] + insert + text[at + length :]
    _sane(text)


@given(st.text(alphabet=st.sampled_from(list("{}[]:,-'\"#&*!|>\n \tab01.")), max_size=80))
def test_random_yaml_never_crashes(text: str) -> None:
    _sane(text)


def test_codes_helper_sees_seed() -> None:
    assert codes(SEED) == ["VC301"]


@pytest.mark.parametrize("depth", [50, 400, 5000])
def test_deep_nesting(depth: int) -> None:
    found = _sane("model: m\nhf-overrides: " + "[" * depth + "]" * depth + "\n")
    if depth >= 5000:
        assert found == ["VC001"]


def test_python_tags_are_never_constructed() -> None:
    found = _sane("model: m\nseed: !!python/object/apply:os.system ['echo hacked']\n")
    assert found[0] == "VC001"


@pytest.mark.parametrize(
    "version", __import__("vllm_config_lsp.vllm.catalogue").vllm.catalogue.available_versions()
)
def test_every_release_runs_every_rule_without_internal_errors(version: str) -> None:
    text = (
        "model: m\ntensor-parallel-size: 2\nmax-model-len: 8k\nenable-prefix-caching: false\n"
        "compilation-config: {mode: 3, cudagraph_mode: FULL}\nspeculative-config:\n"
        "  method: ngram\n  num_speculative_tokens: 3\nlimit-mm-per-prompt: {image: 2}\n"
    )
    found = lint(text, version=version).findings
    assert [f.message for f in found if f.code == INTERNAL_ERROR] == []


# -- fuzzing: edits where they hurt, fixes, the libyaml fast path ------------------------------


@st.composite
def edited_corpus_text(draw: st.DrawFn) -> str:
    """A corpus file with insertions, deletions and pastes, often inside JSON strings and
    comments (positions next to `"`, `{`, `#` and `:` are preferred)."""
    text = draw(st.sampled_from([SEED, *CORPUS_TEXTS]))
    for _ in range(draw(st.integers(1, 5))):
        hot = [i for i, ch in enumerate(text) if ch in '"{#:[']
        if hot and draw(st.booleans()):
            at = draw(st.sampled_from(hot)) + draw(st.integers(0, 3))
        else:
            at = draw(st.integers(0, len(text)))
        at = min(at, len(text))
        length = draw(st.integers(0, 10))
        text = text[:at] + draw(PASTES) + text[at + length :]
    return text


def _fix_all(text: str) -> str:
    """`check --fix`: safe fixes, re-checked, until nothing is left (bounded)."""
    from vllm_config_lsp.engine import Document, check, fix_all

    return fix_all(check(Document(text))).text


def _parses(text: str) -> bool:
    import yaml

    try:
        list(yaml.safe_load_all(text))
    except yaml.YAMLError:
        return False
    except RecursionError:
        return False
    return True


@given(edited_corpus_text())
def test_edits_inside_strings_and_comments_never_crash(text: str) -> None:
    _sane(text)


@given(edited_corpus_text())
@example("? # a comment after an empty explicit key\nmodel: m\n")  # found by this test
@example("? 1\n: 2\nmodel: m\n")
def test_every_fix_leaves_parseable_yaml(text: str) -> None:
    from vllm_config_lsp.findings import apply_edits

    if not _parses(text):
        return
    for finding in lint(text).findings:
        for fix in finding.fixes:
            fixed = apply_edits(text, fix.edits)
            assert _parses(fixed), (finding.code, fix.title, fixed)


@given(st.one_of(edited_corpus_text(), st.sampled_from([SEED, *CORPUS_TEXTS])))
def test_fixing_twice_equals_fixing_once(text: str) -> None:
    once = _fix_all(text)
    assert _fix_all(once) == once


@given(
    st.one_of(
        edited_corpus_text(),
        st.text(
            alphabet=st.sampled_from(list("{}[]:,-'\"#&*!|>?%@`\n\r \tab01.\\é🚀\x85")), max_size=60
        ),
    )
)
def test_libyaml_fast_path_composes_exactly_like_safeloader(text: str) -> None:
    """libyaml only gets text it composes exactly like vLLM's pure-Python SafeLoader."""
    import yaml
    from vllm_config_lsp.document.yaml_tree import _compose_all_libyaml

    fast = _compose_all_libyaml(text)
    if fast is None:
        return
    slow = [n for n in yaml.compose_all(text, Loader=yaml.SafeLoader) if n is not None]
    assert [node_signature(n) for n in fast] == [node_signature(n) for n in slow]


# -- hostile input, each bounded in time and memory ---------------------------------------------


def _bomb(levels: int) -> str:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    names = "abcdefghijklmnopqrstuvwxyz"
    for i in range(1, levels):
        lines.append(f"{names[i]}: &{names[i]} [" + ", ".join([f"*{names[i - 1]}"] * 10) + "]")
    return "\n".join(lines) + "\n"


HOSTILE = {
    "alias bomb (10^9 nodes)": _bomb(9),
    "alias bomb in a JSON-valued flag": "model: m\nhf-overrides:\n  "
    + _bomb(9).replace("\n", "\n  ")
    + "x: 1\n",
    "10 MB file": "model: m\n" + "# padding padding padding\n" * 400_000,
    "just under the size limit": "model: m\n" + "# pad\n" * 330_000,
    "10,000-deep flow nesting": "model: m\nhf-overrides: " + "[" * 10_000 + "]" * 10_000 + "\n",
    "10,000-deep flow mappings": "model: m\nhf-overrides: " + "{a: " * 10_000 + "}" * 10_000,
    "10,000-deep block sequences": "model: m\nx:\n" + "- " * 10_000 + "1\n",
    "very long line (1 MB)": "model: m\nserved-model-name: " + "x" * 1_000_000 + "\n",
    "very long JSON line": "model: m\nhf-overrides: '{"
    + ", ".join(f'"k{i}": [{i}, "v"]' for i in range(20_000))
    + "}'\n",
    "NUL bytes": "model: m\x00\nmax-num-seqs: 4\x00\n",
    "binary junk": bytes(range(256)).decode("latin-1") * 50,
    "lone surrogates": "model: m\nserved-model-name: '\ud800\udfff\ud83d'\n",
    "BOM": "\ufeffmodel: m\nmax-num-seqs: 4\n",
    "CRLF and lone CR": "model: m\r\nmax-num-seqs: 4\rport: 1\r\n",
    "tabs everywhere": "model:\tm\n\tport: 1\n\t- x\n",
    "many documents": "model: m\n" + "---\nport: 8000\n" * 2_000,
    "non-mapping root": "- " + "\n- ".join(["x"] * 5_000) + "\n",
    "python tags": "model: m\nseed: !!python/object/apply:os.system ['touch /tmp/pwned']\n"
    "x: !!python/name:os.system\ny: !!python/module:os\n",
    "many duplicate keys": "model: m\n" + "max-num-seqs: 1\n" * 5_000,
    "thousands of JSON keys": "model: m\nhf-overrides: {"
    + ", ".join(f"k{i % 50}: {i}" for i in range(2_000))
    + "}\n",
}


#: Bounds for a shared 2-CPU CI machine; typical values are 10-100x lower (benchmarks/README.md).
HOSTILE_SECONDS = 5.0
HOSTILE_BYTES = 400 * 2**20


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_input_is_bounded_in_time_and_memory(name: str) -> None:
    import time
    import tracemalloc

    text = HOSTILE[name]
    # CPU time, not wall time: the bound is about the work done, not the machine's load
    started = time.process_time()
    findings = lint(text).findings
    elapsed = time.process_time() - started
    assert elapsed < HOSTILE_SECONDS, f"{name}: {elapsed:.1f} s"
    for f in findings:
        assert 0 <= f.start <= f.end <= len(text), f
        if f.code == INTERNAL_ERROR:
            assert "not checked" in f.message, f.message  # only the size limit, never a crash
    assert not Path("/tmp/pwned").exists()
    if "deep" in name:  # bounded by the recursion limit; tracemalloc slows deep unwinding 40x
        return
    tracemalloc.start()
    try:
        lint(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < HOSTILE_BYTES, f"{name}: {peak / 2**20:.0f} MB"


_LINES = [
    "a: 1",
    "# c `x` @y ?z !w %v",
    "  # ? @",
    "b: |",
    "  # in a block scalar",
    "  ?x",
    "- `y",
    "c: '# @ `'",
    "d: [1, 2]",
    "e:",
    "  - f",
    "  #",
    "g: !!str x",
]


@given(st.lists(st.sampled_from(_LINES), max_size=8))
def test_libyaml_path_with_indicators_in_comments(lines: list[str]) -> None:
    """Whole-line comments are ignored when deciding whether libyaml may read a file (a
    backtick in a comment must not cost the fast path); the result must not change."""
    import yaml
    from vllm_config_lsp.document.yaml_tree import _compose_all_libyaml

    text = "\n".join(lines) + "\n"
    fast = _compose_all_libyaml(text)
    if fast is None:
        return
    slow = [n for n in yaml.compose_all(text, Loader=yaml.SafeLoader) if n is not None]
    assert [node_signature(d) for d in fast] == [node_signature(d) for d in slow]


def test_an_empty_key_is_reported_on_its_question_mark_without_a_quote_fix() -> None:
    text = "? # nothing here\nmodel: m\n"
    [found] = [f for f in lint(text).findings if f.code == "VC005"]
    assert text[found.start : found.end] == "?" and "the key is empty" in found.message
    assert not found.fixes
