"""CUDA-graph capture sizes that cannot be used while CUDA graphs are on.

## What vLLM does
On platforms with static graphs (CUDA, ROCm), `VllmConfig._set_cudagraph_sizes`
(vllm/config/vllm.py:2398-2656) runs unless `enforce-eager` or a final cudagraph mode of
NONE, and stops at:
- `max_cudagraph_capture_size` (capped by `max-num-batched-tokens`) below 1 (an assertion);
- an empty `cudagraph_capture_sizes` list (an assertion);
- both `max_cudagraph_capture_size` and `cudagraph_capture_sizes` given, with the maximum
  not equal to the largest listed size that fits in `max-num-batched-tokens`.
To disable graphs, use `cudagraph_mode: NONE` or `enforce-eager`. With the cudagraph mode
left to vLLM, graphs are on by default but the model or platform may turn them off, so
those cases are warnings.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
compilation-config:
  cudagraph_mode: FULL_AND_PIECEWISE
  cudagraph_capture_sizes: [1, 2, 4, 8, 16]
  max_cudagraph_capture_size: 32
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
compilation-config:
  cudagraph_mode: FULL_AND_PIECEWISE
  cudagraph_capture_sizes: [1, 2, 4, 8, 16]
  max_cudagraph_capture_size: 16
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    compilation_field,
    cuda_graphs,
    error,
    given_field,
    is_int,
    removal,
    replace,
    warning,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC338"
NAME = "cudagraph-capture-sizes"
VLLM_SOURCE = "vllm/config/vllm.py:2554"
CATALOGUE = ("vllm.cg.max_size_positive", "vllm.cg.sizes_nonempty", "vllm.cg.max_vs_sizes")

SIZES_SOURCE = "vllm/config/vllm.py:2561"
CONSISTENT_SOURCE = "vllm/config/vllm.py:2619"
#: The smallest default of max-num-batched-tokens (vllm/config/scheduler.py:48); sizes up
#: to it survive the filter whatever the platform default.
SMALLEST_DEFAULT_BATCHED = 2048
MAYBE = (
    " (CUDA graphs are on by default; this applies unless the model or platform turns them off.)"
)


def check(model: ConfigModel) -> Iterator[Finding]:
    state, _ = cuda_graphs(model)
    if state == "off":
        return
    report = error if state == "on" else warning
    note = "" if state == "on" else MAYBE
    largest = compilation_field(model, "max_cudagraph_capture_size")
    sizes = compilation_field(model, "cudagraph_capture_sizes")
    batched = given_field(model, "SchedulerConfig", "max_num_batched_tokens")
    if largest is not None and is_int(largest.value) and largest.value < 1:
        yield report(
            CODE,
            largest,
            "Maximum cudagraph size should be greater than or equal to 1 when using cuda "
            "graph. To turn CUDA graphs off, use `cudagraph_mode: NONE` or `enforce-eager`." + note,
            VLLM_SOURCE,
            [removal(model, largest)],
        )
        return
    if sizes is None or not isinstance(sizes.value, list):
        return
    if not sizes.value:
        yield report(
            CODE,
            sizes,
            "cudagraph_capture_sizes should contain at least one element when using cuda "
            "graph. Remove it to use vLLM's sizes, or use `cudagraph_mode: NONE`." + note,
            SIZES_SOURCE,
            [removal(model, sizes)],
        )
        return
    if largest is None or not is_int(largest.value):
        return
    values = [size for size in sizes.value if is_int(size)]
    if batched is not None and is_int(batched.value):
        limit = batched.value
    elif values and max(values) <= SMALLEST_DEFAULT_BATCHED:
        limit = SMALLEST_DEFAULT_BATCHED
    else:
        return  # the default max-num-batched-tokens decides which sizes survive
    fitting = [size for size in values if size <= limit]
    valid = max(fitting) if fitting else 0
    if largest.value != valid:
        yield report(
            CODE,
            largest,
            f"customized max_cudagraph_capture_size(={largest.value}) should be consistent "
            f"with the max value of cudagraph_capture_sizes(={valid})" + note,
            CONSISTENT_SOURCE,
            [replace(model, largest, valid, f"Use {valid}")] if valid else [],
        )
