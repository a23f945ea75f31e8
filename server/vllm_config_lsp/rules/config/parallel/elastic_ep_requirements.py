"""Elastic expert parallelism without EPLB, with pipeline parallelism or hybrid DP LB,
or with a maximum DP size below the initial one.

## What vLLM does
`ParallelConfig.__post_init__` (vllm/config/parallel.py:974-1046), run when the engine
config is built, with `enable_elastic_ep` refuses: EPLB off (`Elastic EP is only supported
with enable_eplb=True.`, scaling moves experts with EPLB's machinery), pipeline
parallelism, and hybrid data-parallel load balancing (a `NotImplementedError`). It then
refuses an `elastic_ep_max_dp_size` below `data_parallel_size` (the maximum is what the
deployment may grow to, so it starts no larger). `elastic-ep-max-dp-size` is ignored
without elastic EP.

## Example
```yaml
model: deepseek-ai/DeepSeek-V2-Lite
data-parallel-size: 2
enable-expert-parallel: true
enable-elastic-ep: true
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V2-Lite
data-parallel-size: 2
enable-expert-parallel: true
enable-eplb: true
enable-elastic-ep: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import add_flag, error, field_value, given, given_field, is_int
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC318"
NAME = "elastic-ep-requirements"
VLLM_SOURCE = "vllm/config/parallel.py:976"
CATALOGUE = (
    "parallel.elastic.needs_eplb",
    "parallel.elastic.pp",
    "parallel.elastic.hybrid",
    "parallel.elastic_max_dp",
)

PP_SOURCE = "vllm/config/parallel.py:978"
HYBRID_SOURCE = "vllm/config/parallel.py:983"
MAX_DP_SOURCE = "vllm/config/parallel.py:1043"
CLASS = "ParallelConfig"


def check(model: ConfigModel) -> Iterator[Finding]:
    elastic = given_field(model, CLASS, "enable_elastic_ep")
    if elastic is None or elastic.value is not True:
        return
    eplb = given_field(model, CLASS, "enable_eplb")
    if eplb is None or eplb.value is not True:
        fix = add_flag(model, elastic, "enable-eplb", "true") if eplb is None else None
        yield error(
            CODE,
            elastic,
            "Elastic EP is only supported with enable_eplb=True. Add `enable-eplb: true` "
            "(scaling redistributes experts through EPLB).",
            VLLM_SOURCE,
            [fix],
        )
        return
    pp = given_field(model, CLASS, "pipeline_parallel_size")
    if pp is not None and is_int(pp.value) and pp.value > 1:
        yield error(
            CODE,
            pp,
            "Elastic EP is not supported with pipeline parallelism "
            f"(pipeline_parallel_size={pp.value}). Use tensor or data parallelism, or "
            "turn elastic EP off.",
            PP_SOURCE,
        )
        return
    hybrid = given_field(model, CLASS, "data_parallel_hybrid_lb")
    dp = field_value(model, CLASS, "data_parallel_size")
    if hybrid is not None and hybrid.value is True and _stays_hybrid(model, dp):
        yield error(
            CODE,
            hybrid,
            "Elastic EP is not compatible with data_parallel_hybrid_lb. Elastic EP supports "
            "a single API server/core client path or data_parallel_external_lb, but not "
            "hybrid load balancing. (vLLM raises this as NotImplementedError.)",
            HYBRID_SOURCE,
        )
        return
    most = given_field(model, CLASS, "elastic_ep_max_dp_size")
    if most is not None and is_int(most.value) and is_int(dp) and most.value < dp:
        yield error(
            CODE,
            most,
            "--elastic-ep-max-dp-size must be greater than or equal to the initial "
            f"data_parallel_size ({dp}). It is the size the deployment may grow to.",
            MAX_DP_SOURCE,
        )


def _stays_hybrid(model: ConfigModel, dp: object) -> bool:
    """EngineArgs keeps hybrid LB only with a local size that is neither 1 nor the whole
    DP size (vllm/engine/arg_utils.py:2481-2496); other cases are refused or switched."""
    local = given(model, "data-parallel-size-local")
    if local is None or not is_int(local.value) or given(model, "data-parallel-rank"):
        return False
    external = given(model, "data-parallel-external-lb")
    if external is not None and external.value is True:
        return False
    return bool(local.value not in (1, dp))
