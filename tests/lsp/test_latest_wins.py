"""With default settings a change is checked at once, and a change that arrives while a
check runs wins: the older version's diagnostics are never published after it."""

from __future__ import annotations

import pytest
from raw_client import RawClient
from vllm_config_lsp.lsp.session import MAX_AUTO_DELAY, SLOW_CHECK, auto_delay
from vllm_config_lsp.lsp.settings import parse

#: Six hundred command lines: checking them all takes long enough (well over a second
#: here) that the changes below arrive while the first check runs.
SLOW_SCRIPT = "".join(f"vllm serve m{n} --max-num-seqs {n + 1}\n" for n in range(600))


def _edit(version: int, line: int, text: str) -> dict[str, object]:
    start = {"line": line, "character": 0}
    end = {"line": line, "character": len(f"vllm serve m{line} --max-num-seqs {line + 1}")}
    return {
        "textDocument": {"uri": URI, "version": version},
        "contentChanges": [{"range": {"start": start, "end": end}, "text": text}],
    }


URI = "file:///work/latest/serve-all.sh"


def test_a_change_during_a_check_wins_over_it() -> None:
    client = RawClient(options={})  # the shipped defaults: debounceMs "auto"
    try:
        client.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": URI,
                    "languageId": "shellscript",
                    "version": 1,
                    "text": SLOW_SCRIPT,
                }
            },
        )
        client.notify("textDocument/didChange", _edit(2, 10, "vllm serve m --max-num-seqs two"))
        client.notify("textDocument/didChange", _edit(3, 20, "vllm serve m --max-num-seqs three"))
        found = {(d["range"]["start"]["line"], d["code"]) for d in client.diagnostics(URI, 3)}
        assert found == {(10, "VC201"), (20, "VC201")}, found  # both changes, in version 3
        versions = [params["version"] for params in client.published[URI]]
        assert versions == sorted(versions), versions  # nothing older after something newer
        assert 1 not in versions, versions  # the check of version 1 ran, and was dropped
    finally:
        client.close()


@pytest.mark.parametrize(
    ("last", "wait"),
    [(None, 0.0), (0.002, 0.0), (SLOW_CHECK - 0.001, 0.0), (0.08, 0.08), (3.0, MAX_AUTO_DELAY)],
)
def test_auto_waits_only_after_a_slow_check(last: float | None, wait: float) -> None:
    assert auto_delay(last) == wait


@pytest.mark.parametrize(
    ("raw", "expected", "problem"),
    [
        (None, None, False),
        ("auto", None, False),
        (0, 0, False),
        (75.4, 75, False),
        (-1, None, True),
    ],
)
def test_debounce_setting(raw: object, expected: int | None, problem: bool) -> None:
    problems: list[str] = []
    settings = parse({} if raw is None else {"debounceMs": raw}, problems)
    assert settings.debounce_ms == expected
    assert bool(problems) == problem, problems
