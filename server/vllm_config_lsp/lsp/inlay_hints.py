"""Inlay hint: the memory budget of a config that fits its target GPU, at the end of the
line that sizes it (`max-model-len`, else `gpu-memory-utilization`, else `max-num-seqs`,
else `model:`). A config that does not fit gets VC680/VC681 instead; one without a target
gets nothing (`rules.memory`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from vllm_config_lsp.document.yaml_edits import content_end
from vllm_config_lsp.lsp.describe import flag_for_key
from vllm_config_lsp.rules.memory import BUDGET_FLAGS, memory_summary
from vllm_config_lsp.rules.support import entries

if TYPE_CHECKING:
    from vllm_config_lsp.lsp.session import Snapshot


def inlay_hints(analysis: Snapshot, wanted: types.Range) -> list[types.InlayHint]:
    model = analysis.result.model if analysis.result is not None else None
    summary = memory_summary(model) if model is not None else None
    if model is None or summary is None:
        return []
    ends: dict[str, int] = {}
    for pair in entries(model):
        spec, _ = flag_for_key(model.catalogue, pair.key)
        if spec is not None and "." not in pair.key:
            ends.setdefault(spec.name, content_end(model.text, pair.value_node))
    end = next((ends[flag] for flag in (*BUDGET_FLAGS, "model") if flag in ends), None)
    if end is None:
        return []
    position = analysis.positions.position(end)
    if not wanted.start.line <= position.line <= wanted.end.line:
        return []
    return [types.InlayHint(position=position, label=summary, padding_left=True)]
