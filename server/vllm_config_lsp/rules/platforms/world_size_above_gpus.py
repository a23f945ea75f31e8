"""`tensor-parallel-size x pipeline-parallel-size` above the GPUs the server gets.

## What vLLM does
`ParallelConfig.__post_init__` picks the executor when `distributed-executor-backend` is
unset (vllm/config/parallel.py:1054-1077): on CUDA with `nnodes` 1 it refuses a world size
(`pipeline x tensor x prefill-context` parallel sizes) above `current_platform.device_count()`,
the GPUs visible to the process: `World size (8) is larger than the number of available
GPUs (4) in this node. If this is intentional and you are using: - ray, set
'--distributed-executor-backend ray'. - multiprocessing, set '--nnodes' appropriately.`
The count is the target's (`# vllm-config: count=`, `--gpus`, a pod's `nvidia.com/gpu`
limit, `#SBATCH --gres`, `CUDA_VISIBLE_DEVICES` on the command line). ROCm does not check
here.

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

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, field_value, given_field, is_int, replace
from vllm_config_lsp.rules._platform import vendor
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC703"
NAME = "world-size-above-gpus"
VLLM_SOURCE = "vllm/config/parallel.py:1071"
CATALOGUE = ("parallel.world_vs_gpus",)

_SIZES = ("pipeline_parallel_size", "tensor_parallel_size", "prefill_context_parallel_size")


def check(model: ConfigModel) -> Iterator[Finding]:
    target = model.target
    if target is None or target.count is None or vendor(model) != "nvidia":
        return
    if field_value(model, "ParallelConfig", "distributed_executor_backend") is not None:
        return
    if field_value(model, "ParallelConfig", "nnodes") not in (1, None):
        return
    sizes = {name: field_value(model, "ParallelConfig", name) for name in _SIZES}
    if not all(is_int(size) and size >= 1 for size in sizes.values()):
        return
    world = 1
    for size in sizes.values():
        world *= size
    if world <= target.count:
        return
    where = given_field(model, "ParallelConfig", "tensor_parallel_size") or given_field(
        model, "ParallelConfig", "pipeline_parallel_size"
    )
    if where is None:
        return
    fixes = []
    if where.label.replace("_", "-") == "tensor-parallel-size" and world == sizes[_SIZES[1]]:
        fixes.append(replace(model, where, target.count, f"Set `{where.label}: {target.count}`"))
    yield error(
        CODE,
        where,
        f"World size ({world}) is larger than the number of available GPUs ({target.count}) "
        "in this node. If this is intentional and you are using: - ray, set "
        "'--distributed-executor-backend ray'. - multiprocessing, set '--nnodes' "
        f"appropriately. (GPUs per node: {target.count}, from "
        f"{target.count_origin or target.origin})",
        VLLM_SOURCE,
        fixes,
    )
