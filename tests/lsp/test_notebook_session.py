"""An editor session on a Jupyter notebook opened as text (issue 28: hosts): its cells'
starts get diagnostics where the flags are written inside the JSON, and a quick fix applied
leaves a notebook `json.loads` reads, with the finding gone. One code cell sent on its own
(VS Code's notebook cell documents: `python` under the `.ipynb` path) reads `!` lines as
shell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsp_support import Doc, apply_workspace_edit, code_actions, encoding
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

NOTEBOOK = json.dumps(
    {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# Serve Qwen on a T4\n"]},
            {
                "cell_type": "code",
                "metadata": {},
                "outputs": [],
                "execution_count": None,
                "source": [
                    'MODEL = "Qwen/Qwen3-4B"\n',
                    "!vllm serve Qwen/Qwen3-4B --max-num-seq 8 \\\n",
                    "    --dtype half &\n",
                ],
            },
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    },
    indent=1,
)


async def test_a_notebook_gets_diagnostics_and_fixes_keep_it_json(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/nb/serve.ipynb", NOTEBOOK, language_id="json")
    try:
        [diagnostic] = [d for d in await doc.diagnostics() if str(d.code) == "VC103"]
        line = NOTEBOOK.splitlines()[diagnostic.range.start.line]
        written = line[diagnostic.range.start.character : diagnostic.range.end.character]
        assert written == "--max-num-seq"
        actions = await code_actions(client, doc.uri, diagnostic.range, [diagnostic])
        [fix] = [a for a in actions if a.title.startswith("Rename")]
        assert fix.edit is not None
        fixed = apply_workspace_edit(doc.text, fix.edit, doc.uri, encoding(client))
        cell = "".join(json.loads(fixed)["cells"][1]["source"])
        assert "!vllm serve Qwen/Qwen3-4B --max-num-seqs 8 \\\n" in cell
        assert "VC103" not in {str(d.code) for d in await doc.replace(fixed)}
    finally:
        doc.close()


async def test_one_code_cell_sent_as_python_reads_its_shell_lines(client: LanguageClient) -> None:
    cell = "".join(json.loads(NOTEBOOK)["cells"][1]["source"])
    doc = Doc(client, "vscode-notebook-cell:/work/nb/serve.ipynb#W1sZmlsZQ%3D%3D", cell, "python")
    try:
        [diagnostic] = [d for d in await doc.diagnostics() if str(d.code) == "VC103"]
        assert diagnostic.range.start.line == 1
        assert cell.splitlines()[1][diagnostic.range.start.character :].startswith("--max-num-seq")
    finally:
        doc.close()


async def test_a_python_block_of_a_doc_gets_no_shell_refactoring(
    client: LanguageClient, tmp_path: Path
) -> None:
    """ "Move these flags into a --config file" writes shell words: offered for a ```bash
    block, never for a ```python block's argv list (it would write `--config x.yaml` into
    the list)."""
    guide = (
        "```python\n"
        'subprocess.Popen(["vllm", "serve", "m", "--max-model-len", "4096", "--port", "1"])\n'
        "```\n\n"
        "```bash\nvllm serve m --max-model-len 4096 --port 1\n```\n"
    )
    uri = (tmp_path / "guide.md").as_uri()
    doc = Doc(client, uri, guide, language_id="markdown")
    try:
        await doc.diagnostics()
        kinds = ["refactor.move.vllm-config"]
        lines = guide.splitlines()
        for line, offered in ((1, False), (5, True)):
            at = types.Position(line, lines[line].index("--max-model-len"))
            where = types.Range(start=at, end=at)
            moves = await code_actions(client, uri, where, [], only=kinds)
            if offered and not moves:
                continue  # a client that cannot create files gets none anywhere
            assert bool(moves) == offered, line
    finally:
        doc.close()
