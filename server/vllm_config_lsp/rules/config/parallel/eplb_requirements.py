"""EPLB is enabled without expert parallelism across several ranks, or tuned while off.

## What vLLM does
`ParallelConfig._validate_parallel_config` (vllm/config/parallel.py:562-591), run when the
engine config is built:
- with `enable_eplb`, refuses `enable_expert_parallel` off (`enable_expert_parallel must be
  True to use EPLB.`): the load balancer moves experts between expert-parallel ranks;
- with `enable_eplb`, refuses TP x PCP x DP <= 1 (`EPLB requires tensor, prefill-context,
  or data parallelism, …`): the EP group spans those ranks, one rank has nothing to
  balance;
- without `enable_eplb`, refuses `eplb_config.num_redundant_experts` other than 0
  (`num_redundant_experts is set to N but EPLB is not enabled.`).

Before the first two, vLLM refuses EPLB on platforms other than CUDA, ROCm and XPU.

## Example
```yaml
model: deepseek-ai/DeepSeek-V2-Lite
tensor-parallel-size: 2
enable-eplb: true
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V2-Lite
tensor-parallel-size: 2
enable-expert-parallel: true
enable-eplb: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    Given,
    add_flag,
    error,
    field_value,
    given_field,
    json_given,
    removal,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC312"
NAME = "eplb-requirements"
VLLM_SOURCE = "vllm/config/parallel.py:570"
CATALOGUE = (
    "parallel.eplb.needs_ep",
    "parallel.eplb.needs_parallel",
    "parallel.redundant_experts",
)

PARALLEL_SOURCE = "vllm/config/parallel.py:579"
REDUNDANT_SOURCE = "vllm/config/parallel.py:587"
CLASS = "ParallelConfig"


def check(model: ConfigModel) -> Iterator[Finding]:
    eplb = given_field(model, CLASS, "enable_eplb")
    if eplb is None or eplb.value is not True:
        redundant = json_given(model, "eplb-config", "num_redundant_experts")
        if redundant is None or redundant.value in (0, None) or redundant.value is False:
            return
        yield error(
            CODE,
            redundant,
            f"num_redundant_experts is set to {redundant.value} but EPLB is not enabled. "
            "Either enable EPLB or unset num_redundant_experts.",
            REDUNDANT_SOURCE,
            [removal(model, redundant)],
        )
        return
    without = without_expert_parallel(CODE, model, eplb, VLLM_SOURCE)
    if without is not None:
        yield without
        return
    tp = field_value(model, CLASS, "tensor_parallel_size")
    pcp = field_value(model, CLASS, "prefill_context_parallel_size")
    dp = field_value(model, CLASS, "data_parallel_size")
    if not all(isinstance(n, int) for n in (tp, pcp, dp)) or tp * pcp * dp > 1:
        return
    yield error(
        CODE,
        eplb,
        f"EPLB requires tensor, prefill-context, or data parallelism, but got TP={tp}, "
        f"PCP={pcp}, DP={dp}. With one rank there are no experts to move: raise one of "
        "`tensor-parallel-size`, `data-parallel-size` or `prefill-context-parallel-size`, "
        "or remove EPLB.",
        PARALLEL_SOURCE,
        [removal(model, eplb)],
    )


def without_expert_parallel(
    code: str, model: ConfigModel, eplb: Given, source: str
) -> Finding | None:
    """EPLB turned on (`eplb`) with expert parallelism off: every release's words."""
    expert = given_field(model, CLASS, "enable_expert_parallel")
    if expert is not None and expert.value is True:
        return None
    fix = add_flag(model, eplb, "enable-expert-parallel", "true") if expert is None else None
    return error(
        code,
        eplb,
        "enable_expert_parallel must be True to use EPLB. Add "
        "`enable-expert-parallel: true` (EPLB balances experts across expert-parallel "
        "ranks).",
        source,
        [fix, removal(model, eplb)],
    )
