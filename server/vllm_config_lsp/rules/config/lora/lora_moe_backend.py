"""LoRA is enabled with a MegaMoE backend, which cannot apply adapters.

## What vLLM does
`LoRAConfig.verify_with_kernel_config` stops the start with `LoRA is not supported with
moe_backend='X'. Disable LoRA or select a MoE backend that supports LoRA.`
(vllm/config/lora.py:138-145, called from vllm/config/vllm.py:1592) for the megakernel
backends `deep_gemm_mega_moe`, `flashinfer_moe_ep_cutedsl`,
`flashinfer_moe_ep_mega_deep_gemm` and `aiter_mega_moe`.

## Example
```yaml
model: deepseek-ai/DeepSeek-V3
enable-lora: true
moe-backend: deep_gemm_mega_moe
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V3
enable-lora: true
moe-backend: deep_gemm
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import either, plain
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC431"
NAME = "lora-moe-backend"
VLLM_SOURCE = "vllm/config/lora.py:142"
CATALOGUE = ("lora.mega_moe",)
#: MEGA_MOE_BACKENDS | {"aiter_mega_moe"} (vllm/config/kernel.py:153-170, lora.py:141).
NO_LORA = (
    "deep_gemm_mega_moe",
    "flashinfer_moe_ep_cutedsl",
    "flashinfer_moe_ep_mega_deep_gemm",
    "aiter_mega_moe",
)


def check(model: ConfigModel) -> Iterator[Finding]:
    enabled = plain(model, "enable-lora")
    backend = either(model, "moe-backend", "kernel-config", "moe_backend")
    if enabled is None or enabled.value is not True or backend is None:
        return
    if backend.value not in NO_LORA:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        backend.span,
        f"LoRA is not supported with moe_backend={backend.value!r}. Disable LoRA or select "
        "a MoE backend that supports LoRA.",
        source=VLLM_SOURCE,
    )
