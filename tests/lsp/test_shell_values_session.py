"""A shell script's own assignments in the editor: the `$NAME`s of a `vllm serve` line hold the
values the script sets, a finding on one sits on the reference with related information at the
assignment, no code action writes a literal over the reference, and editing the assignment
clears the finding (tests/cli/test_shell_values.py has the reading itself)."""

from __future__ import annotations

import pytest
from lsp_support import Doc, code_actions
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: dfy37/lifesim `demo/scripts/run_user_model.sh` (tests/cli/data/shell-values/SOURCES.md)
#: with its length assigned a typo and its dtype a capital letter.
SCRIPT = (
    "MODEL_PATH=/remote-home/share/LLM_CKPT/huggingface_models/Qwen3-32B\n"
    "\n"
    "MAX_MODEL_LENGTH=16384x\n"
    "DTYPE=Auto\n"
    "\n"
    "CUDA_VISIBLE_DEVICES=0,1,2,3 vllm serve ${MODEL_PATH} \\\n"
    "    --host 0.0.0.0 \\\n"
    "    --port 8000 \\\n"
    '    --dtype "$DTYPE" \\\n'
    "    --tensor-parallel-size 4 \\\n"
    "    --gpu-memory-utilization 0.9 \\\n"
    "    --max-model-len ${MAX_MODEL_LENGTH} \\\n"
    "    --api-key 123\n"
)


async def test_assigned_values_are_checked_where_they_are_used(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/scripts/run_user_model.sh", SCRIPT)
    diagnostics = await doc.diagnostics()
    errors = {d.code: d for d in diagnostics if d.severity == 1}
    assert set(errors) == {"VC201", "VC202"}, [(d.code, d.message) for d in diagnostics]
    length, dtype = errors["VC201"], errors["VC202"]
    assert "'16384x'" in length.message and length.range.start.line == 11
    assert "'Auto'" in dtype.message and dtype.range.start.line == 8
    for diagnostic, line in ((length, 2), (dtype, 3)):
        [related] = diagnostic.related_information or []
        assert related.location.range.start.line == line
        assert "takes its value here" in related.message
        actions = await code_actions(client, doc.uri, diagnostic.range, [diagnostic])
        edits = [
            a for a in actions if a.edit is not None and a.title.startswith(("Replace", "Write"))
        ]
        assert edits == [], [a.title for a in edits]
    literal = Doc(client, "file:///work/scripts/literal.sh", "vllm serve m --dtype Auto\n")
    [written] = [d for d in await literal.diagnostics() if d.code == "VC202"]
    actions = await code_actions(client, literal.uri, written.range, [written])
    assert [a.title for a in actions if a.edit is not None and a.title.startswith("Replace")]
    literal.close()
    fixed = SCRIPT.replace("16384x", "16384").replace("DTYPE=Auto", "DTYPE=auto")
    diagnostics = await doc.replace(fixed)
    assert not [d for d in diagnostics if d.severity == 1], [d.message for d in diagnostics]
    doc.close()
