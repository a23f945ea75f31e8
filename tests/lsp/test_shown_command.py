""" "Show the command vLLM runs" (issue 34, item 6): the answer holds a read-only document
(one argument per line with where it came from, the release and why, what vLLM refuses in
it) that VS Code opens without a toast; other editors get a message that never says "runs"
for a command vLLM refuses."""

from __future__ import annotations

import asyncio

import pytest
from lsp_support import TIMEOUT, Doc, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

SCRIPT = """\
#!/bin/sh
docker run --gpus all vllm/vllm-openai:v0.33.0 \\
  --model Qwen/Qwen3-8B \\
  --swap-space 4 \\
  --max-num-seqs 8
docker run --gpus all vllm/vllm-openai:v0.33.0 --model Qwen/Qwen3-8B --max-num-seqs 8
"""


async def _lenses(client: LanguageClient, doc: Doc) -> list[types.CodeLens]:
    lenses = await asyncio.wait_for(
        client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=doc.uri))
        ),
        TIMEOUT,
    )
    return list(lenses or [])


async def _run(client: LanguageClient, command: types.Command, *extra: str) -> dict:  # type: ignore[type-arg]
    shown = await asyncio.wait_for(
        client.workspace_execute_command_async(
            types.ExecuteCommandParams(
                command=command.command, arguments=[*(command.arguments or []), *extra]
            )
        ),
        TIMEOUT,
    )
    assert isinstance(shown, dict)
    return shown


async def test_the_shown_command_is_a_document(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/shown/serve.sh", SCRIPT, language_id="shellscript")
    await doc.diagnostics()
    refused, runs = await _lenses(client, doc)
    assert refused.command is not None and runs.command is not None
    assert refused.command.title == "vLLM 0.33.0: show the command vLLM refuses (1 error)"
    assert runs.command.title == "vLLM 0.33.0: show the command vLLM runs"

    client.messages.clear()
    shown = await _run(client, refused.command, "document")
    assert shown["refused"] == [
        "VC101 unrecognized arguments: --swap-space: removed in vLLM 0.18; CPU swap space for "
        "preemption is gone; delete it"
    ]
    assert shown["origins"][:4] == ["line 3", "line 3", "line 4", "line 4"]
    lines = shown["document"].splitlines()
    assert lines[:5] == [
        "vLLM 0.33.0 refuses to start with this command (1 error):",
        "  " + shown["refused"][0],
        "",
        "Release: vLLM 0.33.0, from the image vllm/vllm-openai:v0.33.0",
        "From: serve.sh, line 2 (shell)",
    ]
    assert lines[6:10] == [
        "Arguments, one per line, as vLLM receives them, and where each came from:",
        "  vllm serve      the entry point",
        "  --model         line 3",
        "  Qwen/Qwen3-8B   line 3",
    ]
    assert "  --swap-space    line 4" in lines
    assert lines[-2:] == ["As one line:", shown["text"]]
    await asyncio.sleep(0.1)
    assert not client.messages  # shown as a document: no toast

    # another editor's click: a message, which says "refuses" for the refused command
    await _run(client, refused.command)
    [said] = await wait_until(lambda: client.messages)
    assert said.message.startswith("vLLM 0.33.0 refuses (VC101 unrecognized arguments")
    assert "runs" not in said.message
    client.messages.clear()
    await _run(client, runs.command)
    [said] = await wait_until(lambda: client.messages)
    assert said.message.startswith("vLLM 0.33.0 runs: vllm serve --model Qwen/Qwen3-8B")
    clean = await _run(client, runs.command, "document")
    assert clean["refused"] == []
    assert clean["document"].startswith("The command vLLM 0.33.0 runs:\n\nRelease: ")
    doc.close()
