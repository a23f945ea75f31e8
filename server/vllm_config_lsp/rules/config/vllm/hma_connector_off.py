"""A KV connector without hybrid-allocator support turns the hybrid KV cache manager off.

## What vLLM does
When the file leaves the hybrid KV cache manager to vLLM (no
`disable-hybrid-kv-cache-manager`), `VllmConfig.__post_init__` asks the connector of
`kv-transfer-config` whether it supports HMA (`KVConnectorFactory.supports_hma_config`,
vllm/distributed/kv_transfer/kv_connector/factory.py:132: the class subclasses
`SupportsHMA`; for `MultiConnector` every child must). If not, it turns the manager off and
warns (vllm/config/vllm.py:2266): "Turning off hybrid kv cache manager because
`--kv-transfer-config` selects a KV connector that does not support it. Impact: hybrid SSM
models (e.g. Jamba, Bamba) require HMA and will fail at startup without it; models with
sliding window attention will run with reduced performance." The connectors of 0.33.0
without it: `ExampleConnector`, `LMCacheConnectorV1`, `FlexKVConnectorV1`,
`HF3FSKVConnector` (`LMCacheMPConnector` depends on the installed LMCache and a
`kv_connector_module_path` on the user's class: not known here). Information: no setting
of the file is changed, and a model with only full attention loses nothing.
`kv-offloading-size` picks the connector itself and is left alone.

## Example
```yaml
model: Qwen/Qwen3-8B
kv-transfer-config: '{"kv_connector": "LMCacheConnectorV1", "kv_role": "kv_both"}'
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
kv-transfer-config: '{"kv_connector": "LMCacheConnectorV1", "kv_role": "kv_both"}'
disable-hybrid-kv-cache-manager: true
```
"""

from collections.abc import Iterator
from typing import Any

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import add_flag, given, given_field, json_given
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC395"
NAME = "hma-connector-off"
VLLM_SOURCE = "vllm/config/vllm.py:2266"
CATALOGUE = ("warn.vllm.hma.connector_off",)
FLAG = "kv-transfer-config"

#: Registered connectors of 0.33.0 whose class is not a `SupportsHMA` (each imported from
#: the wheel and asked `supports_hma`).
NO_HMA = ("ExampleConnector", "LMCacheConnectorV1", "FlexKVConnectorV1", "HF3FSKVConnector")


def _lacks_hma(config: Any) -> bool | None:
    """`supports_hma_config` negated, None when not known here."""
    if not isinstance(config, dict) or config.get("kv_connector_module_path") is not None:
        return None
    name = config.get("kv_connector")
    if name == "MultiConnector":
        extra = config.get("kv_connector_extra_config")
        children = extra.get("connectors") if isinstance(extra, dict) else None
        if not isinstance(children, list) or not children:
            return None
        found = [_lacks_hma(child) for child in children]
        return True if any(found) else (None if None in found else False)
    if not isinstance(name, str):
        return None
    return name in NO_HMA


def check(model: ConfigModel) -> Iterator[Finding]:
    if given(model, "disable-hybrid-kv-cache-manager") is not None:
        return
    offloading = given_field(model, "CacheConfig", "kv_offloading_size")
    if offloading is not None and offloading.value is not None:
        return  # vLLM names the connector itself
    name = json_given(model, FLAG, "kv_connector")
    tree = model.json_tree(FLAG)
    if name is None or tree is None or not _lacks_hma(tree.value):
        return
    anchor = given(model, FLAG)
    fix = None
    if model.is_config_file and anchor is not None:
        fix = add_flag(model, anchor, "disable-hybrid-kv-cache-manager", "true")
    yield finding(
        CODE,
        Severity.INFO,
        name.where,
        "Turning off hybrid kv cache manager because `--kv-transfer-config` selects a KV "
        "connector that does not support it. Impact: hybrid SSM models (e.g. Jamba, "
        "Bamba) require HMA and will fail at startup without it; models with sliding "
        f"window attention will run with reduced performance. (`{name.value}` is not a "
        "`SupportsHMA` connector.)",
        source=VLLM_SOURCE,
        fixes=[fix] if fix is not None else [],
    )
