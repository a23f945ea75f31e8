"""Code actions: every quick fix applied to the text makes its diagnostic go away, with and
without `data` echoed back (Emacs); "Disable CODE for this line"; fixAll = `check --fix`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from lsp_support import Doc, apply_workspace_edit, code_actions, each_example, encoding
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

FIX_ALL = "source.fixAll.vllm-config"

#: Findings with fixes from several rules; emoji and CRLF keep the positions honest.
FIXABLE = (
    "model: Qwen/Qwen3-8B  # 😀\r\n"
    "tensor-parallel: 2\r\n"
    "enable-chunked-prefill: false\r\n"
    "served-model-name: [yes]\r\n"
    "swap-space: 16\r\n"
    "compilation-config:\r\n"
    "  level: 3\r\n"
    "gpu-memory-utilisation: 0.9\r\n"
)


def _key(diagnostic: types.Diagnostic) -> tuple[str, str]:
    return str(diagnostic.code), diagnostic.message


def _generic(action: types.CodeAction) -> bool:
    """The actions every diagnostic may get besides its own fixes."""
    return action.title.startswith(("Disable ", "Show documentation", "Fix all"))


def _unquoted(title: str) -> str:
    return title.translate(str.maketrans("", "", "`'\""))


async def test_every_quick_fix_removes_its_diagnostic(client: LanguageClient) -> None:
    applied = 0
    async for name, doc, original in each_example(client, "q", {"fixable.vllm.yaml": FIXABLE}):
        uri, text = doc.uri, doc.text
        for diagnostic in original:
            actions = await code_actions(client, uri, diagnostic.range, [diagnostic])
            fixes = [a for a in actions if a.kind == "quickfix" and not _generic(a)]
            fixes_in_data = diagnostic.data["fixes"] if isinstance(diagnostic.data, dict) else []
            assert len(fixes) == len(fixes_in_data), (name, diagnostic.code)
            # the fix's words first (editors sort and filter by them), the code last; plain
            # text: quotes where the rule wrote Markdown code spans
            titles = [_unquoted(f"{fix['title']} ({diagnostic.code})") for fix in fixes_in_data]
            assert [_unquoted(a.title) for a in fixes] == titles
            assert not any("`" in a.title for a in fixes)
            preferred = [a for a in fixes if a.is_preferred]
            assert len(preferred) <= 1
            for action in fixes:
                assert action.edit is not None
                fixed = apply_workspace_edit(text, action.edit, uri, encoding(client))
                after = await doc.replace(fixed)
                assert _key(diagnostic) not in map(_key, after), (name, action.title)
                applied += 1
                await doc.replace(text)  # back to the original for the next fix
    assert applied >= 15


#: Numbers vLLM reads as another one (VC112: YAML 1.1 forms; VC208: `10m` in JSON is ten
#: million, not ten minutes), beside comments that must stay.
MISREAD_NUMBERS = (
    "model: m  # the model 😀\nport: 0123  # octal\napi-key: 0123456\n"
    "tokenizer-revision: 0.30  # a tag\nserved-model-name: [1_000, 1:30]\n"
    "watchdog-config: '{\"timeout\": 10m}'  # ten minutes\n"
)
#: What the file meant, as vLLM should receive it after each fix.
MEANT = {"0123", "0123456", "0.30", "1_000", "1:30", '{"timeout": 600}'}


async def test_fixing_a_misread_number_passes_what_was_meant(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/n/numbers.vllm.yaml", MISREAD_NUMBERS)
    original = [d for d in await doc.diagnostics() if d.code in ("VC112", "VC208")]
    assert sorted(str(d.code) for d in original) == ["VC112"] * 5 + ["VC208"]
    received = set()
    for diagnostic in original:
        actions = await code_actions(client, doc.uri, diagnostic.range, [diagnostic])
        [fix] = [a for a in actions if a.kind == "quickfix" and not _generic(a)]
        assert fix.edit is not None
        fixed = apply_workspace_edit(MISREAD_NUMBERS, fix.edit, doc.uri, encoding(client))
        after = await doc.replace(fixed)
        assert _key(diagnostic) not in map(_key, after)
        assert [line.split("#")[1:] for line in fixed.splitlines()] == [
            line.split("#")[1:] for line in MISREAD_NUMBERS.splitlines()
        ]
        loaded = yaml.safe_load(fixed)  # still YAML
        before = yaml.safe_load(MISREAD_NUMBERS)
        for key, value in loaded.items():
            items = value if isinstance(value, list) else [value]
            was = before[key] if isinstance(before[key], list) else [before[key]]
            received |= {str(v) for v, old in zip(items, was, strict=True) if v != old}
        await doc.replace(MISREAD_NUMBERS)
    assert received == MEANT
    doc.close()


async def test_disable_for_this_line(client: LanguageClient) -> None:
    text = (
        "model: Qwen/Qwen3-8B\n"
        "swap-space: 16  # why not\n"
        "compilation-config: |\n"
        '  {"cudagraph_mm_encoder": true,\n'
        '   "encoder_cudagraph_token_budgets": [0, 2048]}\n'
    )
    uri = "file:///work/q/disable.vllm.yaml"
    doc = Doc(client, uri, text)
    for diagnostic in await doc.diagnostics():
        actions = await code_actions(client, uri, diagnostic.range, [diagnostic])
        [disable] = [a for a in actions if a.title == f"Disable {diagnostic.code} for this line"]
        assert disable.edit is not None
        fixed = apply_workspace_edit(doc.text, disable.edit, uri, encoding(client))
        after = await doc.replace(fixed)
        assert _key(diagnostic) not in map(_key, after)
        assert "VC008" not in {d.code for d in after}
    assert doc.text == (
        "model: Qwen/Qwen3-8B\n"
        "swap-space: 16  # why not  # vllm-config: disable=VC101\n"
        "compilation-config: |  # vllm-config: disable=VC301\n"
        '  {"cudagraph_mm_encoder": true,\n'
        '   "encoder_cudagraph_token_budgets": [0, 2048]}\n'
    )


async def test_suppression_comments(client: LanguageClient) -> None:
    text = (
        "# vllm-config: disable-file=VC110\n"
        "model: Qwen/Qwen3-8B\n"
        "swap-space: 16  # vllm-config: disable=VC101\n"
        "# vllm-config: disable-next-line=VC104\n"
        "enable-chunked-prefill: false\n"
        "disable-cascade-attn: true\n"
        "max-num-seqs: 8  # vllm-config: disable=VC201,VC999\n"
    )
    doc = Doc(client, "file:///work/q/suppressed.vllm.yaml", text)
    found = await doc.diagnostics()
    # VC201 reports nothing on its line, VC999 is no rule: the only diagnostics left
    assert [(d.code, d.range.start.line) for d in found] == [("VC008", 6), ("VC008", 6)]
    assert all(d.severity == types.DiagnosticSeverity.Information for d in found)
    assert any(d.tags and types.DiagnosticTag.Unnecessary in d.tags for d in found)
    # without the comments, the suppressed findings are there
    bare = "\n".join(line.split("#")[0] for line in text.splitlines()) + "\n"
    codes = {d.code for d in await doc.replace(bare)}
    assert {"VC101", "VC104", "VC110"} <= codes


async def test_fix_all_equals_check_fix(client: LanguageClient, tmp_path: Path) -> None:
    uri = "file:///work/q/fix-all.vllm.yaml"
    doc = Doc(client, uri, FIXABLE)
    diagnostics = await doc.diagnostics()
    whole = types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=99, character=0)
    )
    actions = await code_actions(client, uri, whole, [], only=[FIX_ALL])
    [fix_all] = actions
    assert fix_all.kind == FIX_ALL
    assert fix_all.edit is not None
    fixed = apply_workspace_edit(FIXABLE, fix_all.edit, uri, encoding(client))
    path = tmp_path / "fix-all.vllm.yaml"
    path.write_bytes(FIXABLE.encode("utf-8"))
    subprocess.run(
        [sys.executable, "-m", "vllm_config_lsp", "check", "--fix", str(path)],
        capture_output=True,
        check=False,
    )
    assert fixed == path.read_bytes().decode("utf-8")
    assert len(await doc.replace(fixed)) < len(diagnostics)
    # a source action is not offered as a quick fix, and a clean file has nothing to fix
    quick = await code_actions(client, uri, whole, [], only=["quickfix"])
    assert all(a.kind == "quickfix" for a in quick)
    await doc.replace("model: Qwen/Qwen3-8B\n")
    assert await code_actions(client, uri, whole, [], only=[FIX_ALL]) == []
