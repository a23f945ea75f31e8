"""One request of `max-model-len` tokens needs more KV cache than the target GPU has left.

## What vLLM does
Once the weights are loaded and the activations profiled, vLLM checks that the KV cache
can hold at least one request of `max-model-len` tokens (`max-model-len` unset: the model's
whole context from config.json) and otherwise refuses the start with `To serve at least one
request with the model's max seq len (131072), (20.0 GiB KV cache is needed, which is larger
than the available KV cache memory (7.56 GiB). Based on the available memory, the estimated
maximum model length is 49568. Try increasing gpu_memory_utilization … or decreasing
max_model_len …` (`_check_enough_kv_cache_memory`, vllm/v1/core/kv_cache_planning.py:78;
the figures of the example below in the best case, vLLM's own are lower).

What one request needs is summed over the layers as vLLM's KV-cache specs size them (full
attention `2 * KV heads * head size` bytes per token and layer, MLA one latent, sliding
windows capped at the window, Mamba one state per sequence; `kv-cache-dtype` and
`block-size` included; KV heads split by `tensor-parallel-size`, layers by
`pipeline-parallel-size`). What is left is `gpu-memory-utilization * memory` less the
weights per GPU, before activations and CUDA graphs take their share: vLLM's own figure is
lower still, so a config flagged here cannot start. The fixes are vLLM's estimate of the
longest `max-model-len` that fits (found by the same binary search), the smallest
`gpu-memory-utilization` that fits (at most 0.99), and the smallest `tensor-parallel-size`
that fits and divides the attention heads. Needs a target GPU and the model's config.json.

## Example
```yaml
# vllm-config: gpu=H100-80GB count=2
model: meta-llama/Llama-3.1-70B-Instruct
tensor-parallel-size: 2
```

## Fixed
```yaml
# vllm-config: gpu=H100-80GB count=2
model: meta-llama/Llama-3.1-70B-Instruct
tensor-parallel-size: 2
max-model-len: 32768
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error
from vllm_config_lsp.rules.memory import at_best, fixes, judged
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.memory_budget import LEAVES_OUT, gib, refusal

CODE = "VC681"
NAME = "kv-cache-exceeds-gpu-memory"
VLLM_SOURCE = "vllm/v1/core/kv_cache_planning.py:78"


def check(model: ConfigModel) -> Iterator[Finding]:
    judging = judged(model)
    if judging is None:
        return
    found = judging.budget
    best = at_best(found)
    if best.available <= 0 or best.fits:
        return  # nothing left at all is VC680's
    longest = best.longest_fitting()
    weights = (
        f"{gib(best.weights_per_gpu)} GiB of weights per GPU"
        if best.weights.exact
        else "the weights (not counted: no safetensors at hand)"
    )
    message = (
        f"{refusal(best.max_len, best.needed, best.available, longest)} On one "
        f"{judging.gpu.name} ({judging.origin}) the KV cache gets at most "
        f"gpu-memory-utilization {best.utilization} * {gib(best.memory)} GiB less {weights} "
        f"({LEAVES_OUT}, which only lower it)."
    )
    yield error(CODE, judging.where, message, VLLM_SOURCE, fixes(model, found, longest))
