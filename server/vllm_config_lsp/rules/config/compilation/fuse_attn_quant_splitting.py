"""Attention + quant fusion with every attention op listed in `splitting_ops`.

## What vLLM does
With `pass_config.fuse_attn_quant` on, inductor graph partition off and the compilation
mode VLLM_COMPILE, `CompilationConfig.set_splitting_ops_for_attn_fusion`
(vllm/config/compilation.py:1260-1278) asserts that `splitting_ops` does not contain all
of vLLM's attention ops (`CompilationConfig._attention_ops`): the fusion pass needs the
attention op inside the compiled graph, and splitting at every attention op would take
it out. Leave `splitting_ops` unset (vLLM then uses an empty list) or drop the
attention ops. The platform may choose another compilation mode when the file leaves it
to vLLM (the CPU backend does), so only an explicit `mode: 3` is an error.

## Example
```yaml
model: RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8
compilation-config:
  mode: 3
  pass_config:
    fuse_attn_quant: true
  splitting_ops:
    - vllm::unified_attention_with_output
    - vllm::unified_mla_attention_with_output
    - vllm::mamba_mixer2
    - vllm::mamba_mixer
    - vllm::short_conv
    - vllm::qwen4_exp_ple_short_conv
    - vllm::qwen4_exp_qsa_with_output
    - vllm::qwen4_exp_qsa_prepare_with_output
    - vllm::linear_attention
    - vllm::qwen_gdn_attention_core
    - vllm::qwen_gdn_attention_core_fused_norm_packed
    - vllm::gdn_attention_core_xpu
    - vllm::olmo_hybrid_gdn_full_forward
    - vllm::sparse_attn_indexer
    - vllm::rocm_aiter_sparse_attn_indexer
    - vllm::deepseek_v4_attention
    - vllm::hpc_rope_norm_forward
```

## Fixed
```yaml
model: RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8
compilation-config:
  mode: 3
  pass_config:
    fuse_attn_quant: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    compilation_field,
    error,
    json_true,
    removal,
    switched_on,
    warning,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC481"
NAME = "fuse-attn-quant-splitting"
VLLM_SOURCE = "vllm/config/compilation.py:1276"
CATALOGUE = ("compilation.fuse_attn_quant.splitting",)

#: `CompilationConfig._attention_ops` (vllm/config/compilation.py:768).
ATTENTION_OPS = (
    "vllm::unified_attention_with_output",
    "vllm::unified_mla_attention_with_output",
    "vllm::mamba_mixer2",
    "vllm::mamba_mixer",
    "vllm::short_conv",
    "vllm::qwen4_exp_ple_short_conv",
    "vllm::qwen4_exp_qsa_with_output",
    "vllm::qwen4_exp_qsa_prepare_with_output",
    "vllm::linear_attention",
    "vllm::qwen_gdn_attention_core",
    "vllm::qwen_gdn_attention_core_fused_norm_packed",
    "vllm::gdn_attention_core_xpu",
    "vllm::olmo_hybrid_gdn_full_forward",
    "vllm::sparse_attn_indexer",
    "vllm::rocm_aiter_sparse_attn_indexer",
    "vllm::deepseek_v4_attention",
    "vllm::hpc_rope_norm_forward",
)
VLLM_COMPILE = ("3", "VLLM_COMPILE")


def check(model: ConfigModel) -> Iterator[Finding]:
    if json_true(model, "compilation-config", "pass_config", "fuse_attn_quant") is None:
        return
    partition = compilation_field(model, "use_inductor_graph_partition")
    if partition is not None and partition.value is True:
        return
    if switched_on(model, "enforce-eager") is not None:
        return  # eager mode sets the compilation mode to NONE
    ops = compilation_field(model, "splitting_ops")
    if ops is None or not isinstance(ops.value, list):
        return
    if not all(op in ops.value for op in ATTENTION_OPS):
        return
    mode = compilation_field(model, "mode")
    explicit = mode is not None and str(mode.value).upper() in VLLM_COMPILE
    if mode is not None and not explicit:
        return
    message = (
        "attention ops should not be in splitting_ops when fuse_attn_quant is True (an "
        "assertion in vLLM). Remove the attention ops from `splitting_ops`."
    )
    fixes = [removal(model, ops)]
    if explicit:
        yield error(CODE, ops, message, VLLM_SOURCE, fixes)
    else:
        yield warning(
            CODE,
            ops,
            message + " This applies when the platform compiles with VLLM_COMPILE (the "
            "default on GPUs).",
            VLLM_SOURCE,
            fixes,
        )
