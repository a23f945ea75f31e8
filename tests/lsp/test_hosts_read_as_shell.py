"""The hosts of issue 28 in the editor: a Makefile recipe, a TOML entrypoint, a pixi task and
an anvil-serving recipe (real files), a Jinja template, a kustomize overlay patch (llm-d's,
read through its bases on disk), a Dynamo worker.
Each real file is opened as the editor opens it; in one session: its diagnostics, a fix
applied through the code action (the file stays its host's syntax: the finding is gone and
the start is still read), a hover and a completion inside the command line."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from lsp_support import Doc, apply_workspace_edit, code_actions, complete_at, encoding, hover_text
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

DATA = Path(__file__).resolve().parents[1] / "sources" / "data"
LATENCY = (
    DATA / "kustomize/llm-d/guides/predicted-latency-routing/modelserver/gpu/vllm/base"
) / "patch-vllm.yaml"
DISAGG = DATA / "dynamo" / "ai-dynamo__dynamo__examples__backends__vllm__launch__disagg.sh"
BLENDERGYM = DATA / "toml" / "blendergym" / "pyproject.toml"
ANVIL = DATA / "toml" / "anvil-serving" / "tp2-model-campaign-recipes.toml"


@dataclass(frozen=True)
class Case:
    """A document as the editor opens it; the finding whose fix is applied; the text the
    completion is typed in place of, with `§` at the cursor; what is gone after the fix."""

    uri: str
    text: str
    language_id: str
    code: str
    before: str
    typed: str
    removed: str
    hover: str = "--dtype"


CASES = [
    Case(
        "file:///work/issue28/mk/Makefile",
        (DATA / "makefile" / "lewidi2025" / "Makefile").read_text(encoding="utf-8"),
        "makefile",
        "VC101",
        "\t\t--port 8000",
        "\t\t--enable-prefix-ca§ \\\n\t\t--port 8000",
        "--task generate",
    ),
    Case(
        "file:///work/issue28/toml/cerebrium.toml",
        "[cerebrium.runtime.custom]\n"
        'entrypoint = ["vllm", "serve", "Qwen/Qwen3-4B", "--dtype", "auto",\n'
        '  "--task", "generate", "--port", "8000"]\n',
        "toml",
        "VC101",
        '"--port"',
        '"--enable-prefix-ca§", "--port"',
        '"--task"',
    ),
    Case(
        "file:///work/issue28/tpl/run.sh.j2",
        "#!/bin/bash\nvllm serve {{ model }} --dtype auto \\\n"
        "{% if eager %}\n  --enforce-eager \\\n{% endif %}\n"
        "  --task generate --port {{ port }}\n",
        "jinja-shell",
        "VC101",
        "--port {{",
        "--enable-prefix-ca§ --port {{",
        "--task generate",
    ),
    Case(
        LATENCY.as_uri(),  # opened where it is: its bases are read from beside it
        LATENCY.read_text(encoding="utf-8").replace("--max-model-len=", "--max-modl-len="),
        "yaml",
        "VC101",
        '- "--tensor-parallel-size=2"',
        '- "--enable-prefix-ca§"\n            - "--tensor-parallel-size=2"',
        "--max-modl-len",
        hover="--tensor-parallel-size",
    ),
    Case(
        "file:///work/issue28/dynamo/disagg.sh",
        DISAGG.read_text(encoding="utf-8").replace(
            "    --enforce-eager \\\n", "    --enforce-eagr \\\n"
        ),
        "shellscript",
        "VC101",
        "    --disaggregation-mode prefill",
        "    --enable-prefix-ca§ \\\n    --disaggregation-mode prefill",
        "--enforce-eagr",
        hover="--model",
    ),
    Case(  # a pixi task's command string
        "file:///work/issue28/pixi/pyproject.toml",
        BLENDERGYM.read_text(encoding="utf-8").replace(
            "Thinking-FP8 --tensor-parallel-size 4", "Thinking-FP8 --task generate -tp 4"
        ),
        "toml",
        "VC101",
        "Thinking-FP8 -tp 4",
        "Thinking-FP8 --enable-prefix-ca§ -tp 4",
        "--task generate",
        hover="--enable-expert-parallel",
    ),
    Case(  # an anvil-serving recipe's `flags` entry
        "file:///work/issue28/anvil/recipes.toml",
        ANVIL.read_text(encoding="utf-8").replace(
            '  "--enable-expert-parallel",\n',
            '  "--task generate",\n  "--enable-expert-parallel",\n',
        ),
        "toml",
        "VC101",
        '"--enable-expert-parallel",',
        '"--enable-prefix-ca§", "--enable-expert-parallel",',
        "--task generate",
        hover="--mamba-ssm-cache-dtype",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.uri.rsplit("/", 1)[-1])
async def test_fix_hover_and_completion_in_the_host(client: LanguageClient, case: Case) -> None:
    """Apply the first fix of the case's finding (it is gone from its line after), hover
    the case's flag, complete the flag typed: `--enable-prefix-caching` is offered. Dynamo's
    own flags (`--disaggregation-mode`) get nothing."""
    doc = Doc(client, case.uri, case.text, language_id=case.language_id)
    try:
        diagnostics = await doc.diagnostics()
        finding = next(d for d in diagnostics if str(d.code) == case.code)
        actions = await code_actions(client, doc.uri, finding.range, [finding])
        fix = next(a for a in actions if a.edit is not None and a.diagnostics)
        assert fix.edit is not None
        fixed = apply_workspace_edit(doc.text, fix.edit, doc.uri, encoding(client))
        assert case.removed in case.text and case.removed not in fixed
        after = await doc.replace(fixed)
        line = finding.range.start.line
        assert case.code not in {str(d.code) for d in after if d.range.start.line == line}
        assert not [d for d in after if "disaggregation-mode" in d.message]  # Dynamo's own
        hover = await hover_text(client, doc, case.hover, skip=2) or ""
        assert case.hover.lstrip("-") in hover, hover
        typed = fixed.replace(case.before, case.typed, 1)
        labels = [item.label for item in await complete_at(client, doc, typed)]
        assert "--enable-prefix-caching" in labels, labels
    finally:
        doc.close()
