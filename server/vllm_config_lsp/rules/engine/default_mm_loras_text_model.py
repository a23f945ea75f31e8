"""`default-mm-loras` for a model that takes no images, audio or video.

## What vLLM does
`default-mm-loras` attaches a LoRA adapter to requests that carry a given modality. A
text-only model has no modalities, and `EngineArgs.create_engine_config` refuses it:
`Default modality-specific LoRA(s) were provided for a non multimodal model`
(vllm/engine/arg_utils.py:2684-2688). Whether the architecture is multimodal comes from
vLLM's model registry (schemas/vllm-0.33.0.models.json).

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
enable-lora: true
default-mm-loras:
  image: ./loras/vision
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
enable-lora: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import error, given_field, removal
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC610"
NAME = "default-mm-loras-text-model"
VLLM_SOURCE = "vllm/engine/arg_utils.py:2686"
CATALOGUE = ("cli.default_mm_loras",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    loras = given_field(model, "LoRAConfig", "default_mm_loras")
    if config is None or loras is None or not loras.value:
        return
    if config.arch_flag("supports_multimodal") is not False:
        return
    yield error(
        CODE,
        loras,
        "Default modality-specific LoRA(s) were provided for a non multimodal model. "
        f"{config.architecture} takes text only.",
        VLLM_SOURCE,
        [removal(model, loras)],
    )
