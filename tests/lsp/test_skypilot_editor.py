"""A SkyPilot task in an LSP session: the `envs:` a task sets are checked where they are
written (a misspelled `VLLM_*` name, a boolean written `true`), and the quick fixes apply
in the editor; the accelerators reach the hardware rules.

The task is skypilot-org/skypilot `llm/vllm/vllm.sky.yaml` (246e12ccab0e, cited in
tests/sources/data/not-config/SOURCES.md) with two settings added to its `envs:`.
"""

from __future__ import annotations

import pytest
from lsp_support import Doc, apply_workspace_edit, code_actions, encoding
from pytest_lsp import LanguageClient
from support import REPO

pytestmark = pytest.mark.asyncio(loop_scope="session")

TASK = (
    REPO / "tests" / "sources" / "data" / "not-config" / "skypilot" / "skypilot" / "vllm.sky.yaml"
)
NAME = "  MODEL_NAME: meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8"


async def test_skypilot_envs_diagnostics_and_fixes(client: LanguageClient) -> None:
    real = TASK.read_text(encoding="utf-8")
    assert NAME in real
    text = real.replace(
        NAME, NAME + '\n  VLLM_LOGGING_LEVL: DEBUG\n  VLLM_USE_DEEP_GEMM: "true"', 1
    )
    doc = Doc(client, "file:///work/sky/vllm.sky.yaml", text)
    diagnostics = await doc.diagnostics()
    codes = {d.code for d in diagnostics}
    assert {"VC240", "VC241"} <= codes, [(d.code, d.message) for d in diagnostics]
    assert [d.code for d in diagnostics if d.severity == 1] == ["VC241"]
    for code, title, expected in (
        ("VC240", "Rename to 'VLLM_LOGGING_LEVEL' (VC240)", "  VLLM_LOGGING_LEVEL: DEBUG\n"),
        ("VC241", "Write '1' (VC241)", '  VLLM_USE_DEEP_GEMM: "1"  # Replace'),
    ):
        [diagnostic] = [d for d in diagnostics if d.code == code]
        actions = await code_actions(client, doc.uri, diagnostic.range, [diagnostic])
        chosen = [a for a in actions if a.title == title]
        assert len(chosen) == 1, [a.title for a in actions]
        [action] = chosen
        assert action.edit is not None
        diagnostics = await doc.replace(
            apply_workspace_edit(doc.text, action.edit, doc.uri, encoding(client))
        )
        assert expected in doc.text
        assert code not in {d.code for d in diagnostics}
    doc.close()


async def test_skypilot_accelerators_reach_the_hardware_rules(client: LanguageClient) -> None:
    """`accelerators: T4:1` is the target: bf16 is refused on it (VC701), as with `--gpu T4`."""
    text = (
        "resources:\n  accelerators: T4:1\nenvs:\n  MODEL_NAME: Qwen/Qwen2.5-7B-Instruct\n"
        "run: |\n  vllm serve $MODEL_NAME --dtype bfloat16\n"
    )
    doc = Doc(client, "file:///work/sky/t4.sky.yaml", text)
    diagnostics = await doc.diagnostics()
    [bf16] = [d for d in diagnostics if d.code == "VC701"]
    assert "T4" in bf16.message and bf16.range.start.line == 5
    doc.close()
