"""External data-parallel load balancing on a model without experts.

## What vLLM does
With `data-parallel-size` above 1 and external load balancing (`data-parallel-rank` given,
or `data-parallel-external-lb`), each vLLM instance serves one rank and the ranks only
need each other for MoE expert layers. `EngineArgs.create_engine_config` refuses that
layout for a dense model: `Non-MoE models do not support external data parallel mode. For
external load balancing, launch independent vLLM instances without --data-parallel-*
arguments.` (vllm/engine/arg_utils.py:2455-2465).

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
data-parallel-size: 2
data-parallel-rank: 0
```

## Fixed
```yaml
model: Qwen/Qwen3-30B-A3B
data-parallel-size: 2
data-parallel-rank: 0
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import error, given, is_int
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC607"
NAME = "external-dp-dense-model"
VLLM_SOURCE = "vllm/engine/arg_utils.py:2461"
CATALOGUE = ("cli.dp.external_moe",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    size = given(model, "data-parallel-size")
    if config is None or size is None or not is_int(size.value) or size.value <= 1:
        return
    rank = given(model, "data-parallel-rank")
    external = given(model, "data-parallel-external-lb")
    trigger = rank if rank is not None and rank.value is not None else None
    if trigger is None and external is not None and external.value is True:
        trigger = external
    if trigger is None or config.num_experts > 0:
        return
    yield error(
        CODE,
        trigger,
        "Non-MoE models do not support external data parallel mode. For external load "
        "balancing, launch independent vLLM instances without --data-parallel-* arguments. "
        f"{config.where.name} is a dense model.",
        VLLM_SOURCE,
    )
