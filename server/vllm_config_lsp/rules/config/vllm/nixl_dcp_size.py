"""NIXL P/D with a decode context parallel size that is neither 1 nor the transfer size.

## What vLLM does
With a `NixlConnector` (directly or in a MultiConnector), `VllmConfig.__post_init__`
asserts that `decode-context-parallel-size` is 1 or equal to the NIXL transfer parallel
size, max(`tensor-parallel-size`, `prefill-context-parallel-size`)
(vllm/config/vllm.py:1571-1585): a NIXL side is either fully replicated or fully
DCP-sharded, so the KV blocks map one to one between prefill and decode ranks.

## Example
```yaml
model: deepseek-ai/DeepSeek-V3
tensor-parallel-size: 4
decode-context-parallel-size: 2
kv-transfer-config:
  kv_connector: NixlConnector
  kv_role: kv_both
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V3
tensor-parallel-size: 4
decode-context-parallel-size: 4
kv-transfer-config:
  kv_connector: NixlConnector
  kv_role: kv_both
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import above_one, connector, error, field_value, is_int, replace
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC341"
NAME = "nixl-dcp-size"
VLLM_SOURCE = "vllm/config/vllm.py:1582"
CATALOGUE = ("vllm.nixl.dcp",)


def check(model: ConfigModel) -> Iterator[Finding]:
    if connector(model, "NixlConnector") is None:
        return
    dcp = above_one(model, "ParallelConfig", "decode_context_parallel_size")
    tp = field_value(model, "ParallelConfig", "tensor_parallel_size")
    pcp = field_value(model, "ParallelConfig", "prefill_context_parallel_size")
    if dcp is None or not is_int(tp) or not is_int(pcp):
        return
    transfer = max(tp, pcp)
    if dcp.value == transfer:
        return
    yield error(
        CODE,
        dcp,
        f"decode_context_parallel_size={dcp.value} must be 1 or equal to the NIXL transfer "
        f"parallel size={transfer} (an assertion in vLLM; the transfer size is "
        "max(tensor-parallel-size, prefill-context-parallel-size)).",
        VLLM_SOURCE,
        [replace(model, dcp, str(transfer), f"Use {transfer}")],
    )
