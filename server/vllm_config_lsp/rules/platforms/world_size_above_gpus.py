"""`tensor-parallel-size x pipeline-parallel-size` above the GPUs the server gets.

## What vLLM does
`ParallelConfig.__post_init__` picks the executor when `distributed-executor-backend` is
unset (vllm/config/parallel.py:1054-1077): on CUDA with `nnodes` 1 it refuses a world size
(`pipeline x tensor x prefill-context` parallel sizes) above `current_platform.device_count()`,
the GPUs visible to the process: `World size (8) is larger than the number of available
GPUs (4) in this node. If this is intentional and you are using: - ray, set
'--distributed-executor-backend ray'. - multiprocessing, set '--nnodes' appropriately.`
The count is the target's (`# vllm-config: count=`, `--gpus`, a pod's `nvidia.com/gpu`
limit, `#SBATCH --gres`, `CUDA_VISIBLE_DEVICES` on the command line, `docker run --gpus 2`).
ROCm does not check here.

The check comes before any look at Ray: a LeaderWorkerSet group or a Slurm job of several
nodes whose leader starts a Ray cluster (`multi-node-serving.sh leader`, `ray start
--head`) is refused all the same while the backend is left unset. The message then says
what the group holds (`sources.node_groups`), and where the group has the GPUs, the fix
adds `--distributed-executor-backend ray`. Where the host itself asks for the GPUs (a pod's
`nvidia.com/gpu`, a compose device `count`, `docker run --gpus N`), a fix asks for the
world's instead. A world
launched with `--nnodes` (literal or `$(LWS_GROUP_SIZE)`) is `mp` across nodes and not
checked here.

## Example
```yaml
# vllm-config: gpu=H100-80GB count=4
model: Qwen/Qwen3-8B
tensor-parallel-size: 8
```

## Fixed
```yaml
# vllm-config: gpu=H100-80GB count=4
model: Qwen/Qwen3-8B
tensor-parallel-size: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, TextEdit
from vllm_config_lsp.rules._engine import (
    add_option,
    error,
    field_value,
    given_field,
    replace,
)
from vllm_config_lsp.rules._platform import vendor, world_size
from vllm_config_lsp.sources.invocation import NodeGroup
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.hardware import Target

CODE = "VC703"
NAME = "world-size-above-gpus"
VLLM_SOURCE = "vllm/config/parallel.py:1071"
CATALOGUE = ("parallel.world_vs_gpus",)


def check(model: ConfigModel) -> Iterator[Finding]:
    target = model.target
    if target is None or target.count is None or vendor(model) != "nvidia":
        return
    if field_value(model, "ParallelConfig", "distributed_executor_backend") is not None:
        return
    if field_value(model, "ParallelConfig", "nnodes") not in (1, None):
        return
    group, nnodes = target.group, model.flag("nnodes")
    if (nnodes is not None and nnodes.unresolved) or (group and group.launcher == "nnodes"):
        return  # `--nnodes $(LWS_GROUP_SIZE)`: unknown here, and `mp` across nodes above 1
    world = world_size(model)
    if world is None or world <= target.count:
        return
    where = given_field(model, "ParallelConfig", "tensor_parallel_size") or given_field(
        model, "ParallelConfig", "pipeline_parallel_size"
    )
    if where is None:
        return
    fixes = []
    ray = group is not None and group.launcher == "ray"
    if ray and group is not None and (group.gpus is None or world <= group.gpus):
        fixes.append(add_option(model, where, "distributed-executor-backend", "ray"))
    tp = field_value(model, "ParallelConfig", "tensor_parallel_size")
    if where.label.replace("_", "-") == "tensor-parallel-size" and world == tp:
        title = f"Set `{where.assign(target.count)}`"
        fixes.append(replace(model, where, target.count, title, preferred=not fixes))
    more = _more_gpus(model.text, target, world) if group is None else None  # one node
    if more is not None:
        fixes.append(more)
    yield error(
        CODE,
        where,
        f"World size ({world}) is larger than the number of available GPUs ({target.count}) "
        "in this node. If this is intentional and you are using:\n- ray, set "
        "'--distributed-executor-backend ray'.\n- multiprocessing, set '--nnodes' "
        f"appropriately.\n(GPUs per node: {target.count}, from "
        f"{target.count_origin or target.origin}){_group_note(group, world) if ray else ''}",
        VLLM_SOURCE,
        fixes,
    )


def _more_gpus(text: str, target: Target, world: int) -> Fix | None:
    """Where the host itself says how many GPUs the server gets (a pod's `nvidia.com/gpu`,
    a compose device `count`, `#SBATCH --gres`, `docker run --gpus N`), the other way out:
    ask for the world's GPUs there (a decision: the node must have them)."""
    for start, end, origin in target.spans():
        if "# vllm-config" in origin or not 0 <= start < end <= len(text):
            continue  # the marker comment describes the hardware; it asks for nothing
        written = text[start:end]
        bare = written.strip("'\"")
        if bare != str(target.count):
            continue
        inner = start + written.index(bare)
        title = f"Request {world} GPUs ({origin}: {world})"
        return Fix(title, (TextEdit(inner, inner + len(bare), str(world)),), safe=False)
    return None


def _group_note(group: NodeGroup | None, world: int) -> str:
    """What the Ray group the host starts holds, and why vLLM does not use it."""
    if group is None:
        return ""
    held = f"{group.gpus} GPUs, " if group.gpus is not None else ""
    note = (
        f" The host makes {group.nodes} nodes one Ray cluster ({held}from {group.origin}), but "
        "vLLM compares the world with one node's GPUs unless `--distributed-executor-backend "
        "ray` is set"
    )
    if group.gpus is not None and world > group.gpus:
        return f"{note}, and the group's {group.gpus} GPUs cannot hold a world of {world} either."
    return f"{note}: with it, the world spans the group."
