"""A kustomize patch in the editor (issue 28 item 6): the patch file, opened from its place
beside the kustomization (tests/sources/data/kustomize/SOURCES.md), gets the diagnostics of
its `args:` as the base's `python3 -m vllm.entrypoints.openai.api_server` receives them, and
the fix offered on one, applied, clears it while the patch still says `args:` only."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from lsp_support import Doc, apply_workspace_edit, code_actions, encoding
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

PATCH = Path(__file__).resolve().parents[1] / "sources/data/kustomize/overlay/patch-args.yaml"


async def test_patch_diagnostics_are_the_base_commands_and_the_fix_applies(
    client: LanguageClient,
) -> None:
    doc = Doc(client, PATCH.as_uri(), PATCH.read_text())
    try:
        found = await doc.diagnostics()
        # `--model` is the API server module's own flag: no `vllm serve` warning (VC384)
        assert [(d.code, d.range.start.line) for d in found] == [("VC103", 14)]
        (abbreviated,) = found
        actions = await code_actions(client, doc.uri, abbreviated.range, [abbreviated])
        titles = [a.title for a in actions]
        rename = next((a for a in actions if "--max-num-seqs" in a.title), None)
        assert rename is not None, titles
        assert rename.edit is not None
        after = await doc.replace(
            apply_workspace_edit(doc.text, rename.edit, doc.uri, encoding(client))
        )
        assert after == []
        container = yaml.safe_load(doc.text)["spec"]["template"]["spec"]["containers"][0]
        assert set(container) == {"name", "args"}
        assert container["args"][4] == "--max-num-seqs"
    finally:
        doc.close()
