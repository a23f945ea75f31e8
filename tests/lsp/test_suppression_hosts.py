""" "Disable CODE for this line / file" in every host of command lines, each host writing
the comment its syntax takes (`sources.config_layout.COMMENTS`): applied, the finding is
gone, the other findings stay, and the host reads the same starts as before (`argv`: the
file still parses and nothing else changed). Where the line ends inside a string (a
compose `command: >`), the comment goes on the key's line, which covers the entry; a
Dockerfile gets a comment line above the instruction (after its parser directives); a
notebook's JSON strings, Markdown prose and a Markdown block whose language has no `#`
comment get none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsp_support import Doc, apply_workspace_edit, code_actions, encoding
from lsprotocol import types
from pytest_lsp import LanguageClient
from support import cli

pytestmark = pytest.mark.asyncio(loop_scope="session")

FLAG = "--bogus-flag"  # VC101: vLLM refuses an unknown flag

#: (file name, language id, text): one start per host, with VC101 and another finding.
HOSTS = [
    ("serve.sh", "shellscript", f"#!/bin/bash\nvllm serve m --max-num-seqs 0 {FLAG} 1\n"),
    (
        "Dockerfile",
        "dockerfile",
        "# syntax=docker/dockerfile:1\nFROM vllm/vllm-openai:latest\n"
        f'CMD ["--model", "m", "--max-num-seqs", "0", "{FLAG}", "1"]\n',
    ),
    (
        "run.Dockerfile",
        "dockerfile",
        "FROM vllm/vllm-openai:latest\nRUN echo\nCMD vllm serve m \\\n"
        f"    --max-num-seqs 0 \\\n    {FLAG} 1\n",
    ),
    (
        "README.md",
        "markdown",
        f"# Serving\n\nRun:\n\n```bash\nvllm serve m --max-num-seqs 0 {FLAG} 1\n```\n",
    ),
    (
        "serve.py",
        "python",
        "import subprocess\n\nsubprocess.run(\n"
        f'    ["vllm", "serve", "m", "--max-num-seqs", "0", "{FLAG}", "1"]\n)\n',
    ),
    ("Makefile", "makefile", f"serve:\n\tvllm serve m --max-num-seqs 0 {FLAG} 1\n"),
    ("justfile", "just", f"serve:\n    vllm serve m --max-num-seqs 0 {FLAG} 1\n"),
    (
        "pyproject.toml",
        "toml",
        f'[tool.poe.tasks]\nserve = "vllm serve m --max-num-seqs 0 {FLAG} 1"\n',
    ),
    (
        "compose.yaml",
        "yaml",
        "services:\n  llm:\n    image: vllm/vllm-openai:latest\n"
        f"    command: >\n      --model m\n      --max-num-seqs 0\n      {FLAG} 1\n",
    ),
    (
        "serve.yml",
        "yaml",
        "on: push\njobs:\n  serve:\n    runs-on: ubuntu-latest\n    steps:\n"
        f"      - run: |\n          vllm serve m --max-num-seqs 0 \\\n            {FLAG} 1\n"
        "      - run: echo done\n",
    ),
    (
        "deploy.yaml",
        "yaml",
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containers:\n"
        "    - name: vllm\n      image: vllm/vllm-openai:latest\n"
        f'      args:\n        - --model\n        - m\n        - --max-num-seqs\n        - "0"\n'
        f"        - {FLAG}\n        - '1'\n",
    ),
]
#: Hosts whose syntax has no comment where the finding is.
NO_COMMENT = [
    (
        "serve.ipynb",
        "json",
        json.dumps(
            {
                "cells": [
                    {
                        "cell_type": "code",
                        "metadata": {},
                        "source": [f"!vllm serve m --max-num-seqs 0 {FLAG} 1\n"],
                        "outputs": [],
                        "execution_count": None,
                    }
                ],
                "metadata": {},
                "nbformat": 4,
                "nbformat_minor": 5,
            },
            indent=1,
        ),
    ),
    (
        "image.md",
        "markdown",  # a Dockerfile block: a `#` after the exec form would make it a shell form
        "# Image\n\n```dockerfile\nFROM vllm/vllm-openai:latest\n"
        f'CMD ["--model", "m", "{FLAG}", "1"]\n```\n',
    ),
]
#: Hosts whose file has no place for a file-wide comment at its top (Markdown prose).
NO_FILE_COMMENT = {"README.md"}


def _starts(tmp_path: Path, name: str, texts: list[str]) -> list[list[object]]:
    """What the CLI reads in each text, saved as `name` (argv and environment per start)."""
    paths = []
    for number, text in enumerate(texts):
        folder = tmp_path / str(number)
        folder.mkdir(exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
        paths.append(folder / name)
    done = cli("argv", "--format", "json", "--vllm-version", "0.33.0", *map(str, paths))
    assert done.returncode == 0, done.stderr
    found: list[list[object]] = [[] for _ in paths]
    for start in json.loads(done.stdout):
        at = [str(path) for path in paths].index(str(Path(start["file"]).resolve()))
        found[at].append((start["argv"], start["environment"]))
    return found


def _codes(diagnostics: list[types.Diagnostic]) -> list[str]:
    return sorted(str(d.code) for d in diagnostics)


async def _disabled(
    client: LanguageClient, uri: str, text: str, language: str, which: str
) -> tuple[list[str], str | None, list[str]]:
    """The codes before, the text after "Disable VC101 for this `which`" (None when it is
    not offered), and the codes after."""
    doc = Doc(client, uri, text, language_id=language)
    try:
        before = await doc.diagnostics()
        [diagnostic] = [d for d in before if d.code == "VC101"]
        actions = await code_actions(client, uri, diagnostic.range, [diagnostic])
        titled = [a for a in actions if a.title == f"Disable VC101 for this {which}"]
        if not titled:
            return _codes(before), None, []
        [action] = titled
        assert action.edit is not None
        after = apply_workspace_edit(text, action.edit, uri, encoding(client))
        return _codes(before), after, _codes(await doc.replace(after))
    finally:
        doc.close()


@pytest.mark.parametrize("which", ["line", "file"])
@pytest.mark.parametrize(("name", "language", "text"), HOSTS, ids=[h[0] for h in HOSTS])
async def test_disable_in_each_host(
    client: LanguageClient, tmp_path: Path, name: str, language: str, text: str, which: str
) -> None:
    folder = tmp_path / "open"
    folder.mkdir()
    uri = (folder / name).as_uri()
    (folder / name).write_text(text, encoding="utf-8")
    before, after, codes = await _disabled(client, uri, text, language, which)
    assert "VC101" in before and len(before) > 1
    if which == "file" and name in NO_FILE_COMMENT:
        assert after is None
        return
    assert after is not None, f"no 'Disable VC101 for this {which}' in {name}"
    assert "vllm-config: disable" in after
    assert codes == [code for code in before if code != "VC101"]
    read_before, read_after = _starts(tmp_path, name, [text, after])
    assert read_before and read_after == read_before  # still parses, nothing else changed


@pytest.mark.parametrize(("name", "language", "text"), NO_COMMENT, ids=[h[0] for h in NO_COMMENT])
async def test_no_comment_where_the_syntax_has_none(
    client: LanguageClient, tmp_path: Path, name: str, language: str, text: str
) -> None:
    uri = (tmp_path / name).as_uri()
    (tmp_path / name).write_text(text, encoding="utf-8")
    for which in ("line", "file"):
        before, after, _ = await _disabled(client, uri, text, language, which)
        assert "VC101" in before and after is None, (name, which)
