"""A fix in a Makefile recipe writes what make must hand the shell (issue 28, item 1): make
reads every `$` of a recipe first, so a `$` a fix inserts is written `$$`. The recipe is
arthurbrenno/vini `Makefile` (tests/sources/data/makefile/SOURCES.md) with its flags moved
to a `--config` file whose value holds a `$`; "Inline the --config file" puts them back,
and `make -n` (GNU make itself) prints the value as the file gave it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from lsp_support import Doc, apply_text_edits, code_actions, encoding
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = [
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.skipif(shutil.which("make") is None, reason="GNU make is the oracle"),
]

VINI = Path(__file__).resolve().parents[1] / "sources" / "data" / "makefile" / "vini" / "Makefile"
FLAGS = "--dtype auto --api-key token-abc123"


async def test_inlined_value_with_a_dollar_is_doubled_in_the_recipe(
    client: LanguageClient, tmp_path: Path
) -> None:
    text = VINI.read_text(encoding="utf-8").replace(FLAGS, "--config serve.vllm.yaml")
    (tmp_path / "serve.vllm.yaml").write_text('dtype: auto\napi-key: "pa$word"\n', "utf-8")
    makefile = tmp_path / "Makefile"
    makefile.write_text(text, encoding="utf-8")
    doc = Doc(client, makefile.as_uri(), text, language_id="makefile")
    await doc.diagnostics()
    line = text.splitlines().index(next(x for x in text.splitlines() if "--config" in x))
    at = types.Position(line=line, character=text.splitlines()[line].index("serve.vllm") + 2)
    where = types.Range(start=at, end=at)
    actions = await code_actions(client, doc.uri, where, [], only=["refactor.inline.vllm-config"])
    [inline] = [a for a in actions if a.kind == "refactor.inline.vllm-config"]
    assert inline.edit is not None
    [edits] = [
        change.edits
        for change in inline.edit.document_changes or []
        if isinstance(change, types.TextDocumentEdit)
    ]
    inlined = apply_text_edits(text, list(edits), encoding(client))
    assert "--api-key 'pa$$word'" in inlined
    makefile.write_text(inlined, encoding="utf-8")
    shell = subprocess.run(
        ["make", "-n", "-f", str(makefile), "deploy"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    ).stdout
    assert "--dtype auto --api-key 'pa$word'" in shell
    doc.close()
