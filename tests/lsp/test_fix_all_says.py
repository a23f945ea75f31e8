""" "Fix all" says what it does and what it leaves (issue 34, item 2): on a Deployment with
four problems it fixes the one with a safe fix; its title says so and that two need a
decision (the `--swap-space` removal is a one-click quick fix, not a safe one), and applying
it, as the source action or the palette's command, says the count and what is left."""

from __future__ import annotations

import asyncio

import pytest
from lsp_support import (
    APPLIED,
    TIMEOUT,
    Doc,
    apply_workspace_edit,
    code_actions,
    deployment,
    encoding,
    wait_until,
)
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Four problems: VC384 and VC103 have safe fixes, VC101's removal and VC203's values need a
#: decision.
ARGS = ("--model", "Qwen/Qwen3-8B", "--swap-space", '"4"', "--gpu-memory-utilization", '"1.5"')
MANIFEST = deployment(
    "vllm/vllm-openai:v0.33.0",
    "".join(f"\n            - {arg}" for arg in (*ARGS, "--max-model", '"8192"')),
)
WHOLE = types.Range(
    start=types.Position(line=0, character=0), end=types.Position(line=99, character=0)
)


async def test_fix_all_names_what_it_does_and_leaves(client: LanguageClient) -> None:
    uri = "file:///work/fix-all-says/deploy.yaml"
    doc = Doc(client, uri, MANIFEST)
    found = await doc.diagnostics()
    codes = sorted(str(d.code) for d in found)
    assert codes == ["VC101", "VC103", "VC203", "VC384"]
    [action] = await code_actions(client, uri, WHOLE, [], only=["source.fixAll.vllm-config"])
    assert action.title == (
        "Fix all safely: 2 of 4 vLLM Config problems: Give the model as the positional argument; "
        "Rename '--max-model' to '--max-model-len' (2 need a decision)"
    )
    assert action.command is not None and action.command.command == "vllmConfig.fixAllReport"
    uri_arg, report = action.command.arguments or ["", ""]
    assert uri_arg == uri
    assert report == (
        "vLLM Config: fixed 2 of 4 problems. 2 need a decision, each with its quick fix on the "
        "line: Remove '--swap-space 4' (VC101); Set '1', the nearest valid value (VC203)."
    )
    fixed = apply_workspace_edit(MANIFEST, action.edit, uri, encoding(client))  # type: ignore[arg-type]
    assert "--max-model-len" in fixed and "--swap-space" in fixed

    # the editor runs the action's command after its edit: the message, once
    client.messages.clear()
    for _ in range(2):
        await asyncio.wait_for(
            client.workspace_execute_command_async(
                types.ExecuteCommandParams(command=action.command.command, arguments=[uri, report])
            ),
            TIMEOUT,
        )
    shown = await wait_until(lambda: [m for m in client.messages if "fixed" in m.message])
    await asyncio.sleep(0.1)
    assert len([m for m in client.messages if "fixed" in m.message]) == 1
    assert shown[0].message.startswith("vLLM Config: fixed ")
    assert "(VC101)" in shown[0].message

    # the palette's command: the edit, then the same message (said once already: logged)
    applied = APPLIED.setdefault(id(client), [])
    done = await asyncio.wait_for(
        client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="vllmConfig.fixAll", arguments=[uri])
        ),
        TIMEOUT,
    )
    assert done is True
    assert apply_workspace_edit(MANIFEST, applied[-1], uri, encoding(client)) == fixed
    doc.close()


async def test_nothing_safe_to_fix_is_said(client: LanguageClient) -> None:
    uri = "file:///work/fix-all-says/only-decisions.vllm.yaml"
    doc = Doc(client, uri, "model: m\nswap-space: 4\n")
    assert [d.code for d in await doc.diagnostics()] == ["VC101"]
    client.messages.clear()
    done = await asyncio.wait_for(
        client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="vllmConfig.fixAll", arguments=[uri])
        ),
        TIMEOUT,
    )
    assert done is False
    [shown] = await wait_until(lambda: client.messages)
    assert shown.message == (
        "vLLM Config: nothing to fix by itself here: the problem has no safe fix."
    )
    doc.close()
