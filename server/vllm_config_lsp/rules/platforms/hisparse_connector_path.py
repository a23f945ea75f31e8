"""HiSparse host-resident KV through a connector vLLM has not validated for it: a caution.

## What vLLM does
On NVIDIA CUDA (elsewhere HiSparse is refused first: VC710), once HiSparse is on (an
`attention-config.hisparse_config`, or a `HiSparseConnector` that fills one in,
vllm/config/vllm.py:1876-1881), `VllmConfig.__post_init__` warns when the top-level
`kv_connector` is not `NixlConnector`, `MooncakeStoreConnector` or `MultiConnector`
(vllm.py:1921): "HiSparse host-resident KV is configured with connector HiSparseConnector.
NixlConnector (GPU-staged host imports) and MooncakeStoreConnector (shared-store offload)
are the validated paths; other connectors are treated as debug/fallback paths." The
connector is used as written, so this is information, and only with an NVIDIA target.

## Example
```yaml
# vllm-config: gpu=H200
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
  kv_connector: MultiConnector
  kv_role: kv_both
  kv_connector_extra_config:
    connectors:
      - kv_connector: HiSparseConnector
        kv_role: kv_both
        kv_connector_extra_config:
          host_pool_gib: 64
      - kv_connector: NixlConnector
        kv_role: kv_both
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import hisparse_on, json_given
from vllm_config_lsp.rules._platform import on_target, vendor
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC716"
NAME = "hisparse-connector-path"
VLLM_SOURCE = "vllm/config/vllm.py:1921"
CATALOGUE = ("warn.vllm.hisparse.connector",)
#: The connectors vLLM accepts without the caution (vllm.py:1914-1919).
VALIDATED = ("NixlConnector", "MooncakeStoreConnector", "MultiConnector")


def check(model: ConfigModel) -> Iterator[Finding]:
    if vendor(model) != "nvidia":
        return
    name = json_given(model, "kv-transfer-config", "kv_connector")
    if name is None or name.value in VALIDATED or not isinstance(name.value, str):
        return
    if hisparse_on(model) is None:
        return
    yield finding(
        CODE,
        Severity.INFO,
        name.where,
        f"HiSparse host-resident KV is configured with connector {name.value}. NixlConnector "
        "(GPU-staged host imports) and MooncakeStoreConnector (shared-store offload) are the "
        "validated paths; other connectors are treated as debug/fallback paths. Put the "
        "connector under a MultiConnector beside NixlConnector or MooncakeStoreConnector for "
        "a validated path." + on_target(model),
        source=VLLM_SOURCE,
    )
