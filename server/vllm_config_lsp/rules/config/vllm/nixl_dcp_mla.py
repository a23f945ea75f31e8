"""NIXL P/D with decode context parallelism on a model without MLA.

## What vLLM does
With a `NixlConnector` (directly or in a MultiConnector) and `decode-context-parallel-size`
equal to the NIXL transfer size (anything else is VC341), `VllmConfig.__post_init__` then
asserts `PD with decode_context_parallel_size > 1 is only supported for MLA models.`
(vllm/config/vllm.py:1586-1590): only MLA's latent KV cache is sharded the way the NIXL
transfer expects. For GQA models the DCP limits (VC603) usually refuse first; a
multi-query model (one KV head) reaches this check. MLA here is vLLM's own list of
DeepSeek-style model types with `kv_lora_rank` (`ModelConfig.use_mla`).

## Example
```yaml
model: synthetic/llama-mqa
tensor-parallel-size: 8
decode-context-parallel-size: 8
kv-transfer-config:
  kv_connector: NixlConnector
  kv_role: kv_both
```

## Fixed
```yaml
model: synthetic/llama-mqa
tensor-parallel-size: 8
kv-transfer-config:
  kv_connector: NixlConnector
  kv_role: kv_both
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import above_one, connector, error, field_value, is_int, removal
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC635"
NAME = "nixl-dcp-mla"
VLLM_SOURCE = "vllm/config/vllm.py:1588"
CATALOGUE = ("vllm.nixl.dcp_mla",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    if config is None or config.uses_mla or config.text.get("kv_lora_rank") is not None:
        return
    if connector(model, "NixlConnector") is None:
        return
    dcp = above_one(model, "ParallelConfig", "decode_context_parallel_size")
    tp = field_value(model, "ParallelConfig", "tensor_parallel_size")
    pcp = field_value(model, "ParallelConfig", "prefill_context_parallel_size")
    if dcp is None or not is_int(tp) or not is_int(pcp) or dcp.value != max(tp, pcp):
        return
    yield error(
        CODE,
        dcp,
        "PD with decode_context_parallel_size > 1 is only supported for MLA models. "
        f"{config.where.name} ({config.model_type}) does not use MLA: drop "
        "decode-context-parallel-size for NIXL disaggregation.",
        VLLM_SOURCE,
        [removal(model, dcp)],
    )
