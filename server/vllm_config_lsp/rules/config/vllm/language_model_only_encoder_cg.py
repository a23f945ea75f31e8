"""`language-model-only` together with CUDA graphs for the multimodal encoder.

## What vLLM does
For a multimodal model, `VllmConfig.__post_init__` refuses `language-model-only` with
`compilation-config.cudagraph_mm_encoder: true` (vllm/config/vllm.py:1556-1567): the first
disables every multimodal input, so the encoder whose graphs the second asks to capture
never runs. A text-only model has no multimodal config, so vLLM ignores both.

## Example
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
language-model-only: true
compilation-config:
  cudagraph_mm_encoder: true
```

## Fixed
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
language-model-only: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import compilation_field, removal, switched_on, warning
from vllm_config_lsp.rules._model_config import MULTIMODAL_GATE
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC480"
NAME = "language-model-only-encoder-cudagraphs"
VLLM_SOURCE = "vllm/config/vllm.py:1562"
CATALOGUE = ("vllm.lm_only.encoder_cg",)


def check(model: ConfigModel) -> Iterator[Finding]:
    if switched_on(model, "language-model-only") is None:
        return
    encoder = compilation_field(model, "cudagraph_mm_encoder")
    if encoder is None or encoder.value is not True:
        return
    yield warning(
        CODE,
        encoder,
        "--language-model-only is incompatible with cudagraph_mm_encoder=True, since it "
        "disables all multimodal inputs and the multimodal encoder is never run. Please "
        f"disable one of them. {MULTIMODAL_GATE}",
        VLLM_SOURCE,
        [removal(model, encoder)],
    )
