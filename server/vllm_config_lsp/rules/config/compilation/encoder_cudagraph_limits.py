"""With `cudagraph_mm_encoder` on, the encoder CUDA-graph item and frame limits must not be
negative.

## What vLLM does
When `cudagraph_mm_encoder` is true, `CompilationConfig.__post_init__` refuses a negative
`encoder_cudagraph_max_vision_items_per_batch` (`must be non-negative (0 = auto-infer)`)
and a negative `encoder_cudagraph_max_frames_per_batch` (`must be non-negative (None =
auto-infer)`) (vllm/config/compilation.py:1052-1069), while the arguments are parsed.
With `cudagraph_mm_encoder` off the limits are not read.

## Example
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
compilation-config:
  cudagraph_mm_encoder: true
  encoder_cudagraph_max_vision_items_per_batch: -1
```

## Fixed
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
compilation-config:
  cudagraph_mm_encoder: true
  encoder_cudagraph_max_vision_items_per_batch: 0
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import as_bool, as_number, json_given, removal_fix
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC406"
NAME = "encoder-cudagraph-limits"
VLLM_SOURCE = "vllm/config/compilation.py:1058"
CATALOGUE = ("compilation.encoder_cg.max_items", "compilation.encoder_cg.max_frames")
FLAG = "compilation-config"
#: field → (what 0/None means, the raise line)
LIMITS = {
    "encoder_cudagraph_max_vision_items_per_batch": ("0 = auto-infer", VLLM_SOURCE),
    "encoder_cudagraph_max_frames_per_batch": (
        "None = auto-infer",
        "vllm/config/compilation.py:1067",
    ),
}


def check(model: ConfigModel) -> Iterator[Finding]:
    enabled = json_given(model, FLAG, "cudagraph_mm_encoder")
    if enabled is None or not as_bool(enabled.value):
        return
    for field, (auto, source) in LIMITS.items():
        given = json_given(model, FLAG, field)
        number = as_number(given.value) if given is not None else None
        if given is None or number is None or number >= 0:
            continue
        removal = removal_fix(model, given, f"Remove `{field}` (let vLLM infer it)")
        yield finding(
            CODE,
            Severity.ERROR,
            given.span,
            f"{field} must be non-negative ({auto}), got {given.value}.",
            source=source,
            fixes=[removal] if removal else [],
        )
        return  # vLLM stops at the first
