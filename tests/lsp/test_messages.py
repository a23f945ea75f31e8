"""Diagnostic text as editors show it: plain text (VS Code renders no Markdown in the
Problems panel or the lightbulb), enum members by name, and the exact releases that refuse
a key that a newer release removes (a key can come back: vLLM 0.33 accepts
`disable-log-requests` again). The CLI keeps the rules' backticks (see `lsp.plain_text`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import Doc, code_actions, each_example
from pytest_lsp import LanguageClient
from support import cli

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Every message here quotes names: a did-you-mean, a removed field, a renamed key, an enum.
QUOTING = (
    "model: Qwen/Qwen3-8B\n"
    "speculative-configs: {}\n"
    "compilation-config:\n"
    "  level: 3\n"
    "  cudagraph_mode: 7\n"
    "  pass_config:\n"
    "    enable_fusion: true\n"
)
CUDAGRAPH_VALUES = "Input should be 0, 1, 2, (2, 0) or (2, 1)"
CUDAGRAPH_NAMES = "NONE, PIECEWISE, FULL, FULL_DECODE_ONLY or FULL_AND_PIECEWISE"

#: Checked against 0.9: `disable-log-requests` is gone in 0.17-0.32 only, `swap-space` for good.
UPGRADE = (
    "# vllm-config: version=0.9\nmodel: Qwen/Qwen3-8B\ndisable-log-requests: true\nswap-space: 4\n"
)


async def test_no_markdown_in_diagnostics_or_titles(client: LanguageClient) -> None:
    seen = 0
    async for name, doc, diagnostics in each_example(client, "m", {"quoting.vllm.yaml": QUOTING}):
        for diagnostic in diagnostics:
            assert "`" not in diagnostic.message, (name, diagnostic.message)
            actions = await code_actions(client, doc.uri, diagnostic.range, [diagnostic])
            assert all("`" not in action.title for action in actions), name
            seen += 1
    assert seen >= 15
    doc = Doc(client, "file:///work/m/quoted.vllm.yaml", QUOTING)
    messages = [d.message for d in await doc.diagnostics()]
    assert any("did you mean 'speculative-config:'?" in m for m in messages), messages
    assert any("'compilation-config.level' is not a field" in m for m in messages), messages
    doc.close()


async def test_enum_members_by_name(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/m/enum.vllm.yaml", QUOTING)
    [message] = [d.message for d in await doc.diagnostics() if d.code == "VC206"]
    # pydantic's own words (a tuple value is a tuple), then the names a YAML file writes
    assert message.startswith(f"{CUDAGRAPH_VALUES}, or a name: {CUDAGRAPH_NAMES} "), message
    doc.close()


async def test_upgrade_names_the_refusing_releases(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/m/upgrade.vllm.yaml", UPGRADE)
    notes = {d.range.start.line: d.message for d in await doc.diagnostics() if d.code == "VC120"}
    assert "refused at start by vLLM 0.17 to 0.32:" in notes[2], notes
    assert "vLLM 0.33 accepts it again" in notes[2]
    assert "refused at start by vLLM 0.18 to 0.33 (the newest known):" in notes[3], notes
    assert all("checked against vLLM 0.9.2, which accepts it" in m for m in notes.values())
    doc.close()


def test_cli_says_the_same(tmp_path: Path) -> None:
    quoting = tmp_path / "quoting.vllm.yaml"
    quoting.write_text("# vllm-config: version=0.33\n" + QUOTING, encoding="utf-8")
    upgrade = tmp_path / "upgrade.vllm.yaml"
    upgrade.write_text(UPGRADE, encoding="utf-8")
    out = cli("check", str(quoting), str(upgrade)).stdout
    assert f"VC206 {CUDAGRAPH_VALUES}, or a name: {CUDAGRAPH_NAMES} (`" in out, out
    assert "`disable-log-requests` is refused at start by vLLM 0.17 to 0.32:" in out, out
    assert "`swap-space` is refused at start by vLLM 0.18 to 0.33 (the newest known):" in out
