"""Command lines in any host, over a real LSP session: diagnostics on the exact word (inside
quotes, inside a JSON value, on a continuation line, on a Triton model.json key), a quick fix
applied in the host's own syntax, and hover on flags and on values that come from
variables; a chart's values file through its template."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsp_support import (
    TIMEOUT,
    Doc,
    apply_text_edits,
    apply_workspace_edit,
    code_actions,
    encoding,
    hover_text,
    position_of,
)
from lsprotocol import types
from pytest_lsp import LanguageClient
from support import corpus_chart

pytestmark = pytest.mark.asyncio(loop_scope="session")

SCRIPT = (
    "#!/bin/bash\n"
    "# vLLM behind nohup, with a JSON value and a variable\n"
    "nohup vllm serve Qwen/Qwen3-8B \\\n"
    "  --swap-space 16 \\\n"
    "  --tensor-parallel-size $TP \\\n"
    "  --compilation-config '{\"encoder_cudagraph_token_budgets\": [0, 2048]}' \\\n"
    "  --port 8000 > server.log 2>&1 &\n"
    'echo "vllm serve --not-a-flag"\n'
)
MARKDOWN = (
    "# Serving\n\nRun `vllm serve --not-checked` or:\n\n"
    "```bash\n$ vllm serve Qwen/Qwen3-8B --max-num-seqs many\n```\n"
)
DOCKERFILE = 'FROM vllm/vllm-openai:{tag}\nCMD ["m", "--swap-space", "4"]\n'


def _text_of(doc: Doc, diagnostic: types.Diagnostic, enc: str) -> str:
    """The characters under a one-line range (these documents are ASCII: every encoding
    counts characters)."""
    start, end = diagnostic.range.start, diagnostic.range.end
    assert start.line == end.line and doc.text.isascii(), enc
    return doc.text.split("\n")[start.line][start.character : end.character]


async def test_shell_script_diagnostics_fix_and_hover(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/cl/serve.sh", SCRIPT)
    diagnostics = await doc.diagnostics()
    by_code = {d.code: d for d in diagnostics}
    assert set(by_code) == {"VC101", "VC301"}, [(d.code, d.message) for d in diagnostics]
    enc = encoding(client)
    assert _text_of(doc, by_code["VC101"], enc) == "--swap-space"
    assert by_code["VC101"].range.start.line == 3
    assert _text_of(doc, by_code["VC301"], enc) == "0"  # inside the single-quoted JSON
    # the preferred fix keeps the other budget, the quotes and the continuation
    budget = by_code["VC301"]
    actions = await code_actions(client, doc.uri, budget.range, [budget])
    [preferred] = [a for a in actions if a.is_preferred]
    assert preferred.edit is not None
    fixed = apply_workspace_edit(doc.text, preferred.edit, doc.uri, enc)
    assert "'{\"encoder_cudagraph_token_budgets\": [2048]}' \\\n" in fixed
    after = await doc.replace(fixed)
    assert [d.code for d in after] == ["VC101"]
    # removing the unknown flag takes its value and its continuation line
    [removal] = [
        a
        for a in await code_actions(client, doc.uri, after[0].range, after)
        if a.title.startswith("Remove")
    ]
    assert removal.edit is not None
    cleaned = apply_workspace_edit(fixed, removal.edit, doc.uri, enc)
    assert "--swap-space" not in cleaned and "Qwen/Qwen3-8B \\\n  --tensor-parallel" in cleaned
    assert await doc.replace(cleaned) == []
    # hover: the flag's documentation; the variable says where the value comes from
    flag = await hover_text(client, doc, "--tensor-parallel-size")
    assert flag is not None and "tensor" in flag.lower()
    variable = await hover_text(client, doc, "$TP")
    assert variable is not None and "value comes from `$TP`" in variable
    doc.close()


async def test_markdown_fences_only(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/cl/README.md", MARKDOWN)
    [diagnostic] = await doc.diagnostics()
    assert diagnostic.code == "VC201"
    assert _text_of(doc, diagnostic, encoding(client)) == "many"
    assert diagnostic.range.start.line == 5
    doc.close()


async def test_dockerfile_checked_against_its_image_release(client: LanguageClient) -> None:
    # `--swap-space` exists in 0.10.2 and is gone in 0.33: the image's tag decides
    doc = Doc(client, "file:///work/cl/Dockerfile", DOCKERFILE.format(tag="v0.10.2"))
    [note] = await doc.diagnostics()
    assert note.code == "VC120" and note.severity == types.DiagnosticSeverity.Information
    # a `#` after an instruction is no Dockerfile comment: "disable for this line" writes
    # a comment line of its own above the instruction
    assert isinstance(note.data, dict)
    disable = note.data["disable"]
    assert disable["newText"] == "# vllm-config: disable-next-line=VC120\n"
    assert disable["range"]["start"] == {"line": note.range.start.line, "character": 0}
    [diagnostic] = await doc.replace(DOCKERFILE.format(tag="v0.33.0"))
    assert diagnostic.code == "VC101"
    assert _text_of(doc, diagnostic, encoding(client)) == "--swap-space"
    doc.close()


async def test_triton_model_json_diagnostic_on_its_key_and_renamed_as_a_field(
    client: LanguageClient,
) -> None:
    text = (
        "{\n"
        '    "model": "facebook/opt-125m",\n'
        '    "gpu_memory_utilisation": 0.5,\n'
        '    "enforce_eager": true\n'
        "}\n"
    )
    doc = Doc(client, "file:///work/cl/vllm_model/1/model.json", text, language_id="json")
    [diagnostic] = await doc.diagnostics()
    enc = encoding(client)
    assert diagnostic.code == "VC101" and diagnostic.range.start.line == 2
    assert _text_of(doc, diagnostic, enc) == "gpu_memory_utilisation"  # inside the quotes
    actions = await code_actions(client, doc.uri, diagnostic.range, [diagnostic])
    [preferred] = [a for a in actions if a.is_preferred]
    assert preferred.edit is not None
    fixed = apply_workspace_edit(doc.text, preferred.edit, doc.uri, enc)
    assert '    "gpu_memory_utilization": 0.5,\n' in fixed
    assert await doc.replace(fixed) == []
    hover = await hover_text(client, doc, '"enforce_eager"', skip=3)
    assert hover is not None and "eager" in hover.lower()
    doc.close()


async def test_code_lens_shows_the_command_vllm_runs(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/cl/lens.sh", SCRIPT)
    await doc.diagnostics()
    lenses = await asyncio.wait_for(
        client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=doc.uri))
        ),
        TIMEOUT,
    )
    assert lenses is not None
    [lens] = lenses  # the `echo "vllm serve …"` line is no invocation
    assert lens.range.start.line == 2 and lens.command is not None
    assert lens.command.title == "vLLM 0.33.0: show the command vLLM refuses (2 errors)"
    shown = await asyncio.wait_for(
        client.workspace_execute_command_async(
            types.ExecuteCommandParams(
                command=lens.command.command, arguments=lens.command.arguments
            )
        ),
        TIMEOUT,
    )
    assert shown["argv"][:3] == ["Qwen/Qwen3-8B", "--swap-space", "16"]
    assert shown["text"].startswith("vllm serve Qwen/Qwen3-8B --swap-space 16")
    doc.close()


def _changes(edit: types.WorkspaceEdit) -> tuple[list[str], dict[str, list[types.TextEdit]]]:
    created, edits = [], {}
    for change in edit.document_changes or []:
        if isinstance(change, types.CreateFile):
            created.append(change.uri)
        else:
            assert isinstance(change, types.TextDocumentEdit)
            edits.setdefault(change.text_document.uri, []).extend(
                e for e in change.edits if isinstance(e, types.TextEdit)
            )
    return created, edits


async def test_move_flags_into_a_config_file_and_back(
    client: LanguageClient, tmp_path: Path
) -> None:
    caps = client.capabilities.workspace
    edit_caps = caps.workspace_edit if caps else None
    can_create = bool(
        edit_caps
        and edit_caps.document_changes
        and types.ResourceOperationKind.Create in (edit_caps.resource_operations or [])
    )
    script = (
        "vllm serve Qwen/Qwen3-8B \\\n"
        "  --max-model-len 8k \\\n"
        "  --enforce-eager \\\n"
        "  --port 8000 --gpu-memory-utilization 0.90 --max-num-seqs 010 \\\n"
        "  --tensor-parallel-size $TP\n"
    )
    uri = (tmp_path / "serve.sh").as_uri()
    doc = Doc(client, uri, script)
    before = await doc.diagnostics()
    where = types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
    )
    actions = await code_actions(client, uri, where, [], only=["refactor.move.vllm-config"])
    moves = [a for a in actions if a.kind == "refactor.move.vllm-config"]
    if not can_create:
        assert moves == []  # the client cannot create the file
        doc.close()
        return
    [move] = moves
    assert move.edit is not None
    created, edits = _changes(move.edit)
    [config_uri] = created
    assert config_uri.endswith("/serve.vllm.yaml")  # not `serve-serve.vllm.yaml`
    enc = encoding(client)
    config_text = apply_text_edits("", edits[config_uri], enc)
    # typed values; quoted only where YAML would read another value (`0.90` is 0.9,
    # `010` is 8 in YAML 1.1)
    assert config_text == (
        "max-model-len: 8k\nenforce-eager: true\nport: 8000\n"
        'gpu-memory-utilization: "0.90"\nmax-num-seqs: "010"\n'
    )
    moved = apply_text_edits(script, edits[uri], enc)
    # the variable stays on the command line: a config file cannot say `$TP`
    assert (
        moved == "vllm serve Qwen/Qwen3-8B \\\n"
        "  --config serve.vllm.yaml \\\n"
        "  --tensor-parallel-size $TP\n"
    )
    assert await doc.replace(moved) == before
    # and back: the file's flags inlined as vLLM builds them from it
    (tmp_path / "serve.vllm.yaml").write_text(config_text, encoding="utf-8")
    actions = await code_actions(client, uri, where, [], only=["refactor.inline.vllm-config"])
    [inline] = [a for a in actions if a.kind == "refactor.inline.vllm-config"]
    assert inline.edit is not None
    _created, back = _changes(inline.edit)
    inlined = apply_text_edits(moved, back[uri], enc)
    assert (
        inlined == "vllm serve Qwen/Qwen3-8B \\\n"
        "  --max-model-len 8k --enforce-eager --port 8000 --gpu-memory-utilization 0.90"
        " --max-num-seqs 010 \\\n"
        "  --tensor-parallel-size $TP\n"
    )
    doc.close()


@pytest.mark.parametrize(("name", "created"), [("deploy.sh", "deploy-serve.vllm.yaml")])
async def test_moving_flags_is_a_refactoring_not_a_quick_fix(
    client: LanguageClient, tmp_path: Path, name: str, created: str
) -> None:
    """Issue 34 item 7: the move sat in the quick-fix menu of every error line. It is a
    `refactor.move` action for a request that asks for refactorings; the quick-fix request
    an editor sends for a diagnostic (no `only`) does not get it."""
    uri = (tmp_path / name).as_uri()
    doc = Doc(client, uri, "vllm serve Qwen/Qwen3-8B --max-num-seqs many --port 8000\n")
    [diagnostic] = await doc.diagnostics()
    menu = await code_actions(client, uri, diagnostic.range, [diagnostic])
    assert menu and all(not (a.kind or "").startswith("refactor") for a in menu)
    asked = await code_actions(client, uri, diagnostic.range, [], only=["refactor"])
    caps = client.capabilities.workspace
    edit_caps = caps.workspace_edit if caps else None
    if (
        edit_caps
        and edit_caps.document_changes
        and types.ResourceOperationKind.Create in (edit_caps.resource_operations or [])
    ):
        [move] = [a for a in asked if a.kind == "refactor.move.vllm-config"]
        assert move.edit is not None
        created_uris, _edits = _changes(move.edit)
        assert [u.rsplit("/", 1)[-1] for u in created_uris] == [created]
    doc.close()


async def test_moving_flags_never_writes_into_an_existing_file(
    client: LanguageClient, tmp_path: Path
) -> None:
    """The target name was fixed (`<stem>.vllm.yaml`) and created with ignoreIfExists:
    an existing file got the flags prepended, shadowed by its own keys. A free name is
    picked, and the file is created strictly (an edit made stale by a new file fails)."""
    existing = tmp_path / "serve.vllm.yaml"
    existing.write_text("max-model-len: 4096\n", encoding="utf-8")
    uri = (tmp_path / "serve.sh").as_uri()
    doc = Doc(client, uri, "vllm serve Qwen/Qwen3-8B --max-model-len 8k\n")
    await doc.diagnostics()
    where = types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
    )
    actions = await code_actions(client, uri, where, [], only=["refactor.move.vllm-config"])
    for move in actions:
        assert move.edit is not None
        creates = [c for c in move.edit.document_changes or [] if isinstance(c, types.CreateFile)]
        assert [c.uri.rsplit("/", 1)[-1] for c in creates] == ["serve-2.vllm.yaml"]
        assert all(
            c.options is None or not (c.options.ignore_if_exists or c.options.overwrite)
            for c in creates
        )
        edited = {
            change.text_document.uri
            for change in move.edit.document_changes or []
            if isinstance(change, types.TextDocumentEdit)
        }
        assert existing.as_uri() not in edited
    assert existing.read_text(encoding="utf-8") == "max-model-len: 4096\n"
    doc.close()


@pytest.mark.parametrize(
    ("named", "content"),
    [
        ("../secret/hosts.yml", "max-model-len: 8k\n"),  # outside the workspace
        ("hosts.yml", "all:\n  hosts: {db1: {ansible_host: 10.0.0.5}}\n"),  # no vLLM keys
    ],
)
async def test_inline_reads_only_vllm_configs_in_the_workspace(
    client: LanguageClient, tmp_path: Path, named: str, content: str
) -> None:
    """ "Inline the --config file" read any path the document named (`../../secret/…`,
    absolute paths) and offered its content as flags."""
    work = tmp_path / "work"
    (tmp_path / "secret").mkdir()
    work.mkdir()
    (work / named).write_text(content, encoding="utf-8")
    uri = (work / "serve.sh").as_uri()
    doc = Doc(client, uri, f"vllm serve Qwen/Qwen3-8B --config {named}\n")
    await doc.diagnostics()
    where = types.Range(
        start=types.Position(line=0, character=30), end=types.Position(line=0, character=30)
    )
    actions = await code_actions(client, uri, where, [], only=["refactor.inline.vllm-config"])
    assert [a for a in actions if a.kind == "refactor.inline.vllm-config"] == []
    doc.close()


async def _completions(client: LanguageClient, doc: Doc, offset: int) -> list[types.CompletionItem]:
    cursor = position_of(doc.text, offset, encoding(client))
    result = await asyncio.wait_for(
        client.text_document_completion_async(
            types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=doc.uri), position=cursor
            )
        ),
        TIMEOUT,
    )
    return result.items if isinstance(result, types.CompletionList) else result or []


async def _labels_at_end(client: LanguageClient, doc: Doc) -> list[str]:
    """The completion labels the server offers at the document's end."""
    return [item.label for item in await _completions(client, doc, len(doc.text))]


