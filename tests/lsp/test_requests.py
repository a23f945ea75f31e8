"""`vllmConfig/documentInfo` (the VS Code status bar), the vLLM version every hover names,
and "Migrate this config to vLLM X" with its report."""

from __future__ import annotations

import asyncio

import pytest
from lsp_support import (
    TIMEOUT,
    Doc,
    apply_workspace_edit,
    code_actions,
    document_info,
    encoding,
    position_of,
)
from lsprotocol import types
from pytest_lsp import LanguageClient
from vllm_config_lsp.migrate import migrate
from vllm_config_lsp.vllm.catalogue import DEFAULT_VERSION

pytestmark = pytest.mark.asyncio(loop_scope="session")

MIGRATE = "source.migrate.vllm-config"
WHOLE = types.Range(
    start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
)


async def test_document_info(client: LanguageClient) -> None:
    marked = Doc(client, "file:///work/r/info/a.yaml", "# vllm-config: version=0.10\nmodel: m\n")
    await marked.diagnostics()
    assert await document_info(client, marked.uri) == {
        "isConfig": True,
        "reason": "marker comment",
        "vllmVersion": "0.10.2",
        "versionSource": "vLLM 0.10.2 (for 0.10), from the `# vllm-config: version=` comment",
        "commandLines": [],  # a `--config` file: no command line of its own
        "problems": [],
    }
    named = Doc(client, "file:///work/r/info/serve.vllm.yaml", "model: m\n")
    await named.diagnostics()
    info = await document_info(client, named.uri)
    assert info["isConfig"] and info["reason"] == "file name"
    assert info["vllmVersion"] == DEFAULT_VERSION
    assert info["versionSource"].startswith("newest known release")
    other = Doc(client, "file:///work/r/info/pod.yaml", "apiVersion: v1\nkind: Pod\n")
    assert (await document_info(client, other.uri))["isConfig"] is False
    assert (await document_info(client, "file:///work/r/info/never-opened.yaml")) == {
        "isConfig": False,
        "reason": None,
        "vllmVersion": None,
        "versionSource": None,
        "commandLines": [],
        "problems": [],
    }


async def _hover(client: LanguageClient, doc: Doc, needle: str) -> str | None:
    result = await asyncio.wait_for(
        client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=doc.uri),
                position=position_of(doc.text, doc.text.index(needle), encoding(client)),
            )
        ),
        TIMEOUT,
    )
    if result is None:
        return None
    assert isinstance(result.contents, types.MarkupContent)
    return result.contents.value


HOVERED = (
    "model: Qwen/Qwen3-8B\n"
    "dtype: bfloat16\n"
    "swap-space: 4  # vllm-config: disable=VC101,VC998\n"
    "compilation-config:\n"
    "  cudagraph_mode: FULL\n"
    "  pass_config:\n"
    "    fuse_norm_quant: true\n"
)


@pytest.mark.parametrize(
    ("marker", "note"),
    [
        ("", f"vLLM {DEFAULT_VERSION}: newest known release (nothing names another)"),
        ("# vllm-config: version=0.32\n", "vLLM 0.32.0 (for 0.32), from the `# vllm-config:"),
    ],
)
async def test_every_hover_names_the_version_and_why(
    client: LanguageClient, marker: str, note: str
) -> None:
    doc = Doc(client, f"file:///work/r/hover-{len(marker)}.vllm.yaml", marker + HOVERED)
    await doc.diagnostics()
    needles = ["dtype", "bfloat16", "cudagraph_mode", "FULL", "fuse_norm_quant", "VC101"]
    needles += ["VC998", "model", "Qwen/Qwen3-8B"]
    for needle in needles:
        text = await _hover(client, doc, needle)
        assert text is not None, needle
        plain = text.replace("`", "")
        assert note.replace("`", "") in plain, (needle, text)


#: Pinned to 0.10: one rename the tool applies, one option whose replacement has another shape.
OLD = (
    "# vllm-config: version=0.10\r\n"
    "model: m  # 模型\r\n"
    "cuda-graph-sizes: [1, 2, 4]\r\n"
    'rope-scaling: \'{"rope_type": "dynamic", "factor": 2.0}\'\r\n'
)


async def test_migrate_action(client: LanguageClient) -> None:
    uri = "file:///work/r/migrate.vllm.yaml"
    doc = Doc(client, uri, OLD)
    await doc.diagnostics()
    # a whole-document source action: not among the quick fixes, whatever the range
    quick = await code_actions(client, uri, WHOLE, [], only=["quickfix"])
    assert all(a.kind == "quickfix" for a in quick)
    sources = await code_actions(client, uri, WHOLE, [], only=["source"])
    [action] = [a for a in sources if a.kind == MIGRATE]
    assert action.title == f"Migrate this config to vLLM {DEFAULT_VERSION} (1 needs your decision)"
    everything = await code_actions(client, uri, WHOLE, [])
    assert [a.title for a in everything if a.kind == MIGRATE] == [action.title]

    assert action.edit is not None
    migrated = apply_workspace_edit(OLD, action.edit, uri, encoding(client))
    expected = migrate(OLD, DEFAULT_VERSION).text
    assert migrated == expected.replace("version=0.10", f"version={DEFAULT_VERSION}")
    assert "cudagraph-capture-sizes: [1, 2, 4]" in migrated and "# 模型" in migrated
    after = {str(d.code) for d in await doc.replace(migrated)}
    assert "VC101" in after  # rope-scaling is left to a human, as the title says

    # the editor runs the action's command after applying the edit: the report
    assert action.command is not None
    client.messages.clear()
    await asyncio.wait_for(
        client.workspace_execute_command_async(
            types.ExecuteCommandParams(
                command=action.command.command, arguments=action.command.arguments
            )
        ),
        TIMEOUT,
    )
    [shown] = client.messages
    assert shown.type == types.MessageType.Warning
    assert "Needs your decision: 'rope-scaling': removed in vLLM 0.11" in shown.message
    assert "1 change applied" in shown.message
    assert "`" not in shown.message  # a pop-up is plain text: no Markdown code spans

    # checked against the newest release now: nothing to migrate
    assert await code_actions(client, uri, WHOLE, [], only=[MIGRATE]) == []


async def test_no_migration_offered_on_the_newest_release(client: LanguageClient) -> None:
    uri = "file:///work/r/new.vllm.yaml"
    doc = Doc(client, uri, "model: m\ncuda-graph-sizes: [1, 2]\n")
    await doc.diagnostics()
    sources = await code_actions(client, uri, WHOLE, [], only=["source"])
    assert [a.title for a in sources if a.kind == MIGRATE] == []


async def test_document_info_names_the_release_of_the_image(client: LanguageClient) -> None:
    dockerfile = Doc(
        client,
        "file:///work/r/info/Dockerfile",
        'FROM vllm/vllm-openai:v0.10.2\nCMD ["--model", "m"]\n',
    )
    await dockerfile.diagnostics()
    info = await document_info(client, dockerfile.uri)
    assert info["reason"] == "vLLM command line"
    assert info["vllmVersion"] == "0.10.2"
    assert "vllm/vllm-openai:v0.10.2" in info["versionSource"]
    dockerfile.close()
