"""Flags and config fields that older vLLM releases had and 0.33 refuses, with what to do.

Hand-curated from the release diffs in the research notes (vllm-rules.md §3) and checked
against the 0.33.0 wheel: each entry is absent from 0.33.0's parser or config classes.
Generating this from per-release schemas is the versions work (a later issue); until then
this table names the common ones so the message can say more than "unrecognized".
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Removed:
    name: str
    message: str
    rename_to: str | None = None  # a drop-in replacement key (same value meaning)


_FLAGS = {
    r.name: r
    for r in (
        Removed(
            "swap-space", "removed by vLLM 0.20 (CPU swap space for preemption is gone); delete it"
        ),
        Removed(
            "task",
            "--task is not a vllm serve option. For embedding, reranking, or reward models, "
            "use --runner pooling. To adapt a generative model for pooling, also use "
            "--convert embed, --convert classify, or --convert reward.",
        ),
        Removed(
            "rope-scaling", "removed by vLLM 0.15; set it through `hf-overrides: {rope_scaling: …}`"
        ),
        Removed(
            "rope-theta", "removed by vLLM 0.15; set it through `hf-overrides: {rope_theta: …}`"
        ),
        Removed(
            "guided-decoding-backend", "removed; use `structured-outputs-config: {backend: …}`"
        ),
        Removed(
            "cuda-graph-sizes",
            "removed by vLLM 0.15; use `cudagraph-capture-sizes`",
            "cudagraph-capture-sizes",
        ),
        Removed(
            "num-scheduler-steps", "removed with the V0 engine (multi-step scheduling); delete it"
        ),
        Removed(
            "speculative-model",
            "removed; use `speculative-config: {model: …, num_speculative_tokens: …}`",
        ),
        Removed(
            "num-speculative-tokens",
            "removed; use `speculative-config: {num_speculative_tokens: …}`",
        ),
        Removed("use-v2-block-manager", "removed with the V0 engine; delete it"),
        Removed("enable-reasoning", "removed; setting `reasoning-parser` enables reasoning"),
        Removed(
            "max-seq-len-to-capture",
            "removed; CUDA graph sizes are set with `max-cudagraph-capture-size`",
        ),
        Removed(
            "num-redundant-experts",
            "removed by vLLM 0.15; use `eplb-config: {num_redundant_experts: …}`",
        ),
        Removed(
            "override-pooler-config", "removed by vLLM 0.15; use `pooler-config`", "pooler-config"
        ),
        Removed(
            "disable-mm-preprocessor-cache", "removed by vLLM 0.15; use `mm-processor-cache-gb: 0`"
        ),
        Removed(
            "device",
            "removed (vLLM detects the platform; `DeviceConfig.device` is deprecated); delete it",
        ),
        Removed("preemption-mode", "removed with the V0 engine; delete it"),
        Removed("num-lookahead-slots", "removed by vLLM 0.15; delete it"),
        Removed("enable-lora-bias", "removed by vLLM 0.15; delete it"),
        Removed("lora-extra-vocab-size", "removed by vLLM 0.15; delete it"),
        Removed("logits-processor-pattern", "removed by vLLM 0.20; delete it"),
        Removed("calculate-kv-scales", "removed by vLLM 0.29; delete it"),
        Removed("max-num-partial-prefills", "removed by vLLM 0.29; delete it"),
        Removed("max-long-partial-prefills", "removed by vLLM 0.29; delete it"),
        Removed("override-attention-dtype", "removed by vLLM 0.29; delete it"),
    )
}

_FIELDS = {
    r.name: r
    for r in (
        Removed(
            "CompilationConfig.level", "`level` was renamed `mode` and removed by vLLM 0.20", "mode"
        ),
        Removed(
            "CompilationConfig.use_inductor", "removed; use `backend: eager` or `backend: inductor`"
        ),
        Removed("CompilationConfig.use_cudagraph", "removed; use `cudagraph_mode` (e.g. `NONE`)"),
        Removed(
            "CompilationConfig.full_cuda_graph", "removed; use `cudagraph_mode: FULL_AND_PIECEWISE`"
        ),
        Removed("PassConfig.enable_fusion", "split into `fuse_norm_quant` and `fuse_act_quant`"),
        Removed("PassConfig.enable_attn_fusion", "renamed `fuse_attn_quant`", "fuse_attn_quant"),
        Removed("PassConfig.enable_noop", "renamed `eliminate_noops`", "eliminate_noops"),
        Removed(
            "PassConfig.enable_fi_allreduce_fusion",
            "renamed `fuse_allreduce_rms`",
            "fuse_allreduce_rms",
        ),
    )
}


def removed_flag(name: str) -> Removed | None:
    return _FLAGS.get(name)


def removed_field(class_name: str, field: str) -> Removed | None:
    return _FIELDS.get(f"{class_name}.{field}")
