"""`enable-lora` for a model class that cannot take LoRA adapters.

## What vLLM does
LoRA needs the model class to declare which layers adapters attach to (the `SupportsLoRA`
interface). `LoRAConfig.verify_with_model_config` refuses the start otherwise: `LoRA is not
supported for MambaForCausalLM (…). Supported models implement the SupportsLoRA interface.
Run this model without enable_lora.` (vllm/config/lora.py:147-155). Which classes support
it comes from vLLM's model registry and model sources (schemas/vllm-0.33.0.models.json).

## Example
```yaml
model: state-spaces/mamba-130m-hf
enable-lora: true
```

## Fixed
```yaml
model: state-spaces/mamba-130m-hf
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import error, given, removal
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC618"
NAME = "lora-unsupported-model"
VLLM_SOURCE = "vllm/config/lora.py:150"
CATALOGUE = ("lora.model_support",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    lora = given(model, "enable-lora")
    if config is None or lora is None or lora.value is not True:
        return
    if config.arch_flag("supports_lora") is not False:
        return
    yield error(
        CODE,
        lora,
        f"LoRA is not supported for {config.architecture} ({config.where.name}). Supported "
        "models implement the `SupportsLoRA` interface. Run this model without "
        "`enable_lora`.",
        VLLM_SOURCE,
        [removal(model, lora)],
    )
