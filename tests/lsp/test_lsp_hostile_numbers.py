"""Numbers from outside the server are bounded: a 5,000-digit version (beyond Python's
int digit limit) or a `debounceMs` of infinity or NaN in `initializationOptions` is a
reported setting problem replaced by its default, never a failed `initialize`; a version
comment of 5,000 digits in a document is a release named by nothing."""

from __future__ import annotations

import math

import pytest
from raw_client import RawClient

HUGE_VERSION = "0." + "1" * 5000


@pytest.mark.parametrize("debounce", [math.inf, math.nan, 1e300])
def test_hostile_initialization_options_fall_back_to_defaults(debounce: float) -> None:
    options = {"vllmConfig": {"vllmVersion": HUGE_VERSION, "debounceMs": debounce}}
    server = RawClient(options=options)
    try:
        uri = "file:///hostile-numbers/a.vllm.yaml"
        server.open(uri, "model: m\nmax-num-seqs: x\n")
        assert [d["code"] for d in server.diagnostics(uri, 1)] == ["VC201"]
        # the default debounce: a change is checked again
        server.change(uri, 2, [{"text": "model: m\nmax-num-seqs: 4\n"}])
        assert server.diagnostics(uri, 2) == []
        server.wait(lambda: any("debounceMs" in line for line in server.logs))
        assert any("vllmVersion: unknown vLLM version" in line for line in server.logs)
    finally:
        server.close()


def test_a_version_comment_of_5000_digits_names_no_release() -> None:
    server = RawClient()
    try:
        uri = "file:///hostile-numbers/marked.vllm.yaml"
        server.open(uri, f"# vllm-config: version={HUGE_VERSION}\nmodel: m\nmax-num-seqs: x\n")
        assert [d["code"] for d in server.diagnostics(uri, 1)] == ["VC201"]
    finally:
        server.close()
