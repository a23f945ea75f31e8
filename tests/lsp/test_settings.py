"""Settings from initializationOptions, workspace/configuration and didChangeConfiguration:
severities, disabled codes, associations, detection, version; changes re-check open
documents without a restart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_lsp
from lsp_support import (
    CONFIG,
    EDITORS,
    Doc,
    change_settings,
    document_info,
    open_doc,
    published,
    start_session,
    wait_until,
)
from lsprotocol import types
from pytest_lsp import LanguageClient
from vllm_config_lsp.vllm.catalogue import DEFAULT_VERSION, available_versions

pytestmark = pytest.mark.asyncio(loop_scope="module")

INITIALIZATION_OPTIONS = {
    "vllmConfig": {
        "debounceMs": 0,
        "vllmVersion": "9.9.9",
        "severityOverrides": {"VC101": "hint", "VC104": "off"},
        "disabledCodes": ["VC110"],
        "associations": {"globs": ["deploy/*.yaml"], "exclude": ["**/skip/**"]},
        "detection": False,
        "gpu": "T4",
        "gpuCount": 1,
    }
}


@pytest_lsp.fixture(config=CONFIG, params=EDITORS, scope="module")  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest) -> AsyncIterator[None]:
    """Servers of their own: these settings (and their changes) must not leak."""
    await start_session(lsp_client, request.param, INITIALIZATION_OPTIONS)
    yield
    await lsp_client.shutdown_session()


TEXT = (
    "model: Qwen/Qwen3-8B\n"
    "swap-space: 16\n"
    "disable-cascade-attn: true\n"
    "enable-chunked-prefill: false\n"
)


async def test_initialization_options(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/s/a.vllm.yaml", TEXT)
    [diagnostic] = await doc.diagnostics()
    assert diagnostic.code == "VC101"
    assert diagnostic.severity == types.DiagnosticSeverity.Hint
    warnings = [m.message for m in client.log_messages if m.type == types.MessageType.Warning]
    assert any("unknown vLLM version '9.9.9'" in message for message in warnings)


async def test_an_unknown_release_is_said_where_the_user_looks(client: LanguageClient) -> None:
    """A warning pop-up naming the known releases (once, although VS Code's settings are
    pulled again after `initialized`), and the status item's answer carries it."""
    [shown] = [m for m in client.messages if "'9.9.9'" in m.message]
    assert shown.type == types.MessageType.Warning
    assert all(release in shown.message for release in available_versions())
    doc = Doc(client, "file:///work/s/status.vllm.yaml", "model: m\n")
    await doc.diagnostics()
    [problem] = (await document_info(client, doc.uri))["problems"]
    assert "unknown vLLM version '9.9.9'" in problem and DEFAULT_VERSION in problem


async def test_association_settings(client: LanguageClient) -> None:
    globbed = Doc(client, "file:///work/s/deploy/serve.yaml", "swap-space: 1\n")
    assert [d.code for d in await globbed.diagnostics()] == ["VC101"]
    open_doc(client, "file:///work/s/skip/serve.vllm.yaml", "swap-space: 1\n")
    open_doc(client, "file:///work/s/detected.yaml", "tensor-parallel-size: x\n")
    last = Doc(client, "file:///work/s/last.vllm.yaml", "model: x\n")
    await last.diagnostics()  # checks run in order: the two above were decided before
    await asyncio.sleep(0.05)
    assert published(client, "file:///work/s/skip/serve.vllm.yaml") == []
    assert published(client, "file:///work/s/detected.yaml") == []


async def test_the_gpu_setting_is_the_target(client: LanguageClient) -> None:
    """`gpu`/`gpuCount` judge files that say nothing of their hardware; a file's marker
    comment wins over them."""
    bf16 = "model: Qwen/Qwen3-8B\ndtype: bfloat16\ntensor-parallel-size: 2\n"
    plain = Doc(client, "file:///work/s/gpu.vllm.yaml", bf16)
    assert {"VC701", "VC703"} <= {str(d.code) for d in await plain.diagnostics()}
    marked = Doc(client, "file:///work/s/marked.vllm.yaml", "# vllm-config: gpu=A100\n" + bf16)
    codes = {str(d.code) for d in await marked.diagnostics()}
    assert "VC701" not in codes and "VC703" in codes  # the count is still the setting's


async def test_changed_settings_recheck_open_documents(client: LanguageClient) -> None:
    uri = "file:///work/s/change.vllm.yaml"
    doc = Doc(client, uri, TEXT)
    await doc.diagnostics()
    before = len(published(client, uri))
    settings = {"severityOverrides": {"VC101": "warning"}, "detection": True}
    change_settings(client, settings)

    def republished() -> list[types.Diagnostic] | None:
        found = published(client, uri)
        return found[-1].diagnostics if len(found) > before else None

    diagnostics = await wait_until(republished)
    codes = {str(d.code): d for d in diagnostics}
    assert set(codes) == {"VC101", "VC104", "VC110"}  # nothing disabled any more
    assert codes["VC101"].severity == types.DiagnosticSeverity.Warning
    # detection is on again: a document with vLLM keys is now checked
    detected = Doc(client, "file:///work/s/detected-now.yaml", "tensor-parallel-size: x\n")
    assert [d.code for d in await detected.diagnostics()] == ["VC201"]
    assert (await document_info(client, detected.uri))["problems"] == []  # no version set now
