"""`SourceMap`: offsets in a text found inside the document back to the document, composed
through every layer (a script inside a shell string inside a YAML scalar)."""

from __future__ import annotations

from vllm_config_lsp.sources.kubernetes import find_invocations
from vllm_config_lsp.sources.source_map import SourceMap


def test_identity_keeps_offsets() -> None:
    identity = SourceMap()
    assert (identity.start_of(3), identity.end_of(3)) == (3, 3)


def test_positions_map_each_character_and_the_ends() -> None:
    smap = SourceMap.of_positions([10, 11, 15])
    assert [smap.start_of(i) for i in range(3)] == [10, 11, 15]
    assert [smap.end_of(i) for i in range(1, 4)] == [11, 12, 16]
    assert smap.start_of(3) == 16  # past the text: its end
    assert smap.end_of(0) == 10


def test_maps_compose() -> None:
    inner = SourceMap.of_positions([1, 2, 3])  # the script's characters in the string
    outer = SourceMap.of_positions([100, 102, 104, 106])  # the string's in the document
    both = inner.then(outer)
    assert [both.start_of(i) for i in range(3)] == [102, 104, 106]
    assert both.end_of(3) == 107
    assert SourceMap().then(outer) is outer
    assert inner.then(SourceMap()) is inner


def test_a_script_in_a_folded_yaml_string_lands_on_what_the_file_wrote() -> None:
    text = (
        "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: vllm\n"
        '    command: ["/bin/sh", "-c"]\n'
        '    args: ["ray start --head &&\n      vllm serve m --max-model-len \\"8192\\""]\n'
    )
    (invocation,) = find_invocations(text)
    value = invocation.args[-1]
    assert value.text == "8192"
    assert text[value.start : value.end] == '\\"8192\\"'
    assert text[invocation.start : invocation.end] == "vllm"


def test_a_generated_word_keeps_its_place_and_what_writes_it_moves() -> None:
    """A word an operator writes (no text of its own) found in a rendered text: what it
    reports on moves to the document, the word stays in the generated region."""
    from vllm_config_lsp.sources.invocation import GENERATED_AT, Generated, generated_word

    word = generated_word("--port=8080", 0, Generated("the runtime", 1, 3))
    moved = SourceMap.of_positions([100, 102, 104, 106]).word(word)
    assert (moved.start, moved.starts) == (word.start, word.starts)
    assert moved.start >= GENERATED_AT
    assert moved.generated == Generated("the runtime", 102, 105)
