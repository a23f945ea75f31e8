"""The model's weights alone do not fit in `gpu-memory-utilization` of the target GPU.

## What vLLM does
Each GPU worker loads its share of the weights, then gives the KV cache what is left of
`gpu-memory-utilization * total memory` (`request_memory`, vllm/v1/worker/utils.py:724;
vllm/v1/worker/gpu_worker.py:753). When the weights take all of it, nothing is left and the
start stops with `No available memory for the cache blocks. Try increasing
gpu_memory_utilization when initializing the engine …` (vllm/v1/core/kv_cache_planning.py:57);
when they do not even fit in the GPU, loading them fails first with torch's
`CUDA out of memory` error. Both come minutes into the start, after the weights were read.

The weights counted are the checkpoint's tensors (the safetensors index's `total_size`, or
the safetensors headers), divided by `tensor-parallel-size * pipeline-parallel-size`: the
least the busiest GPU can hold. Activations, CUDA graphs and the CUDA context only take
more, so a config this rule flags cannot start on that GPU. The weights decide alone: for a
model whose KV cache's shape is not followed (DeepSeek-V4's compressed attention) the rule
still runs, with no fix proposed (a fix's size depends on the cache). It needs a target (a
`# vllm-config: gpu=… count=…` comment, the editor setting, `--gpu`, or what the same file
says: Kubernetes limits, SLURM, compose) and the checkpoint's files; online quantization
(`quantization:` other than the checkpoint's) is not followed. The finding sits on the
model (the weights are the checkpoint's, whatever `max-model-len` says), with the statement
of the target GPU beside it where the file makes one.

## Example
```yaml
# vllm-config: gpu=H100-80GB count=1
model: meta-llama/Llama-3.1-70B-Instruct
```

## Fixed
```yaml
# vllm-config: gpu=H100-80GB count=4
model: meta-llama/Llama-3.1-70B-Instruct
tensor-parallel-size: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Related
from vllm_config_lsp.rules._checkpoint import model_given
from vllm_config_lsp.rules._engine import error
from vllm_config_lsp.rules.memory import fixes, judged, weights_judged
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.memory_budget import NO_MEMORY, gib

CODE = "VC680"
NAME = "weights-exceed-gpu-memory"
VLLM_SOURCE = "vllm/v1/core/kv_cache_planning.py:57"


def check(model: ConfigModel) -> Iterator[Finding]:
    judging = judged(model)
    # where the KV cache's shape is not followed, the weights alone still decide
    alone = weights_judged(model) if judging is None else None
    judging = judging or alone
    if judging is None:
        return
    found, gpu = judging.budget, judging.gpu
    if not found.weights.exact or found.available > 0:
        return
    share = f"{gib(found.weights_per_gpu)} GiB of weights per GPU (from {found.weights.source}"
    share += f", split over {found.shards} GPUs)" if found.shards > 1 else ")"
    if found.weights_per_gpu > gpu.memory_bytes:
        what = (
            f"{share} do not fit in the {gib(gpu.memory_bytes)} GiB of one {gpu.name}: loading "
            "them stops with torch's CUDA out of memory error."
        )
    else:
        what = (
            f"{share} take all of the {gib(found.requested)} GiB that gpu-memory-utilization "
            f"{found.utilization} leaves of one {gpu.name} ({judging.origin}), so vLLM refuses "
            f"the start: {NO_MEMORY}"
        )
    proposed = fixes(model, found) if alone is None else []
    refused = error(CODE, model_given(model), what, VLLM_SOURCE, proposed)
    target = model.target
    if target is not None and target.start >= 0:
        refused.related = (Related(target.start, target.end, f"the target: {target.origin}"),)
    yield refused
