"""The readers' memos hold what their budget allows, newest first, whatever the number of
texts they are asked about (issue 30)."""

from __future__ import annotations

from vllm_config_lsp.document.text_memo import WeighedLru, text_memo


def test_a_memo_keeps_the_newest_texts_within_its_budget() -> None:
    calls: list[str] = []

    @text_memo(budget=10_000)
    def read(text: str) -> int:
        calls.append(text)
        return len(text)

    texts = [f"{i:04d}" + "x" * 996 for i in range(100)]  # 1,000 characters each
    for text in texts:
        assert read(text) == 1000
    assert read.store.held() <= 10_000
    assert read(texts[-1]) == 1000 and calls.count(texts[-1]) == 1  # the newest is kept
    assert read(texts[0]) == 1000 and calls.count(texts[0]) == 2  # the oldest was dropped


def test_the_newest_entry_stays_even_past_the_budget() -> None:
    store: WeighedLru[str, str] = WeighedLru(100)
    store.put("small", "a", 10)
    store.put("large", "b", 1_000)
    assert (store.get("small"), store.get("large")) == (None, "b")
    store.put("large", "c", 1_000)  # replacing an entry does not count it twice
    assert store.get("large") == "c" and store.held() < 2_000
    store.clear()
    assert store.get("large") is None and store.held() == 0


def test_a_result_of_none_is_remembered_too() -> None:
    calls = []

    @text_memo()
    def nothing(text: str) -> None:
        calls.append(text)

    nothing("a")
    nothing("a")
    assert calls == ["a"]