async def test_completion_of_flags_and_choices_on_a_command_line(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/cl/typing.sh", "vllm serve m --port 1 \\\n  --max-mo")
    await doc.diagnostics()
    assert "--max-model-len" in await _labels_at_end(client, doc)
    await doc.replace("vllm serve m --port 1 \\\n  --dtype ")
    assert "bfloat16" in await _labels_at_end(client, doc)
    doc.close()


async def test_chart_values_checked_through_the_charts_template(
    client: LanguageClient, tmp_path: Path
) -> None:
    """A chart's values.yaml on disk: the template's command line with the values in it;
    a bad value on its values line, nothing of what the template wrote (its removed
    `--num-scheduler-steps` is the template's diagnostic)."""
    values = corpus_chart(tmp_path, {"maxModelLen: 512": "maxModelLen: abc"})
    doc = Doc(client, values.as_uri(), values.read_text())
    [diagnostic] = await doc.diagnostics()
    assert diagnostic.code == "VC201" and diagnostic.range.start.line == 48
    assert _text_of(doc, diagnostic, encoding(client)) == "abc"
    flag = await hover_text(client, doc, "tensorParallelSize: 1", len("tensorParallelSize: "))
    assert flag is not None and "tensor" in flag.lower()
    # between the values, nothing: the template's options are not in this document
    assert await hover_text(client, doc, "hpa:") is None
    await doc.replace(doc.text + "\nnote: --max-mo")
    assert "--max-model-len" not in await _labels_at_end(client, doc)
    lenses = await asyncio.wait_for(
        client.text_document_code_lens_async(
            types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=doc.uri))
        ),
        TIMEOUT,
    )
    assert [lens.range.start.line for lens in lenses or []] == [26]  # `id: google/gemma-7b-it`
    doc.close()


