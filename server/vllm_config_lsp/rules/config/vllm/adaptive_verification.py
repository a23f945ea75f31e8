"""Adaptive speculative verification with a setting it does not support.

## What vLLM does
`VllmConfig._validate_adaptive_verification` (vllm/config/vllm.py:3153-3181) refuses
`speculative-config.enable_adaptive_verification` together with LoRA (the per-token LoRA
mapping is built from boundaries decided later on the GPU), without full CUDA graphs (the
final cudagraph mode must be FULL, FULL_DECODE_ONLY or FULL_AND_PIECEWISE), and with
pipeline parallelism (cost curves live on the last PP rank only). `enforce-eager`,
`cudagraph_mode: NONE`/`PIECEWISE` and `optimization-level: 0` all leave vLLM without full
graphs. Model Runner V1 refuses adaptive verification altogether, so these checks matter
on Model Runner V2. Releases that verify adaptively for DSpark only (VC472) stop before
these checks for every other method, and this rule leaves the finding to VC472.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
enforce-eager: true
speculative-config:
  method: ngram
  num_speculative_tokens: 3
  prompt_lookup_max: 3
  enable_adaptive_verification: true
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  num_speculative_tokens: 3
  prompt_lookup_max: 3
  enable_adaptive_verification: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    above_one,
    adaptive_verification,
    compilation_field,
    cuda_graphs,
    error,
    removal,
    replace,
    switched_on,
)
from vllm_config_lsp.rules.config.speculative.spec_adaptive_dspark_only import refused
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC335"
NAME = "adaptive-verification"
VLLM_SOURCE = "vllm/config/vllm.py:3161"
CATALOGUE = ("vllm.adaptive.lora", "vllm.adaptive.full_cg", "vllm.adaptive.pp")

GRAPHS_SOURCE = "vllm/config/vllm.py:3166"
PP_SOURCE = "vllm/config/vllm.py:3177"
GRAPHS_MESSAGE = (
    "Adaptive verification requires full CUDA graphs. Use cudagraph mode FULL, "
    "FULL_DECODE_ONLY, or FULL_AND_PIECEWISE, or disable adaptive verification."
)


def check(model: ConfigModel) -> Iterator[Finding]:
    if adaptive_verification(model) is None or refused(model) is not None:
        return  # (a release that verifies adaptively for DSpark only stops before: VC472)
    lora = switched_on(model, "enable-lora")
    if lora is not None:
        yield error(
            CODE,
            lora,
            "Adaptive verification is not currently compatible with LoRA",
            VLLM_SOURCE,
            [removal(model, lora)],
        )
    state, where = cuda_graphs(model)
    mode = compilation_field(model, "cudagraph_mode")
    if where is not None and state == "off":
        yield error(
            CODE,
            where,
            f"{GRAPHS_MESSAGE} (`{where.label}` leaves vLLM without CUDA graphs.)",
            GRAPHS_SOURCE,
            [removal(model, where)],
        )
    elif mode is not None and str(mode.value).upper() == "PIECEWISE":
        yield error(
            CODE,
            mode,
            GRAPHS_MESSAGE,
            GRAPHS_SOURCE,
            [replace(model, mode, "FULL_AND_PIECEWISE", "Use `FULL_AND_PIECEWISE`")],
        )
    pp = above_one(model, "ParallelConfig", "pipeline_parallel_size")
    if pp is not None:
        yield error(
            CODE,
            pp,
            "Adaptive verification is not currently compatible with pipeline parallelism",
            PP_SOURCE,
            [removal(model, pp)],
        )
