"""With `cudagraph_mm_encoder` on, a negative `encoder_cudagraph_max_images_per_batch`,
which vLLM 0.19.1 refuses.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC366`),
`CompilationConfig.__post_init__` refuses a negative image limit for the encoder's CUDA
graphs when `cudagraph_mm_encoder` is true: "encoder_cudagraph_max_images_per_batch must be
non-negative (0 = auto-infer)" (vllm/config/compilation.py:954-962 in 0.19.1), while the
arguments are parsed. Later releases count vision items instead
(`encoder_cudagraph_max_vision_items_per_batch`, VC406).

## Example
```yaml
# vllm-config: version=0.19.1
model: Qwen/Qwen2.5-VL-7B-Instruct
compilation-config: '{"cudagraph_mm_encoder": true, "encoder_cudagraph_max_images_per_batch": -1}'
```

## Fixed
```yaml
# vllm-config: version=0.19.1
model: Qwen/Qwen2.5-VL-7B-Instruct
compilation-config: '{"cudagraph_mm_encoder": true, "encoder_cudagraph_max_images_per_batch": 0}'
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import compilation_field, error
from vllm_config_lsp.rules._model_config import as_bool, as_number
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC366"
NAME = "encoder-cudagraph-images-0-19"
#: Gone from the release the other rules transcribe: read from 0.19.1, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.19.1"
VLLM_SOURCE = "vllm/config/compilation.py:959"


def check(model: ConfigModel) -> Iterator[Finding]:
    switch = compilation_field(model, "cudagraph_mm_encoder")
    limit = compilation_field(model, "encoder_cudagraph_max_images_per_batch")
    if switch is None or not as_bool(switch.value) or limit is None:
        return
    number = as_number(limit.value)
    if number is None or number >= 0:
        return
    yield error(
        CODE,
        limit,
        "encoder_cudagraph_max_images_per_batch must be non-negative (0 = auto-infer): "
        f"vLLM {model.version} refuses to start; give 0 (vLLM picks the limit) or a "
        "positive number of images.",
        VLLM_SOURCE,
    )
