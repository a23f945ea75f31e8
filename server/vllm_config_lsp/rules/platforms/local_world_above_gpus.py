"""A multi-node launch (`nnodes`) whose share of the world is more than one node's GPUs.

## What vLLM does
With `nnodes` above 1 on CUDA and the executor backend unset (or `mp`), every node starts
`world size / nnodes` workers (`ParallelConfig.local_world_size`,
vllm/config/parallel.py:839), local ranks 0, 1, … of that node. Each worker takes the GPU of
its local rank; without `--device-ids` it first asserts that the rank is a GPU the node has
(vllm/v1/worker/gpu_worker.py:487): `DP adjusted local rank 4 is out of bounds for 4
devices.` The config check of VC703 is skipped for such a launch (it is `mp` across nodes),
so this is where a world too large for its nodes stops. The node count is `nnodes`, or the
group's when the host passes it in a variable (`--nnodes $(LWS_GROUP_SIZE)` in a
LeaderWorkerSet, `sources.node_groups`); the GPUs per node are the target's. Only a launch
without data parallelism is judged (with it, the nodes split between the DP ranks).

## Example
```yaml
# vllm-config: gpu=H100-80GB count=4
model: Qwen/Qwen3-8B
tensor-parallel-size: 16
nnodes: 2
```

## Fixed
```yaml
# vllm-config: gpu=H100-80GB count=4
model: Qwen/Qwen3-8B
tensor-parallel-size: 8
nnodes: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, field_value, given_field, is_int, replace
from vllm_config_lsp.rules._platform import vendor, world_size
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC712"
NAME = "local-world-above-gpus"
VLLM_SOURCE = "vllm/v1/worker/gpu_worker.py:487"


def _nodes(model: ConfigModel) -> tuple[int, str] | None:
    """The nodes of the launch and where they are said: `nnodes`, else the group's when
    `--nnodes` holds a variable the host fills."""
    nnodes = given_field(model, "ParallelConfig", "nnodes")
    if nnodes is not None and is_int(nnodes.value):
        return nnodes.value, f"`{nnodes.label}`"
    flag = model.flag("nnodes")
    group = model.target.group if model.target is not None else None
    if flag is not None and flag.unresolved and group is not None and group.launcher == "nnodes":
        return group.nodes, group.origin
    return None


def check(model: ConfigModel) -> Iterator[Finding]:
    target = model.target
    if target is None or target.count is None or vendor(model) != "nvidia":
        return
    if field_value(model, "ParallelConfig", "distributed_executor_backend") not in (None, "mp"):
        return
    if field_value(model, "ParallelConfig", "data_parallel_size") not in (1, None):
        return
    if given_field(model, "ParallelConfig", "device_ids") is not None:
        return
    found, world = _nodes(model), world_size(model)
    if found is None or world is None:
        return
    nodes, said = found
    if nodes <= 1 or world % nodes or world // nodes <= target.count:
        return
    local = world // nodes
    where = given_field(model, "ParallelConfig", "tensor_parallel_size") or given_field(
        model, "ParallelConfig", "pipeline_parallel_size"
    )
    if where is None:
        return
    fixes = []
    room = target.count * nodes
    tp = field_value(model, "ParallelConfig", "tensor_parallel_size")
    if where.label.replace("_", "-") == "tensor-parallel-size" and world == tp:
        fixes.append(replace(model, where, room, f"Set `{where.assign(room)}`"))
    yield error(
        CODE,
        where,
        f"DP adjusted local rank {target.count} is out of bounds for {target.count} devices. "
        f"(world size {world} over {nodes} nodes, from {said}: {local} workers on each node, "
        f"which has {target.count} GPUs, from {target.count_origin or target.origin})",
        VLLM_SOURCE,
        fixes,
    )
