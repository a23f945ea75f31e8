"""vllm-ascend's balance scheduling on a prefill or decode node of a disaggregated setup.

## What vLLM does
vllm-ascend's platform refuses it in `NPUPlatform.check_and_update_config`, before any
weights load (vllm_ascend/platform.py:681 in 0.23.0): where `enable_balance_scheduling`
is on (`--additional-config '{"enable_balance_scheduling": true}'`, or the deprecated
`VLLM_ASCEND_BALANCE_SCHEDULING=1` when the key is absent: `AscendConfig._get_config_value`,
vllm_ascend/ascend_config.py:354) and a `--kv-transfer-config` gives any role but
`kv_both`, it raises `enable_balance_scheduling only supports PD-mixed mode
(kv_role='kv_both' or no kv_transfer_config), and is not supported in PD-disaggregated mode
(kv_role='kv_producer'/'kv_consumer').` The check runs only on a start that runs with a
vllm-ascend release whose platform has it (read from its wheel, `schemas/plugins/`).

## Example
```yaml
# vllm-config: plugin=vllm-ascend@0.23.0
model: Qwen/Qwen3-8B
additional-config:
  enable_balance_scheduling: true
kv-transfer-config:
  kv_connector: MooncakeConnectorV1
  kv_role: kv_producer
```

## Fixed
```yaml
# vllm-config: plugin=vllm-ascend@0.23.0
model: Qwen/Qwen3-8B
kv-transfer-config:
  kv_connector: MooncakeConnectorV1
  kv_role: kv_producer
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Related, Severity
from vllm_config_lsp.rules._environ import lookup
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC253"
NAME = "ascend-balance-scheduling-disaggregated"
VLLM_SOURCE = "vllm_ascend/platform.py:681"

KEY = "enable_balance_scheduling"
ENV = "VLLM_ASCEND_BALANCE_SCHEDULING"
_SAID = "enable_balance_scheduling only supports PD-mixed mode"


def check(model: ConfigModel) -> Iterator[Finding]:
    plugin = model.plugin
    site = plugin.refusal(_SAID) if plugin is not None else None
    if plugin is None or site is None:
        return
    transfer = model.json_tree("kv-transfer-config")
    if transfer is None or not transfer.is_object:
        return
    role = transfer.get("kv_role")
    if role is not None and role.value == "kv_both":
        return
    extra = model.json_tree("additional-config")
    entry = extra.entry(KEY) if extra is not None and extra.is_object else None
    if entry is not None:
        if entry.value.value is not True:
            return
        at = (entry.key_start, entry.value.end)
    else:
        value, _known = lookup(model, ENV)
        var = model.invocation.environment().get(ENV)
        if value is None or var is None or value.strip() in ("", "0"):
            return
        at = (var.name.start, var.name.end)
    related = []
    if role is not None:
        related.append(Related(role.start, role.end, f"kv_role is {role.value!r}"))
    message = (
        f"{site['message']} ({plugin.label}, {site['source']}). Turn `{KEY}` off on this "
        "node, or run it PD-mixed (`kv_role: kv_both`)."
    )
    yield Finding(CODE, Severity.ERROR, *at, message, VLLM_SOURCE, related=tuple(related))
