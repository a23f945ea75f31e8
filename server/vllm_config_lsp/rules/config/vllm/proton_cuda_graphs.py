"""The Proton profiler with CUDA graphs left on.

## What vLLM does
With `profiler-config.profiler: proton`, `VllmConfig._validate_profiler_config`
(vllm/config/vllm.py:3265-3300) needs NVIDIA CUDA, then, when CUDA graphs stay on (any
final cudagraph mode but NONE, or encoder CUDA graphs outside eager mode), refuses
`proton_mode: pcsampling` (PC sampling cannot run under graph replay) and, for any other
mode, `proton_graph_attribution` off (the default): replayed kernels would not be
attributed. `enforce-eager` turns CUDA graphs off. When the file leaves the cudagraph mode
to vLLM, graphs are on by default but the model or platform may still disable them, so
that case is a warning.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
compilation-config:
  cudagraph_mode: FULL_AND_PIECEWISE
profiler-config:
  profiler: proton
  proton_profiler_dir: /tmp/proton
  proton_mode: pcsampling
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
enforce-eager: true
profiler-config:
  profiler: proton
  proton_profiler_dir: /tmp/proton
  proton_mode: pcsampling
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    add_flag,
    compilation_field,
    cuda_graphs,
    error,
    json_given,
    replace,
    switched_on,
    warning,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC336"
NAME = "proton-cuda-graphs"
VLLM_SOURCE = "vllm/config/vllm.py:3291"
CATALOGUE = ("vllm.proton.pcsampling", "vllm.proton.graph_attr_needed")

ATTRIBUTION_SOURCE = "vllm/config/vllm.py:3296"
PROFILER = "profiler-config"
MAYBE = " CUDA graphs are on by default; this applies unless the model or platform turns them off."


def check(model: ConfigModel) -> Iterator[Finding]:
    profiler = json_given(model, PROFILER, "profiler")
    if profiler is None or profiler.value != "proton":
        return
    state, _ = cuda_graphs(model)
    encoder = compilation_field(model, "cudagraph_mm_encoder")
    if state == "off" and (encoder is None or encoder.value is not True):
        return
    if switched_on(model, "enforce-eager") is not None:
        return  # only encoder graphs could remain, and eager mode turns those off too
    report = error if state == "on" else warning
    note = "" if state == "on" else MAYBE
    mode = json_given(model, PROFILER, "proton_mode")
    if (
        mode is not None
        and isinstance(mode.value, str)
        and mode.value.split(":", 1)[0].lower() == "pcsampling"
    ):
        yield report(
            CODE,
            mode,
            "Proton PC sampling requires CUDA graphs to be disabled. Use --enforce-eager." + note,
            VLLM_SOURCE,
            [add_flag(model, profiler, "enforce-eager", "true")],
        )
        return
    attribution = json_given(model, PROFILER, "proton_graph_attribution")
    if attribution is not None and attribution.value is True:
        return
    yield report(
        CODE,
        attribution or profiler,
        "Proton profiling with CUDA graphs requires proton_graph_attribution=True to "
        "capture replayed kernels. Enable attribution or use --enforce-eager." + note,
        ATTRIBUTION_SOURCE,
        [replace(model, attribution, True, "Set `proton_graph_attribution: true`")]
        if attribution is not None
        else [add_flag(model, profiler, "enforce-eager", "true")],
    )
