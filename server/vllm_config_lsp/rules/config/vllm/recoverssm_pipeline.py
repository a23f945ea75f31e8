"""ReplaySSM on a Kimi Linear (KDA) model with speculative decoding and pipeline parallelism.

## What vLLM does
With `use-replayssm: true`, `VllmConfig.validate_mamba_cached_kernel`
(vllm/config/vllm.py:3447-3504) switches a KDA model (`model_config.architecture`
`KimiLinearForCausalLM` or `KimiK3ForConditionalGeneration`) that also speculates
(`num_speculative_tokens` > 0) to RecoverSSM, then refuses, among other things,
`pipeline-parallel-size` above 1: `RecoverSSM currently requires pipeline_parallel_size=1`.
Every check before that one also refuses, so such a configuration never starts.

## Example
```yaml
model: synthetic/kimi-linear
use-replayssm: true
pipeline-parallel-size: 2
speculative-config:
  method: ngram
  num_speculative_tokens: 2
  prompt_lookup_max: 3
```

## Fixed
```yaml
model: synthetic/kimi-linear
use-replayssm: true
tensor-parallel-size: 2
speculative-config:
  method: ngram
  num_speculative_tokens: 2
  prompt_lookup_max: 3
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import int_value, normalize_arch, served, speculative
from vllm_config_lsp.rules._engine import above_one, error, field_value, removal, switched_on
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.model_files import registry

CODE = "VC630"
NAME = "recoverssm-pipeline-parallel"
VLLM_SOURCE = "vllm/config/vllm.py:3502"
CATALOGUE = ("vllm.recoverssm.pp",)

#: `kda_architectures` (vllm/config/vllm.py:3452).
KDA_ARCHITECTURES = ("KimiLinearForCausalLM", "KimiK3ForConditionalGeneration")


def served_architecture(model: ConfigModel) -> str | None:
    """`ModelConfig.architecture` of the served model when its config.json is at hand: the
    first architecture vLLM's registry resolves (None when unknown)."""
    config = served(model)
    if config is None or field_value(model, "ModelConfig", "model_impl") not in ("auto", "vllm"):
        return None
    table = registry(model.version)
    return next((n for a in config.architectures if (n := normalize_arch(a, table)) in table), None)


def check(model: ConfigModel) -> Iterator[Finding]:
    enabled = switched_on(model, "use-replayssm")
    pp = above_one(model, "ParallelConfig", "pipeline_parallel_size")
    if enabled is None or pp is None:
        return
    arch = served_architecture(model)
    if arch not in KDA_ARCHITECTURES:
        return
    tokens = int_value((speculative(model) or {}).get("num_speculative_tokens", (None,))[0])
    if tokens is None or tokens <= 0:
        return  # no speculation (or a count vLLM derives from the draft): ReplaySSM proper
    yield error(
        CODE,
        pp,
        "RecoverSSM currently requires pipeline_parallel_size=1: "
        f"`use-replayssm` on the KDA model {arch} with "
        f"speculative decoding ({tokens} speculative tokens) runs RecoverSSM.",
        VLLM_SOURCE,
        [removal(model, pp)],
    )
