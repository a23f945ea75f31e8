"""HiSparse on an AMD GPU: `attention-config.hisparse_config`, or the `HiSparseConnector`
that turns it on.

## What vLLM does
`VllmConfig.__post_init__` (vllm/config/vllm.py:1876-1885) gives the attention config a
HiSparse config when the KV transfer config has a `HiSparseConnector`, then refuses HiSparse
off NVIDIA CUDA: `HiSparse currently requires NVIDIA CUDA.`

## Example
```yaml
# vllm-config: gpu=MI300X
model: deepseek-ai/DeepSeek-V3.2-Exp
kv-transfer-config:
  kv_connector: HiSparseConnector
  kv_role: kv_both
  kv_connector_extra_config:
    host_pool_gib: 64
```

## Fixed
```yaml
# vllm-config: gpu=H200
model: deepseek-ai/DeepSeek-V3.2-Exp
kv-transfer-config:
  kv_connector: HiSparseConnector
  kv_role: kv_both
  kv_connector_extra_config:
    host_pool_gib: 64
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, hisparse_on
from vllm_config_lsp.rules._platform import on_target, vendor
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC710"
NAME = "hisparse-cuda"
VLLM_SOURCE = "vllm/config/vllm.py:1885"
CATALOGUE = ("vllm.hisparse.cuda",)


def check(model: ConfigModel) -> Iterator[Finding]:
    if vendor(model) != "amd":
        return
    where = hisparse_on(model)
    if where is None:
        return
    yield error(
        CODE, where, "HiSparse currently requires NVIDIA CUDA." + on_target(model), VLLM_SOURCE
    )
