"""`compilation-config.cudagraph_mode` is not a CUDA-graph mode; vLLM stops with a bare
KeyError.

## What vLLM does
`CompilationConfig.validate_cudagraph_mode_before` looks a text value up with
`CUDAGraphMode[value.upper()]` (vllm/config/compilation.py:874-879). An unknown name raises
a `KeyError`, which pydantic does not wrap: `vllm serve` ends with a traceback whose only
message is the upper-cased name in quotes (e.g. `'FULLL'`), while the arguments are parsed.
Valid names: NONE, PIECEWISE, FULL, FULL_DECODE_ONLY, FULL_AND_PIECEWISE (any case).

## Example
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  cudagraph_mode: full_piecewise
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  cudagraph_mode: FULL_AND_PIECEWISE
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import enum_names, name_fixes, unknown_name
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC402"
NAME = "cudagraph-mode-name"
VLLM_SOURCE = "vllm/config/compilation.py:878"
CATALOGUE = ("compilation.cudagraph_mode.name",)


def check(model: ConfigModel) -> Iterator[Finding]:
    names = enum_names(model, "CUDAGraphMode")
    hit = unknown_name(model, names, "compilation-config", "cudagraph_mode")
    if hit is None:
        return
    written, where = hit
    yield finding(
        CODE,
        Severity.ERROR,
        where,
        f"KeyError: '{written.upper()}': vLLM looks `cudagraph_mode` up as CUDAGraphMode[...] "
        "and stops with this bare KeyError (no other message). Valid modes: "
        f"{', '.join(names)} (any case).",
        source=VLLM_SOURCE,
        fixes=name_fixes(where, written, names),
    )
