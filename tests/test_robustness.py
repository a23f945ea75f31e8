"""Hostile and half-typed input: clear findings, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import CORPUS, cli, codes
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
    "version", __import__("vllm_config_lsp.catalogue").catalogue.available_versions()
)
def test_every_release_runs_every_rule_without_internal_errors(version: str) -> None:
    text = (
        "model: m\ntensor-parallel-size: 2\nmax-model-len: 8k\nenable-prefix-caching: false\n"
        "compilation-config: {mode: 3, cudagraph_mode: FULL}\nspeculative-config:\n"
        "  method: ngram\n  num_speculative_tokens: 3\nlimit-mm-per-prompt: {image: 2}\n"
    )
    found = lint(text, version=version).findings
    assert [f.message for f in found if f.code == INTERNAL_ERROR] == []
