"""JSON-RPC over stdio as a broken or hostile client writes it: every request gets an
answer (an error is one), a bad frame costs at most itself and the header it swallowed, no
frame makes the server read without a bound, and the server does not grow with the number
of notifications. Each case ends with a valid request that must be answered."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from raw_client import RawClient, frame, rss_kb

URI = "file:///protocol/serve.vllm.yaml"
TEXT = "model: m\nmax-num-seqs: 4\n"
HOVER = {"textDocument": {"uri": URI}, "position": {"line": 1, "character": 2}}
INITIALIZE = {"processId": None, "rootUri": None, "capabilities": {}}
#: The frame bound the server states (`lsp.framing.MAX_FRAME`).
MAX_FRAME = 64 * 1024 * 1024
#: The server's address space in the oversized-frame test: far below the declared length.
MEMORY = 1024 * 1024 * 1024


def _request(ident: object, method: str, params: Any = None) -> dict[str, Any]:
    message = {"jsonrpc": "2.0", "id": ident, "method": method}
    return message if params is None else {**message, "params": params}


def _error(answer: dict[str, Any]) -> int:
    assert "result" not in answer and "data" not in answer["error"], answer  # no traceback
    code: int = answer["error"]["code"]
    return code


def _still_serves(client: RawClient) -> None:
    """A valid request after the bad input is answered (the document is open)."""
    assert client.request("textDocument/documentSymbol", {"textDocument": {"uri": URI}})


@pytest.fixture
def client() -> Iterator[RawClient]:
    client = RawClient()
    client.open(URI, TEXT)
    yield client
    client.process.kill()
    client.process.wait()


def test_requests_before_initialize_are_refused_and_notifications_dropped() -> None:
    client = RawClient(initialize=False)
    try:
        client.write_raw(frame(_request("early", "textDocument/hover", HOVER)))
        assert _error(client.answer("early")) == -32002  # ServerNotInitialized
        client.open(URI, TEXT)  # a notification before initialize is dropped, harmlessly
        client.initialize({})
        assert client.request("textDocument/hover", HOVER) is None
        client.open(URI, TEXT)
        _still_serves(client)
    finally:
        client.close()


def test_a_message_nested_too_deep_is_answered_and_initialize_works_after() -> None:
    client = RawClient(initialize=False)
    try:
        deep = json.dumps(_request("deep", "initialize", {**INITIALIZE, "x": 0})).encode()
        deep = deep.replace(b"0}}", b"[" * 100_000 + b"]" * 100_000 + b"}}")
        client.write_raw(frame(deep))
        assert _error(client.answer("deep")) == -32600  # InvalidRequest
        client.initialize({})
        client.open(URI, TEXT)
        _still_serves(client)
    finally:
        client.close()


@pytest.mark.parametrize(
    ("params", "why"),
    [
        (None, "required field missing @ $.params"),
        (
            {**HOVER, "position": {"line": -1, "character": 0}},
            "invalid value @ $.params.position",
        ),
        ({"textDocument": 42, "position": HOVER["position"]}, "$.params.text_document"),
    ],
)
def test_params_that_do_not_fit_are_invalid_params(
    client: RawClient, params: Any, why: str
) -> None:
    client.write_raw(frame(_request("bad", "textDocument/hover", params)))
    answer = client.answer("bad")
    assert _error(answer) == -32602 and why in answer["error"]["message"], answer
    _still_serves(client)


@pytest.mark.parametrize(
    ("body", "ident", "code"),
    [
        (b"[1, 2]", None, -32600),  # not a message
        (json.dumps({**_request("v1", "shutdown"), "jsonrpc": "1.0"}).encode(), "v1", -32600),
        (b'{"jsonrpc": "2.0", "id": "cut", "method": "textDocument/hover", "par', "cut", -32700),
        (b"\xff\xfe not text", None, -32700),
    ],
)
def test_bodies_that_are_no_message_are_answered(
    client: RawClient, body: bytes, ident: object, code: int
) -> None:
    client.write_raw(frame(body))
    assert _error(client.answer(ident)) == code
    _still_serves(client)


def test_a_frame_declaring_too_many_bytes_costs_only_itself(client: RawClient) -> None:
    """The body is 5 bytes shorter than its header says: those 5 are the next header's."""
    body = json.dumps(
        _request("short", "textDocument/documentSymbol", {"textDocument": {"uri": URI}})
    )
    client.write_raw(b"Content-Length: %d\r\n\r\n" % (len(body) + 5) + body.encode())
    client.write_raw(frame(_request("next", "textDocument/hover", HOVER)))
    assert client.answer("short")["result"]
    assert "result" in client.answer("next")
    _still_serves(client)


