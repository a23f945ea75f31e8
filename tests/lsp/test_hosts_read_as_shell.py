"""The hosts of issue 28 in the editor: a Makefile recipe, a TOML entrypoint, a template.
Each real file is opened as the editor opens it; in one session: its diagnostics, a fix
applied through the code action (the file stays its host's syntax: the finding is gone and
the start is still read), a hover and a completion inside the command line."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import Doc, apply_workspace_edit, code_actions, complete_at, encoding, hover_text
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

DATA = Path(__file__).resolve().parents[1] / "sources" / "data"
ENABLE = "--enable-prefix-caching"


async def _fix_hover_complete(
    client: LanguageClient,
    doc: Doc,
    code: str,
    hover_at: str,
    completion: tuple[str, str, str],
) -> str:
    """Apply the first fix of `code`, hover `hover_at`, complete `completion[1]` put in
    place of `completion[0]` (with `§` at the cursor): `completion[2]` is offered."""
    diagnostics = await doc.diagnostics()
    finding = next(d for d in diagnostics if str(d.code) == code)
    actions = await code_actions(client, doc.uri, finding.range, [finding])
    fix = next(a for a in actions if a.edit is not None and a.diagnostics)
    assert fix.edit is not None
    fixed = apply_workspace_edit(doc.text, fix.edit, doc.uri, encoding(client))
    after = await doc.replace(fixed)
    assert code not in {
        str(d.code) for d in after if d.range.start.line == finding.range.start.line
    }
    hover = await hover_text(client, doc, hover_at, skip=2) or ""
    assert hover_at.lstrip("-") in hover, hover
    typed = fixed.replace(completion[0], completion[1], 1)
    labels = [item.label for item in await complete_at(client, doc, typed)]
    assert completion[2] in labels, labels
    return fixed


async def test_a_makefile_recipe(client: LanguageClient) -> None:
    text = (DATA / "makefile" / "lewidi2025" / "Makefile").read_text(encoding="utf-8")
    doc = Doc(client, "file:///work/issue28/mk/Makefile", text, language_id="makefile")
    try:
        fixed = await _fix_hover_complete(
            client,
            doc,
            "VC101",
            "--dtype",
            ("\t\t--port 8000", "\t\t--enable-prefix-ca§ \\\n\t\t--port 8000", ENABLE),
        )
        assert "--task" not in fixed.split("inference:")[0]
    finally:
        doc.close()
