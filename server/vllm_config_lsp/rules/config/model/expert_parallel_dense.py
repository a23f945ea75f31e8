"""`enable-expert-parallel` on a model without experts (not a mixture of experts).

## What vLLM does
Expert parallelism shards the experts of MoE layers across GPUs; a dense model has none.
`ModelConfig.verify_with_parallel_config` calls `_verify_with_expert_parallelism`, which
refuses with `Number of experts in the model must be greater than 0 when expert
parallelism is enabled.` (vllm/config/model.py:1497-1502). The expert count is read from
config.json (`num_experts`, `moe_num_experts`, `n_routed_experts`, `num_local_experts`).

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
tensor-parallel-size: 2
enable-expert-parallel: true
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
tensor-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import error, given_field, removal
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC606"
NAME = "expert-parallel-dense-model"
VLLM_SOURCE = "vllm/config/model.py:1500"
CATALOGUE = ("model.ep.non_moe",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    ep = given_field(model, "ParallelConfig", "enable_expert_parallel")
    if config is None or ep is None or ep.value is not True or config.num_experts > 0:
        return
    yield error(
        CODE,
        ep,
        "Number of experts in the model must be greater than 0 when expert parallelism is "
        f"enabled. {config.where.name} is a dense model (no experts in its config.json).",
        VLLM_SOURCE,
        [removal(model, ep)],
    )