@pytest.mark.parametrize(
    ("typed", "expected", "absent"),
    [  # § is the cursor; the editor has closed the quotes and braces already
        ("--compilation-config '{\"cudagraph_m§\"}'", "cudagraph_mode", None),
        ("--compilation-config='{\"mode\": 3, §}'", '"cudagraph_mode": ', None),
        ('--compilation-config \'{"cudagraph_mode": "FULL_AND_P§"}\'', "FULL_AND_PIECEWISE", None),
        ('--speculative-config "{\\"num_spec§\\"}"', "num_speculative_tokens", None),
        ('--compilation-config "{§}"', None, '"cudagraph_mode": '),  # would need \" here
    ],
)
async def test_completion_inside_a_json_value_on_a_command_line(
    client: LanguageClient, typed: str, expected: str | None, absent: str | None
) -> None:
    marked = f"vllm serve m \\\n  {typed} \\\n  --port 8000\n"
    text = marked.replace("§", "")
    doc = Doc(client, "file:///work/cl/json-value.sh", text)
    await doc.diagnostics()
    items = await _completions(client, doc, marked.index("§"))
    inserted = [_inserted(item) for item in items]
    if expected is not None:
        assert any(text.startswith(expected) for text in inserted), inserted[:20]
    if absent is not None:
        assert not any(text.startswith(absent) for text in inserted), inserted[:20]
    if '"mode"' in typed:  # a field already set is offered last
        [mode] = [item for item in items if item.label == "mode"]
        assert (mode.sort_text or "").startswith("1")
    doc.close()


