"""`mm-tensor-ipc: torch_shm` with more than one GPU worker.

## What vLLM does
`torch_shm` passes multimodal tensors through one shared-memory queue to rank 0, which
cannot serve several data-parallel engines or tensor/pipeline-parallel ranks.
`ModelConfig.verify_with_parallel_config` stops the start of a multimodal model with
`mm_tensor_ipc='torch_shm' is not supported with data_parallel_size > 1 or
tensor_parallel_size > 1 or pipeline_parallel_size > 1.` (vllm/config/model.py:1609-1622)
when the world size across data parallelism exceeds 1. A text-only model has no
multimodal config, so the setting is ignored there.

## Example
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
mm-tensor-ipc: torch_shm
tensor-parallel-size: 2
```

## Fixed
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
tensor-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._model_config import MULTIMODAL_GATE, plain
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC422"
NAME = "torch-shm-world-size"
VLLM_SOURCE = "vllm/config/model.py:1619"
CATALOGUE = ("model.torch_shm.world",)
SIZES = (
    "tensor-parallel-size",
    "pipeline-parallel-size",
    "data-parallel-size",
    "prefill-context-parallel-size",
)


def check(model: ConfigModel) -> Iterator[Finding]:
    ipc = plain(model, "mm-tensor-ipc")
    if ipc is None or ipc.value != "torch_shm":
        return
    world = 1
    for flag in SIZES:
        given = plain(model, flag)
        if given is not None and isinstance(given.value, int) and given.value > 0:
            world *= given.value
    if world <= 1:
        return
    edit = TextEdit(*ipc.span, "direct_rpc")
    yield finding(
        CODE,
        Severity.WARNING,
        ipc.span,
        "mm_tensor_ipc='torch_shm' is not supported with data_parallel_size > 1 or "
        "tensor_parallel_size > 1 or pipeline_parallel_size > 1. Use `direct_rpc` (the "
        f"default) here. {MULTIMODAL_GATE.replace('ignores the setting', 'starts')}",
        source=VLLM_SOURCE,
        fixes=[Fix("Use `direct_rpc`", (edit,), safe=False, preferred=True)],
    )
