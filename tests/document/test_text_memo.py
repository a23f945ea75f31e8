"""The memos hold what their one budget allows, newest first, weighed by what they hold
(measured here with tracemalloc), and keep of an edited document its latest version's
entries only (issue 30)."""

from __future__ import annotations

import gc
import tracemalloc

from vllm_config_lsp.document.text_memo import WeighedLru, text_memo, weigh
from vllm_config_lsp.sources.invocation import Word


def _words(text: str) -> list[Word]:
    """A reader's result: a word per 10 characters, an offset per character."""
    return [
        Word(text[i : i + 10], i, i + 10, tuple(range(i, i + 10)), tuple(range(i + 1, i + 11)))
        for i in range(0, len(text), 10)
    ]


def test_a_result_weighs_what_tracemalloc_measures() -> None:
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        result = _words("x" * 100_000)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert 0.8 * held < weigh(result) < 1.5 * held, (weigh(result), held)


def test_a_memo_weighs_its_results_not_only_its_key() -> None:
    @text_memo
    def read(text: str) -> list[Word]:
        return _words(text)

    read("y" * 10_000)
    assert read.store.held() > 50 * 10_000  # a reader keeps tens of bytes per character
    read.store.clear()
    assert read.store.held() == 0


def test_the_newest_entry_stays_even_past_the_budget() -> None:
    store: WeighedLru[str, str] = WeighedLru(100)
    store.put("small", "a", 10)
    store.put("large", "b", 1_000)
    assert (store.get("small"), store.get("large")) == (None, "b")
    store.put("large", "c", 1_000)  # replacing an entry does not count it twice
    assert store.get("large") == "c" and store.held() < 2_000
    store.drop(lambda _key: True)
    assert store.get("large") is None and store.held() == 0


def test_a_store_keeps_the_newest_entries_within_its_budget() -> None:
    store: WeighedLru[int, int] = WeighedLru(10_000)
    for key in range(100):
        store.put(key, key, 1_000)
    assert store.held() <= 10_000
    assert store.get(99) == 99 and store.get(0) is None


def test_a_version_keeps_what_it_used_and_drops_what_only_earlier_ones_did() -> None:
    store: WeighedLru[str, str] = WeighedLru(1_000_000)
    with store.versions_of("a.sh"):
        store.put("chunk 1", "v1", 10)
        store.put("chunk 2 as first typed", "v1", 10)
    with store.versions_of("b.sh"):
        store.put("chunk of b", "b", 10)
    with store.versions_of("a.sh"):
        assert store.get("chunk 1") == "v1"  # unchanged by the edit: used again
        store.put("chunk 2 as edited", "v2", 10)
    assert store.get("chunk 2 as first typed") is None
    assert store.get("chunk 1") == "v1" and store.get("chunk 2 as edited") == "v2"
    assert store.get("chunk of b") == "b"  # another document's
    store.forget("a.sh")  # closed
    assert store.get("chunk 1") is None and store.get("chunk of b") == "b"


def test_a_result_of_none_is_remembered_too() -> None:
    calls = []

    @text_memo
    def nothing(text: str) -> None:
        calls.append(text)

    nothing("a")
    nothing("a")
    assert calls == ["a"]