def _inserted(item: types.CompletionItem) -> str:
    edit = item.text_edit
    if isinstance(edit, (types.TextEdit, types.InsertReplaceEdit)):
        return edit.new_text
    return item.insert_text or item.label


TWO_SPELLINGS = (
    "#!/bin/bash\n"
    "# one flag in two spellings, and a field vLLM split in two\n"
    "vllm serve Qwen/Qwen3-8B \\\n"
    "  --tensor-parallel 2 \\\n"
    "  --tensor-parallel-size 2 \\\n"
    '  --compilation-config \'{"pass_config": {"enable_fusion": true}}\'\n'
)


async def _apply_titled(client: LanguageClient, doc: Doc, title: str) -> list[types.Diagnostic]:
    """Apply the quick fix called `title`, offered on one of the document's diagnostics."""
    for diagnostic in await doc.diagnostics():
        actions = await code_actions(client, doc.uri, diagnostic.range, [diagnostic])
        for action in actions:
            if action.title == title and action.edit is not None:
                fixed = apply_workspace_edit(doc.text, action.edit, doc.uri, encoding(client))
                return await doc.replace(fixed)
    raise AssertionError(f"no action {title!r}")


async def test_shell_script_merge_split_and_disable_for_the_file(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/cl/two-spellings.sh", TWO_SPELLINGS)
    assert {d.code for d in await doc.diagnostics()} == {"VC103", "VC108", "VC204"}
    merge = "Merge '--tensor-parallel' into the existing '--tensor-parallel-size' (same value)"
    after = await _apply_titled(client, doc, merge + " (VC103)")
    assert {d.code for d in after} == {"VC204"}
    split = "Split 'enable_fusion' into 'fuse_norm_quant' and 'fuse_act_quant' (VC204)"
    assert await _apply_titled(client, doc, split) == []
    assert doc.text == (
        "#!/bin/bash\n"
        "# one flag in two spellings, and a field vLLM split in two\n"
        "vllm serve Qwen/Qwen3-8B \\\n"
        "  --tensor-parallel-size 2 \\\n"
        "  --compilation-config "
        '\'{"pass_config": {"fuse_norm_quant": true, "fuse_act_quant": true}}\'\n'
    )
    # the file-wide comment goes below the `#!` line, where the shell reads it as a comment
    await doc.replace(TWO_SPELLINGS.replace("--tensor-parallel 2", "--swap-space 4"))
    assert await _apply_titled(client, doc, "Disable VC101 for this file") != []
    assert doc.text.startswith("#!/bin/bash\n# vllm-config: disable-file=VC101\n# one flag")
    doc.close()
