"""The `moonep` all2all backend with a model or setting it cannot serve.

## What vLLM does
With `all2all-backend: moonep`, `VllmConfig.__post_init__` (vllm/config/vllm.py:2106-2140)
refuses, in this order: any quantization, a model dtype other than bfloat16, EPLB, and an
expert placement other than `linear`. MoonEP replicates expert weights in a BF16 layout and
gathers them at load time assuming each rank owns a contiguous range of experts. A
quantization or dtype left to the checkpoint is decided by the model, so only the values
the file writes are checked.

## Example
```yaml
model: moonshotai/Kimi-K2-Instruct
all2all-backend: moonep
expert-placement-strategy: round_robin
```

## Fixed
```yaml
model: moonshotai/Kimi-K2-Instruct
all2all-backend: moonep
expert-placement-strategy: linear
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given, given_field, removal, replace, switched_on
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC332"
NAME = "moonep-requirements"
VLLM_SOURCE = "vllm/config/vllm.py:2111"
CATALOGUE = ("vllm.moonep.quant", "vllm.moonep.bf16", "vllm.moonep.eplb", "vllm.moonep.placement")

DTYPE_SOURCE = "vllm/config/vllm.py:2121"
EPLB_SOURCE = "vllm/config/vllm.py:2127"
PLACEMENT_SOURCE = "vllm/config/vllm.py:2134"
BF16 = ("bfloat16",)


def check(model: ConfigModel) -> Iterator[Finding]:
    backend = given_field(model, "ParallelConfig", "all2all_backend")
    if backend is None or backend.value != "moonep":
        return
    quantization = given(model, "quantization")
    if quantization is not None and quantization.value is not None:
        yield error(
            CODE,
            quantization,
            "The moonep all2all backend currently supports unquantized BF16 models only; "
            f"got quantization={quantization.value!r}. Use a different --all2all-backend "
            "for quantized models.",
            VLLM_SOURCE,
            [removal(model, quantization)],
        )
    dtype = given(model, "dtype")
    if dtype is not None and dtype.value not in ("auto", *BF16):
        yield error(
            CODE,
            dtype,
            "The moonep all2all backend currently supports BF16 models only; got "
            f"dtype={dtype.value}. Use a different --all2all-backend or --dtype bfloat16.",
            DTYPE_SOURCE,
            [replace(model, dtype, "bfloat16", "Use `bfloat16`")],
        )
    eplb = switched_on(model, "enable-eplb")
    if eplb is not None:
        yield error(
            CODE,
            eplb,
            "The moonep all2all backend does not support EPLB yet: EPLB rearranges expert "
            "parameters in a layout MoonEP's replicated [E+B] weights do not follow. "
            "Disable --enable-eplb or use a different --all2all-backend.",
            EPLB_SOURCE,
            [removal(model, eplb)],
        )
    placement = given_field(model, "ParallelConfig", "expert_placement_strategy")
    if placement is not None and placement.value != "linear":
        yield error(
            CODE,
            placement,
            "The moonep all2all backend requires linear expert placement: its load-time "
            "all-gather assumes each rank holds a contiguous chunk of the global expert "
            f"range. Got --expert-placement-strategy {placement.value!r}.",
            PLACEMENT_SOURCE,
            [replace(model, placement, "linear", "Use `linear`")],
        )