def test_a_frame_declaring_too_few_bytes_is_answered_and_the_next_found(
    client: RawClient,
) -> None:
    body = json.dumps(_request("long", "textDocument/hover", HOVER)).encode()
    client.write_raw(b"Content-Length: 40\r\n\r\n" + body)  # the rest is read as a header
    client.write_raw(b"garbage that is no header\r\n")
    assert _error(client.answer("long")) == -32700  # ParseError, to the id it shows
    _still_serves(client)


def test_an_impossible_length_neither_exhausts_memory_nor_hides_the_next_frame() -> None:
    client = RawClient(memory=MEMORY)
    try:
        client.open(URI, TEXT)
        client.write_raw(b"Content-Length: 99999999999999\r\n\r\n")
        _still_serves(client)
    finally:
        client.close()


def test_a_frame_over_the_bound_is_read_past_and_answered(client: RawClient) -> None:
    big = json.dumps(_request("big", "textDocument/hover", {"pad": "x" * MAX_FRAME})).encode()
    client.write_raw(frame(big))
    answer = client.answer("big")
    assert _error(answer) == -32600 and str(MAX_FRAME) in answer["error"]["message"]
    _still_serves(client)


def test_requests_after_shutdown_are_invalid_and_exit_still_ends_it(client: RawClient) -> None:
    assert client.request("shutdown", None) is None
    client.write_raw(frame(_request("late", "textDocument/hover", HOVER)))
    assert _error(client.answer("late")) == -32600  # InvalidRequest (LSP)
    client.notify("exit", None)
    assert client.process.wait(timeout=20) == 0


#: Notifications sent to measure the server's growth; pygls 2.1 kept about 2 KB for each.
CHANGES = 20_000
#: The growth allowed over `CHANGES` notifications (before: about 40 MB).
MOST_GROWTH_KB = 10 * 1024


def test_the_server_does_not_grow_with_the_number_of_changes() -> None:
    # a long debounce: each change only replaces the waiting check (no lint per keystroke)
    client = RawClient(options={"vllmConfig": {"debounceMs": 60_000}})
    try:
        client.open(URI, TEXT)
        for version in range(2, 1_002):  # warm up: caches and allocator arenas in place
            client.change(URI, version, [{"text": f"{TEXT}max-model-len: {version}\n"}])
        _still_serves(client)
        before = rss_kb(client.process.pid)
        for version in range(1_002, 1_002 + CHANGES):
            client.change(URI, version, [{"text": f"{TEXT}max-model-len: {version}\n"}])
        _still_serves(client)
        grown = rss_kb(client.process.pid) - before
        assert grown < MOST_GROWTH_KB, f"+{grown} KB over {CHANGES} changes"
    finally:
        client.close()


@pytest.mark.parametrize(
    ("method", "params"),
    [
        (  # an echoed diagnostic whose `data.fixes` is of the wrong type
            "textDocument/codeAction",
            {
                "textDocument": {"uri": URI},
                "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 5}},
                "context": {
                    "diagnostics": [
                        {
                            "range": {
                                "start": {"line": 1, "character": 0},
                                "end": {"line": 1, "character": 5},
                            },
                            "message": "m",
                            "code": "VC201",
                            "source": "vllm-config",
                            "data": {"fixes": fixes},
                        }
                    ]
                },
            },
        )
        for fixes in ("x", 42, [1, "y", None], {"title": 3})
    ]
    + [
        ("workspace/executeCommand", {"command": "vllmConfig.migrationReport", "arguments": args})
        for args in ([], [42], [None, None, None], [{"uri": 3}], ["file:///nowhere.yaml"])
    ],
)
def test_hostile_echoed_data_and_command_arguments_are_no_internal_error(
    client: RawClient, method: str, params: Any
) -> None:
    """Echoed diagnostic data of the wrong type and a migration report with bad arguments
    answered -32603 (issue 30): now an answer, or invalid params, and the server serves on."""
    client.write_raw(frame(_request("hostile", method, params)))
    answer = client.answer("hostile")
    assert "error" not in answer or _error(answer) == -32602, answer
    _still_serves(client)
