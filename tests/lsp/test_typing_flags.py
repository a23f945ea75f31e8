"""Completion opens by itself while a flag is typed, on every host (issue 34, item 3).

VS Code's quick suggestions stay off in what its grammars call strings (`editor.
quickSuggestions.strings` is off by default outside YAML), and shell arguments, a
Dockerfile's `CMD`, a Markdown fence's lines are strings to them: letters alone never open
the list there. What opens it is a trigger character, and the `-` that starts every flag is
one. Each case types `--max-n` key by key as VS Code sends it: each `-` a request with
triggerKind TriggerCharacter, each letter one with triggerKind Invoked (where quick
suggestions run); the list answered at a `-` must hold `--max-num-seqs` with a range from the
flag's first `-` to the cursor (VS Code filters the text of that range as the user goes on,
with isIncomplete false it asks no more), and a YAML list item's own `-` opens nothing."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest
from lsp_support import SERVER_CAPABILITIES, TIMEOUT, Doc, encoding, offset_at, position_of
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")


@dataclass(frozen=True)
class Host:
    name: str
    uri: str
    language_id: str
    text: str  # `§` where `--max-n` is typed


HOSTS = (
    Host(
        "shell continuation line",
        "file:///work/typing/serve.sh",
        "shellscript",
        "#!/bin/sh\nvllm serve Qwen/Qwen3-8B \\\n  --dtype auto \\\n  §\n",
    ),
    Host(
        "Dockerfile shell form",
        "file:///work/typing/Dockerfile",
        "dockerfile",
        "FROM vllm/vllm-openai:v0.33.0\nENTRYPOINT vllm serve Qwen/Qwen3-8B \\\n    §\n",
    ),
    Host(
        "Dockerfile exec form",
        "file:///work/typing/exec/Dockerfile",
        "dockerfile",
        'FROM vllm/vllm-openai:v0.33.0\nCMD ["Qwen/Qwen3-8B", "§"]\n',
    ),
    Host(
        "Markdown bash fence",
        "file:///work/typing/recipe.md",
        "markdown",
        "# Serve\n\n```bash\nvllm serve Qwen/Qwen3-8B \\\n  §\n```\n",
    ),
    Host(
        "Kubernetes args",
        "file:///work/typing/deploy.yaml",
        "yaml",
        "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - name: vllm\n"
        "      image: vllm/vllm-openai:v0.33.0\n      args:\n        - Qwen/Qwen3-8B\n"
        "        - §\n",
    ),
    Host(
        "compose command",
        "file:///work/typing/compose.yaml",
        "dockercompose",
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.33.0\n    command: Qwen/Qwen3-8B §\n",
    ),
)


async def _complete(
    client: LanguageClient, doc: Doc, offset: int, trigger: str | None
) -> types.CompletionList | None:
    context = (
        types.CompletionContext(
            trigger_kind=types.CompletionTriggerKind.TriggerCharacter, trigger_character=trigger
        )
        if trigger
        else types.CompletionContext(trigger_kind=types.CompletionTriggerKind.Invoked)
    )
    result = await asyncio.wait_for(
        client.text_document_completion_async(
            types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=doc.uri),
                position=position_of(doc.text, offset, encoding(client)),
                context=context,
            )
        ),
        TIMEOUT,
    )
    assert result is None or isinstance(result, types.CompletionList)
    return result


def _item(result: types.CompletionList | None, label: str) -> types.CompletionItem | None:
    return next((i for i in (result.items if result else []) if i.label == label), None)


def test_the_server_triggers_on_the_flag_dash(client: LanguageClient) -> None:
    options = SERVER_CAPABILITIES[id(client)].completion_provider
    assert options is not None and "-" in (options.trigger_characters or [])


@pytest.mark.parametrize("host", HOSTS, ids=[h.name for h in HOSTS])
async def test_typing_a_flag_opens_completion(client: LanguageClient, host: Host) -> None:
    at = host.text.index("§")
    doc = Doc(client, host.uri, host.text.replace("§", ""), language_id=host.language_id)
    await doc.diagnostics()
    typed = "--max-n"
    opened = []
    for count in range(1, len(typed) + 1):
        text = host.text.replace("§", typed[:count])
        await doc.replace(text)
        key = typed[count - 1]
        result = await _complete(client, doc, at + count, "-" if key == "-" else None)
        item = _item(result, "--max-num-seqs")
        if key == "-":
            assert item is not None, f"{host.name}: nothing at {typed[:count]!r}"
            assert result is not None and result.is_incomplete is False
            edit = item.text_edit
            assert isinstance(edit, types.TextEdit)
            start = offset_at(text, edit.range.start, encoding(client))
            assert text[start : at + count] == typed[:count]  # what VS Code filters with
            opened.append(typed[:count])
        elif item is not None:  # where quick suggestions run, letters keep it open
            assert item.filter_text is not None and item.filter_text.startswith(typed[:count])
    assert opened == ["-", "--", "--max-"]
    doc.close()


async def test_a_list_items_dash_opens_nothing(client: LanguageClient) -> None:
    text = (
        "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - name: vllm\n"
        "      image: vllm/vllm-openai:v0.33.0\n      args:\n        - Qwen/Qwen3-8B\n"
        "        -\n"
    )
    doc = Doc(client, "file:///work/typing/marker/deploy.yaml", text)
    await doc.diagnostics()
    assert await _complete(client, doc, len(text) - 1, "-") is None
    # the flag's own dash after it does
    flagged = text[:-1] + " -\n"
    await doc.replace(flagged)
    assert _item(await _complete(client, doc, len(flagged) - 1, "-"), "--max-num-seqs")
    doc.close()
