"""What the platform rules read: the target's GPU as vLLM's `current_platform` sees it."""

from __future__ import annotations

from vllm_config_lsp.rules._engine import field_value, is_int
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.hardware import Gpu


def target_gpu(model: ConfigModel) -> Gpu | None:
    """The GPU the file runs on, when the target names one the table knows."""
    return model.target.gpu if model.target is not None else None


def vendor(model: ConfigModel) -> str | None:
    """ "nvidia" (`current_platform.is_cuda()`) or "amd" (`is_rocm()`), when known."""
    return model.target.vendor if model.target is not None else None


def capability(model: ConfigModel) -> tuple[int, int] | None:
    """`current_platform.get_device_capability()` of the target's GPU."""
    gpu = target_gpu(model)
    return gpu.device_capability if gpu is not None else None


def as_int(capability: tuple[int, int]) -> int:
    """`DeviceCapability.to_int()`: (8, 9) → 89."""
    return capability[0] * 10 + capability[1]


def on_target(model: ConfigModel) -> str:
    """Where the target was read, for messages: ` (target: T4, from --gpu)`."""
    target = model.target
    if target is None:
        return ""
    name = target.gpu.name if target.gpu is not None else target.written or "GPUs"
    return f" (target: {name}, from {target.origin})"


def world_gpus(model: ConfigModel) -> int | None:
    """The GPUs one instance's world may take: the node's, or its group's where the host
    makes several nodes one instance (`sources.node_groups`) and vLLM spans them: a Ray
    group with `--distributed-executor-backend ray` (without it vLLM 0.20.2 on keeps the
    world on one node, VC703), or vLLM's own `--nnodes` launch."""
    target = model.target
    if target is None:
        return None
    group = target.group
    if group is None or group.gpus is None:
        return target.count
    backend = field_value(model, "ParallelConfig", "distributed_executor_backend")
    if group.launcher == "nnodes" or (group.launcher == "ray" and backend == "ray"):
        return group.gpus
    return target.count


#: The sizes whose product is `ParallelConfig.world_size` (vllm/config/parallel.py).
WORLD_SIZES = ("pipeline_parallel_size", "tensor_parallel_size", "prefill_context_parallel_size")


def world_size(model: ConfigModel) -> int | None:
    """`pipeline x tensor x prefill-context` parallel sizes; None when one is not a
    positive integer."""
    sizes = [field_value(model, "ParallelConfig", name) for name in WORLD_SIZES]
    if not all(is_int(size) and size >= 1 for size in sizes):
        return None
    return int(sizes[0] * sizes[1] * sizes[2])
