"""What a confused or hurried client sends must not hurt the server: requests for documents
it never opened or already closed, versions out of order, cancelled requests, unknown
methods. (A crashing rule and a vanished client are in test_lifecycle.)"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from raw_client import RawClient

SEED = (
    "model: Qwen/Qwen2.5-VL-7B-Instruct\ncompilation-config:\n"
    "  cudagraph_mm_encoder: true\n  encoder_cudagraph_token_budgets: [0, 2048, 4096]\n"
)
POSITION = {"line": 3, "character": 5}


@pytest.fixture(scope="module")
def server() -> Iterator[RawClient]:
    client = RawClient()
    yield client
    client.close()


def _codes(diagnostics: list[dict[str, object]]) -> list[object]:
    return sorted(str(d.get("code")) for d in diagnostics)


def _still_works(server: RawClient, uri: str) -> None:
    server.open(uri, SEED)
    assert _codes(server.diagnostics(uri, 1)) == ["VC301"]


@pytest.mark.parametrize("state", ["unknown", "closed"])
def test_requests_for_documents_not_open(server: RawClient, state: str) -> None:
    uri = f"file:///resilience/{state}.vllm.yaml"
    if state == "closed":
        server.open(uri, SEED)
        server.diagnostics(uri, 1)
        server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    document = {"uri": uri}
    whole = {"start": {"line": 0, "character": 0}, "end": POSITION}
    for method, params in [
        ("textDocument/hover", {"textDocument": document, "position": POSITION}),
        ("textDocument/completion", {"textDocument": document, "position": POSITION}),
        ("textDocument/documentSymbol", {"textDocument": document}),
        (
            "textDocument/codeAction",
            {"textDocument": document, "range": whole, "context": {"diagnostics": []}},
        ),
    ]:
        assert server.request(method, params) in (None, []), method
    # changes and closes for documents that are not open are ignored, not fatal
    server.change("file:///resilience/never-opened.vllm.yaml", 2, [{"text": "model: m\n"}])
    server.notify(
        "textDocument/didClose", {"textDocument": {"uri": "file:///resilience/nope.vllm.yaml"}}
    )
    _still_works(server, f"file:///resilience/after-{state}.vllm.yaml")


def test_out_of_order_versions_publish_the_last_text(server: RawClient) -> None:
    uri = "file:///resilience/versions.vllm.yaml"
    reference = "file:///resilience/versions-reference.vllm.yaml"
    server.open(uri, SEED)
    server.diagnostics(uri, 1)
    server.change(uri, 7, [{"text": "model: m\nmax-num-seqs: x\n"}])
    server.change(uri, 3, [{"text": SEED + "max-model-len: -1\n"}])  # an older number, sent last
    server.open(reference, SEED + "max-model-len: -1\n")
    assert _comparable(server.diagnostics(uri, 3)) == _comparable(server.diagnostics(reference, 1))


def _comparable(diagnostics: list[dict[str, object]]) -> list[tuple[object, ...]]:
    return [(d["range"], d["message"], d.get("code"), d.get("severity")) for d in diagnostics]


def test_cancelled_requests_are_answered_and_the_server_goes_on(server: RawClient) -> None:
    uri = "file:///resilience/cancel.vllm.yaml"
    server.open(uri, SEED)
    server.diagnostics(uri, 1)
    ids = []
    for method in ("textDocument/completion", "textDocument/hover", "textDocument/completion"):
        ident = server.send_request(method, {"textDocument": {"uri": uri}, "position": POSITION})
        server.notify("$/cancelRequest", {"id": ident})
        ids.append(ident)
    server.notify("$/cancelRequest", {"id": 987654})  # nothing to cancel
    for ident in ids:
        answer = server.answer(ident)
        assert "result" in answer or answer["error"]["code"] == -32800, answer  # cancelled
    _still_works(server, "file:///resilience/after-cancel.vllm.yaml")


def test_unknown_methods_and_bad_params(server: RawClient) -> None:
    ident = server.send_request("vllmConfig/noSuchRequest", {})
    assert server.answer(ident)["error"]["code"] == -32601  # method not found
    # pygls 2.1 leaves a request whose params do not deserialize unanswered (it logs the
    # error); what matters here is that the server goes on
    server.send_request("textDocument/hover", {"textDocument": 42})
    server.notify("textDocument/didOpen", {"textDocument": None})
    server.notify("textDocument/didChange", {"contentChanges": "nope"})
    _still_works(server, "file:///resilience/after-garbage.vllm.yaml")
