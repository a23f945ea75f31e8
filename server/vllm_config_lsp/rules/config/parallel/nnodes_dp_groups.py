"""`nnodes` that does not split into whole data-parallel node groups.

## What vLLM does
For a multi-node launch with internal load balancing, `ParallelConfig.nnodes_within_dp`
(vllm/config/parallel.py:811-836), read when the multiprocess executor starts, divides
the nodes among `data-parallel-size / data-parallel-size-local` groups and refuses an
`nnodes` that is not a multiple of that count. `data-parallel-size-local` left unset is
inferred as max(world size / nnodes / (TP x PP x PCP), 1)
(vllm/engine/arg_utils.py:2442-2446). External load balancing pins it instead.

## Example
```yaml
model: Qwen/Qwen3-30B-A3B
nnodes: 3
pipeline-parallel-size: 3
data-parallel-size: 2
```

## Fixed
```yaml
model: Qwen/Qwen3-30B-A3B
nnodes: 2
pipeline-parallel-size: 3
data-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, field_value, given, given_field, is_int
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC345"
NAME = "nnodes-dp-groups"
VLLM_SOURCE = "vllm/config/parallel.py:828"
CATALOGUE = ("parallel.nnodes_dp_groups",)


def check(model: ConfigModel) -> Iterator[Finding]:
    nnodes = given(model, "nnodes")
    if nnodes is None or not is_int(nnodes.value) or nnodes.value <= 1:
        return
    external = field_value(model, "ParallelConfig", "data_parallel_external_lb")
    rank = given(model, "data-parallel-rank")
    if external is True or (rank is not None and rank.value is not None):
        return
    sizes = [
        field_value(model, "ParallelConfig", name)
        for name in (
            "data_parallel_size",
            "tensor_parallel_size",
            "pipeline_parallel_size",
            "prefill_context_parallel_size",
        )
    ]
    if not all(is_int(size) and size >= 1 for size in sizes):
        return
    dp, tp, pp, pcp = sizes
    within_dp = tp * pp * pcp
    world = dp * within_dp
    if world % nnodes.value != 0:
        return  # refused earlier by the launch checks (VC514)
    local = given_field(model, "ParallelConfig", "data_parallel_size_local")
    inferred = max(world // nnodes.value // within_dp, 1)
    dp_local = local.value if local is not None else inferred
    if not is_int(dp_local) or dp_local < 1 or dp_local > dp:
        return
    groups = dp // dp_local
    if nnodes.value % groups == 0:
        return
    yield error(
        CODE,
        nnodes,
        f"Invalid data parallel configuration: nnodes ({nnodes.value}) must be divisible by "
        f"the number of data parallel node groups ({groups} = data_parallel_size {dp} / "
        f"data_parallel_size_local {dp_local}). vLLM raises this when the executor starts.",
        VLLM_SOURCE,
    )
