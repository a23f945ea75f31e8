"""Elastic expert parallelism with an external or hybrid data-parallel load balancer,
which vLLM 0.17.1-0.32.0 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC829`),
`ParallelConfig.__post_init__` with `enable_elastic_ep` (after EPLB on and no pipeline
parallelism, VC318) refuses either load-balancing mode: "Elastic EP is not compatible
with data_parallel_external_lb or data_parallel_hybrid_lb. Elastic EP relies on a single
API server and core client to coordinate scale up/down." (a `NotImplementedError`,
vllm/config/parallel.py:963-968 in 0.32.0). External LB is on with
`data-parallel-external-lb` or a `data-parallel-rank`; hybrid LB with
`data-parallel-hybrid-lb` unless `data-parallel-size-local` equals the DP size, which
turns it off (`EngineArgs.create_engine_config`; a local size of 1 switches it to external
LB, and no local size is refused as a launch error). 0.33.0 allows external LB and
refuses only hybrid LB (VC318).

## Example
```yaml
# vllm-config: version=0.32.0
model: deepseek-ai/DeepSeek-V2-Lite
data-parallel-size: 2
data-parallel-rank: 0
data-parallel-external-lb: true
enable-expert-parallel: true
enable-eplb: true
enable-elastic-ep: true
```

## Fixed
```yaml
# vllm-config: version=0.32.0
model: deepseek-ai/DeepSeek-V2-Lite
data-parallel-size: 2
enable-expert-parallel: true
enable-eplb: true
enable-elastic-ep: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    Given,
    above_one,
    error,
    field_value,
    given,
    is_int,
    switched_on,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC829"
NAME = "elastic-ep-external-lb-0-32"
#: Gone from the release the other rules transcribe: read from 0.32.0, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.32.0"
VLLM_SOURCE = "vllm/config/parallel.py:964"


def _load_balancer(model: ConfigModel) -> Given | None:
    """The setting that leaves vLLM with external or hybrid DP load balancing (or refused
    for its launch options, which also stops it)."""
    external = switched_on(model, "data-parallel-external-lb")
    if external is not None:
        return external
    rank = given(model, "data-parallel-rank")
    if rank is not None and rank.value is not None:
        return rank
    hybrid = switched_on(model, "data-parallel-hybrid-lb")
    if hybrid is None:
        return None
    local = given(model, "data-parallel-size-local")
    dp = field_value(model, "ParallelConfig", "data_parallel_size")
    if local is None or not is_int(local.value) or not is_int(dp) or local.value == dp:
        return None  # one node holds every rank: vLLM turns hybrid LB off
    return hybrid


def check(model: ConfigModel) -> Iterator[Finding]:
    if switched_on(model, "enable-elastic-ep") is None:
        return
    if switched_on(model, "enable-eplb") is None:
        return  # refused first: elastic EP needs EPLB (VC318)
    if above_one(model, "ParallelConfig", "pipeline_parallel_size") is not None:
        return  # refused first: pipeline parallelism (VC318)
    lb = _load_balancer(model)
    if lb is None:
        return
    yield error(
        CODE,
        lb,
        "Elastic EP is not compatible with data_parallel_external_lb or "
        "data_parallel_hybrid_lb. Elastic EP relies on a single API server and core client "
        f"to coordinate scale up/down. (vLLM {model.version} raises this as "
        f"NotImplementedError: remove `{lb.label}` and let one API server balance.)",
        VLLM_SOURCE,
    )
