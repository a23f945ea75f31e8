"""The quick fixes of issue 17, each applied in a real session: the finding goes, the file
still parses, and everything else (comments, layout) stays as it was.

A rename into a key the file already has merges or is not offered (a duplicate would be
VC004 or VC108); a field vLLM split in two is split; "Disable CODE for this file"; "Fix all
vLLM Config problems" in the lightbulb and as the `vllmConfig.fixAll` command; "Show
documentation for CODE" runs the client's `vllmConfig.showRuleDocs`, and every
`codeDescription` link names a page of docs/rules/.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from lsp_support import (
    APPLIED,
    TIMEOUT,
    Doc,
    apply_workspace_edit,
    code_actions,
    each_example,
    encoding,
)
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

REPO = Path(__file__).resolve().parents[2]
SHOW_RULE_DOCS = "vllmConfig.showRuleDocs"
FIX_ALL_COMMAND = "vllmConfig.fixAll"
#: How the fix-all action's title starts (it goes on with what it fixes and leaves).
FIX_ALL = "Fix all "
#: Codes a fix must not leave behind: a key written twice.
TWICE = {"VC004", "VC108"}


async def _actions(
    client: LanguageClient, doc: Doc, diagnostic: types.Diagnostic
) -> list[types.CodeAction]:
    return await code_actions(client, doc.uri, diagnostic.range, [diagnostic])


async def _docs(
    client: LanguageClient, doc: Doc, diagnostic: types.Diagnostic
) -> list[types.CodeAction]:
    """The actions that run a command (a quick fix is an edit)."""
    actions = await _actions(client, doc, diagnostic)
    return [a for a in actions if a.kind == "quickfix" and a.command is not None]


async def _apply(
    client: LanguageClient, doc: Doc, code: str, title: str, line: int | None = None
) -> list[types.Diagnostic]:
    """Apply the action `title` of the (first) `code` diagnostic on `line`; the new ones."""
    [diagnostic, *_] = [
        d
        for d in await doc.diagnostics()
        if d.code == code and (line is None or d.range.start.line == line)
    ]
    [action] = [a for a in await _actions(client, doc, diagnostic) if a.title == title]
    assert action.edit is not None, title
    return await doc.replace(apply_workspace_edit(doc.text, action.edit, doc.uri, encoding(client)))


MERGEABLE = (
    "# served by the staging box\n"
    "model: Qwen/Qwen3-8B\n"
    "tensor-parallel: 2  # abbreviated\n"
    "tensor-parallel-size: 2\n"
    "speculative-configs:\n"
    "  model: Qwen/Qwen3-0.6B  # the draft\n"
    "  num_speculative_tokens: 2\n"
    "speculative-config:\n"
    "    num_speculative_tokens: 2\n"
    "    method: draft_model\n"
    "compilation-config:\n"
    "  level: 3\n"
    "  mode: 3  # same\n"
)


async def test_a_rename_into_an_existing_key_merges(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/f/merge.vllm.yaml", MERGEABLE)
    after = await _apply(
        client,
        doc,
        "VC103",
        "Merge 'tensor-parallel' into the existing 'tensor-parallel-size' (same value) (VC103)",
    )
    assert "VC103" not in {d.code for d in after} and not TWICE & {d.code for d in after}
    after = await _apply(
        client,
        doc,
        "VC101",
        "Merge 'speculative-configs' into the existing 'speculative-config' (VC101)",
    )
    after = await _apply(
        client, doc, "VC204", "Merge 'level' into the existing 'mode' (same value) (VC204)"
    )
    assert not {"VC101", "VC204"} & {d.code for d in after}
    assert doc.text == (
        "# served by the staging box\n"
        "model: Qwen/Qwen3-8B\n"
        "tensor-parallel-size: 2\n"
        "speculative-config:\n"
        "    num_speculative_tokens: 2\n"
        "    method: draft_model\n"
        "    model: Qwen/Qwen3-0.6B  # the draft\n"
        "compilation-config:\n"
        "  mode: 3  # same\n"
    )
    doc.close()


async def test_no_rename_where_the_values_disagree(client: LanguageClient) -> None:
    text = (
        "model: Qwen/Qwen3-8B\n"
        "max-num-seq: 8\n"
        "max-num-seqs: 16\n"
        "speculative-configs: {model: Qwen/Qwen3-0.6B, num_speculative_tokens: 3}\n"
        "speculative-config: {model: Qwen/Qwen3-0.6B, num_speculative_tokens: 2}\n"
        "compilation-config:\n"
        "  level: 3\n"
        "  mode: 2\n"
    )
    doc = Doc(client, "file:///work/f/disagree.vllm.yaml", text)
    diagnostics = await doc.diagnostics()
    assert {"VC101", "VC103", "VC204"} <= {d.code for d in diagnostics}
    twice = sum(d.code in TWICE for d in diagnostics)  # VC108: max-num-seq(s)
    for diagnostic in diagnostics:
        for action in await _actions(client, doc, diagnostic):
            assert not action.title.startswith(("Rename", "Merge")), action.title
            if action.edit is not None:  # nothing offered writes a key twice more
                fixed = apply_workspace_edit(text, action.edit, doc.uri, encoding(client))
                after = await doc.replace(fixed)
                assert sum(d.code in TWICE for d in after) <= twice, action.title
                await doc.replace(text)
    doc.close()


async def test_a_split_field_is_split(client: LanguageClient) -> None:
    text = (
        "model: Qwen/Qwen3-8B\n"
        "compilation-config:\n"
        "  pass_config:\n"
        "    enable_fusion: true  # faster\n"
        "    enable_noop: true\n"
        'kv-transfer-config: {"kv_connector": "x"}\n'
    )
    doc = Doc(client, "file:///work/f/split.vllm.yaml", text)
    title = "Split 'enable_fusion' into 'fuse_norm_quant' and 'fuse_act_quant' (VC204)"
    after = await _apply(client, doc, "VC204", title, line=3)
    assert [d.range.start.line for d in after if d.code == "VC204"] == [5]  # enable_noop
    assert doc.text == text.replace(
        "    enable_fusion: true  # faster\n",
        "    fuse_norm_quant: true  # faster\n    fuse_act_quant: true\n",
    )
    # a JSON string and a flow mapping alike
    for value in (
        """'{"pass_config": {"enable_fusion": true}}'""",
        "{pass_config: {enable_fusion: 0}}",
    ):
        await doc.replace(f"model: Qwen/Qwen3-8B\ncompilation-config: {value}\n")
        after = await _apply(client, doc, "VC204", title)
        assert "VC204" not in {d.code for d in after}
        yaml.safe_load(doc.text)
        assert "fuse_norm_quant" in doc.text and "fuse_act_quant" in doc.text
    doc.close()


async def test_disable_for_this_file(client: LanguageClient) -> None:
    text = (
        "# vllm-config: version=0.17\n"
        "model: Qwen/Qwen3-8B\n"
        "swap-space: 4  # why not\n"
        "enable-chunked-prefill: false\n"
    )
    doc = Doc(client, "file:///work/f/disable-file.vllm.yaml", text)
    before = await doc.diagnostics()
    assert {d.code for d in before} == {"VC120", "VC104"}
    for code in ("VC120", "VC104"):
        after = await _apply(client, doc, code, f"Disable {code} for this file")
        assert code not in {d.code for d in after} and "VC008" not in {d.code for d in after}
    # the items join the marker comment: its `version=` still counts (VC120 is 0.17's)
    assert doc.text == (
        "# vllm-config: version=0.17 disable-file=VC120,VC104\n"
        "model: Qwen/Qwen3-8B\n"
        "swap-space: 4  # why not\n"
        "enable-chunked-prefill: false\n"
    )
    assert await doc.replace(doc.text.replace(",VC104", "")) != []
    # no marker: a comment line at the top
    await doc.replace("model: Qwen/Qwen3-8B\r\nswap-space: 4\r\n")
    assert await _apply(client, doc, "VC101", "Disable VC101 for this file") == []
    assert (
        doc.text == "# vllm-config: disable-file=VC101\r\nmodel: Qwen/Qwen3-8B\r\nswap-space: 4\r\n"
    )
    doc.close()


FIXABLE = (
    "model: Qwen/Qwen3-8B  # the target\n"
    "tensor-parallel: 2\n"
    "served-model-name: [yes]\n"
    "compilation-config:\n"
    "  level: 3\n"
)


async def test_fix_all_in_the_lightbulb_and_as_a_command(
    client: LanguageClient, tmp_path: Path
) -> None:
    uri = "file:///work/f/fix-all.vllm.yaml"
    doc = Doc(client, uri, FIXABLE)
    diagnostics = await doc.diagnostics()
    path = tmp_path / "fix-all.vllm.yaml"
    path.write_text(FIXABLE, encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "vllm_config_lsp", "check", "--fix", str(path)],
        capture_output=True,
        check=False,
    )
    expected = path.read_text(encoding="utf-8")
    assert expected != FIXABLE
    for diagnostic in diagnostics:  # on each diagnostic, fixable or not
        actions = await _actions(client, doc, diagnostic)
        [fix_all] = [a for a in actions if a.title.startswith(FIX_ALL) and a.kind == "quickfix"]
        assert fix_all.edit is not None
        assert apply_workspace_edit(FIXABLE, fix_all.edit, uri, encoding(client)) == expected
    # the command palette's command: the server asks the editor to apply the same edit
    applied = APPLIED.setdefault(id(client), [])
    done = await asyncio.wait_for(
        client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=FIX_ALL_COMMAND, arguments=[uri])
        ),
        TIMEOUT,
    )
    assert done is True
    assert apply_workspace_edit(FIXABLE, applied[-1], uri, encoding(client)) == expected
    # one fixable problem: its own fix is the whole story
    for single in await doc.replace("model: Qwen/Qwen3-8B\ntensor-parallel: 2\n"):
        actions = await _actions(client, doc, single)
        assert not [a for a in actions if a.title.startswith(FIX_ALL) and a.kind == "quickfix"]
    doc.close()


async def test_documentation_action_and_links(client: LanguageClient) -> None:
    # the address the project declares (tomllib is Python 3.11+; the line is plain)
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    [repository] = re.findall(r'^Repository = "(.+)"$', pyproject, re.MULTILINE)
    pages = repository + "/blob/main/"
    linked = 0
    extra = {"merge.vllm.yaml": MERGEABLE, "fixable.vllm.yaml": FIXABLE}
    async for name, doc, diagnostics in each_example(client, "g", extra):
        for diagnostic in diagnostics:
            assert diagnostic.code_description is not None
            href = diagnostic.code_description.href
            assert href.startswith(pages), href
            assert (REPO / href[len(pages) :]).is_file(), href
            assert href.endswith(f"docs/rules/{diagnostic.code}.md")
            docs = [
                (a.title, a.command.command, list(a.command.arguments or ()))
                for a in await _docs(client, doc, diagnostic)
                if a.command is not None and a.edit is None  # not Fix all's report
            ]
            title = f"Show documentation for {diagnostic.code}"
            assert docs == [(title, SHOW_RULE_DOCS, [diagnostic.code])], name
            linked += 1
    assert linked >= 15
    # an internal error (here: a file too large to check) has no page and gets no link
    doc = Doc(client, "file:///work/g/huge.vllm.yaml", "model: m\n" + "#" * 2_000_001)
    [internal] = await doc.diagnostics()
    assert internal.code == "VC000" and internal.code_description is None
    assert await _docs(client, doc, internal) == []
    doc.close()
