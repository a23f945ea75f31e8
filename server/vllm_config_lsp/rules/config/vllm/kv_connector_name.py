"""`kv-transfer-config` without a connector name, or with a name no connector has.

## What vLLM does
A `kv-transfer-config` builds a `KVTransferConfig` even when it names no connector. While
`VllmConfig.__post_init__` settles the hybrid KV cache manager (left to vLLM, i.e. no
`disable-hybrid-kv-cache-manager` in the file), it asks the connector class whether it
supports HMA (vllm/config/vllm.py:2264), and `KVConnectorFactory.get_connector_class`
refuses (vllm/distributed/kv_transfer/kv_connector/factory.py:98-128):
- no `kv_connector` (or `null`): `Connector name is not set in KVTransferConfig`;
- a `kv_connector_module_path` of `""`: `kv_connector_module_path cannot be an empty
  string.`;
- a name outside the factory's registry and no `kv_connector_module_path` to import it
  from: `Unsupported connector type: X`. A connector with a role is also built when the
  engine starts, so this one fails whatever the HMA setting.

`kv-offloading-size` fills in the connector itself (`OffloadingConnector` or
`LMCacheMPConnector`, vllm/config/vllm.py:1158-1185), so then none is needed. The
registered names are read from the wheel's `register_connector` calls. A plugin or a
vendor build (AIBrix's `AIBrixOffloadingConnectorV1Type3`) can register more: like an
unknown quantization method (VC303), the name is an error for the stock release, and the
message says so.

## Example
```yaml
model: Qwen/Qwen3-8B
kv-transfer-config: '{"kv_connector": "LMCacheConnectorV2", "kv_role": "kv_producer"}'
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
kv-transfer-config: '{"kv_connector": "LMCacheConnectorV1", "kv_role": "kv_producer"}'
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import Given, error, given, given_field, json_given, replace
from vllm_config_lsp.rules.support import closest
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC361"
NAME = "kv-connector-name"
VLLM_SOURCE = "vllm/distributed/kv_transfer/kv_connector/factory.py:102"
CATALOGUE = ("kv_transfer.connector.known",)

FLAG = "kv-transfer-config"
SOURCE = "vllm/distributed/kv_transfer/kv_connector/factory.py:{}"


def check(model: ConfigModel) -> Iterator[Finding]:
    tree = model.json_tree(FLAG)
    whole = given(model, FLAG)
    if tree is None or not tree.is_object or whole is None:
        return
    offloading = given_field(model, "CacheConfig", "kv_offloading_size")
    if offloading is not None and offloading.value is not None:
        return  # vLLM names the connector itself
    name = json_given(model, FLAG, "kv_connector")
    path = json_given(model, FLAG, "kv_connector_module_path")
    hma_check = given(model, "disable-hybrid-kv-cache-manager") is None
    if name is None or name.value is None:
        if hma_check:
            yield error(
                CODE,
                name or whole,
                "Connector name is not set in KVTransferConfig. Name the connector in "
                "`kv_connector` (e.g. `NixlConnector`, with a `kv_role`), or remove "
                f"`{FLAG}`.",
                SOURCE.format(102),
            )
        return
    if path is not None and path.value == "":
        yield error(
            CODE,
            path,
            "kv_connector_module_path cannot be an empty string. Remove it to use a "
            "built-in connector, or give the module that defines "
            f"`{name.value}`.",
            SOURCE.format(105),
        )
        return
    if path is not None and path.value is not None:
        return  # imported from the user's module: not known here
    yield from _unknown(model, name)


def _unknown(model: ConfigModel, name: Given) -> Iterator[Finding]:
    known = model.catalogue.value_sets.get("kv_connectors")
    if known is None or not isinstance(name.value, str) or name.value in known:
        return
    names = [str(v) for v in known.values]
    message = (
        f"Unsupported connector type: {name.value}. vLLM {model.version} registers "
        f"{', '.join(names)}"
    )
    suggestion = closest(name.value, names, cutoff=0.8)
    fixes = []
    if suggestion is not None:
        message += f". Did you mean `{suggestion}`?"
        fixes.append(replace(model, name, suggestion, f"Use `{suggestion}`"))
    else:
        message += (
            "; a connector of your own needs `kv_connector_module_path`, the module that "
            "defines it."
        )
    if known.open:
        message += " A plugin can register more names (`register_connector`)."
    yield error(CODE, name, message, SOURCE.format(128), fixes)
