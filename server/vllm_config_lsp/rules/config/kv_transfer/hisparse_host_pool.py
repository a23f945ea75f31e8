"""A `HiSparseConnector` without a positive `host_pool_gib`, or more than one of them.

## What vLLM does
A `HiSparseConnector` in `kv-transfer-config` (directly or among a `MultiConnector`'s
`connectors`) turns HiSparse on. When vLLM plans the KV cache, after the model is loaded,
`hisparse_host_pool_gib` reads the connector's `kv_connector_extra_config` and refuses
more than one HiSparse connector (`Only one HiSparseConnector may be configured`), a
missing `host_pool_gib` (`HiSparseConnector requires host_pool_gib`) and a value of 0 or
less (`HiSparseConnector host_pool_gib must be positive`)
(vllm/config/kv_transfer.py:16-47, called from vllm/v1/core/kv_cache_planning.py:671).
The pool is the pinned host memory, in GiB, that holds the offloaded KV blocks. Nothing
checks this at argparse time, so the start fails only after the weights are loaded.

## Example
```yaml
model: deepseek-ai/DeepSeek-V3.2-Exp
kv-transfer-config:
  kv_connector: HiSparseConnector
  kv_role: kv_both
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V3.2-Exp
kv-transfer-config:
  kv_connector: HiSparseConnector
  kv_role: kv_both
  kv_connector_extra_config:
    host_pool_gib: 64
```
"""

from collections.abc import Iterator

from vllm_config_lsp.document.value_tree import ValueNode
from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC526"
NAME = "hisparse-host-pool"
VLLM_SOURCE = "vllm/config/kv_transfer.py:43"
CATALOGUE = (
    "kv_transfer.hisparse.one",
    "kv_transfer.hisparse.pool_required",
    "kv_transfer.hisparse.pool_positive",
)

FLAG = "kv-transfer-config"
NAME_ = "HiSparseConnector"
SOURCE = "vllm/config/kv_transfer.py:{}"


def _hisparse(tree: ValueNode) -> list[tuple[ValueNode, ValueNode | None]]:
    """(the connector's name node, its extra config node) of every HiSparse connector."""
    connector = tree.get("kv_connector")
    extra = tree.get("kv_connector_extra_config")
    if connector is None:
        return []
    if connector.value == "MultiConnector":
        children = extra.get("connectors") if extra is not None and extra.is_object else None
        found = []
        for child in (children.items if children is not None else None) or ():
            name = child.get("kv_connector") if child.is_object else None
            if name is not None and name.value == NAME_:
                found.append((name, child.get("kv_connector_extra_config")))
        return found
    return [(connector, extra)] if connector.value == NAME_ else []


def check(model: ConfigModel) -> Iterator[Finding]:
    tree = model.json_tree(FLAG)
    if tree is None or not tree.is_object:
        return
    found = _hisparse(tree)
    if len(found) > 1:
        second = found[1][0]
        yield finding(
            CODE,
            Severity.ERROR,
            (second.start, second.end),
            "Only one HiSparseConnector may be configured (vLLM checks this when it plans "
            "the KV cache, after loading the model).",
            source=SOURCE.format(38),
        )
        return
    if not found:
        return
    name, extra = found[0]
    pool = extra.get("host_pool_gib") if extra is not None and extra.is_object else None
    if pool is None or pool.value is None:
        yield finding(
            CODE,
            Severity.ERROR,
            (name.start, name.end),
            "HiSparseConnector requires host_pool_gib: add `kv_connector_extra_config: "
            "{host_pool_gib: <GiB of host memory for offloaded KV blocks>}` (vLLM checks "
            "this when it plans the KV cache, after loading the model).",
            source=SOURCE.format(43),
        )
        return
    try:
        gib = float(pool.value)
    except (TypeError, ValueError):
        return
    if gib <= 0:
        yield finding(
            CODE,
            Severity.ERROR,
            (pool.start, pool.end),
            f"HiSparseConnector host_pool_gib must be positive (got {pool.value}).",
            source=SOURCE.format(46),
        )
