"""A GPU name the table does not know (`# vllm-config: gpu=…`, a node selector, a gres).

## What vLLM does
Nothing: the name is this tool's, or the cluster's. But the checks the hardware decides
(bfloat16, quantization and attention backends per compute capability) need the GPU's
model: with a name the GPU table (`schemas/gpus.json`) does not know they stay silent. The
warning names the closest known GPUs.

## Example
```yaml
# vllm-config: gpu=H1OO-80GB
model: Qwen/Qwen3-8B
```

## Fixed
```yaml
# vllm-config: gpu=H100-80GB
model: Qwen/Qwen3-8B
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.hardware import instance_gpu, suggestions

CODE = "VC700"
NAME = "unknown-gpu"


def check(model: ConfigModel) -> Iterator[Finding]:
    target = model.target
    if target is None or target.gpu is not None or not target.written or target.start < 0:
        return
    if "instance-type" in target.origin and instance_gpu(target.written) is None:
        return  # an instance type without GPUs (or one of another cloud): nothing claimed
    close = suggestions(target.written)
    hint = f" Did you mean {', '.join(close)}?" if close else ""
    yield finding(
        CODE,
        Severity.WARNING,
        (target.start, target.end),
        f"Unknown GPU {target.written!r} ({target.origin}): the checks the hardware decides "
        f"stay off.{hint} Known GPUs are listed in schemas/gpus.json.",
    )
