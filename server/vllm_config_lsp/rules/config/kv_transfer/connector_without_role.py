"""`kv-transfer-config` / `ec-transfer-config` names a connector but no role.

## What vLLM does
`KVTransferConfig.__post_init__` refuses a `kv_connector` without `kv_role`: `Please
specify kv_role when kv_connector is set, supported roles are ('kv_producer', 'kv_both',
'kv_consumer')` (vllm/config/kv_transfer.py:119-123); `ECTransferConfig` does the same
for `ec_connector` / `ec_role` (vllm/config/ec_transfer.py:89-93). Both run when argparse
reads the JSON. The role says whether this instance sends caches (prefill), receives them
(decode) or both; a connector cannot guess it.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
kv-transfer-config:
  kv_connector: NixlConnector
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
kv-transfer-config:
  kv_connector: NixlConnector
  kv_role: kv_both
```
"""

from collections.abc import Iterator

from vllm_config_lsp.document.value_tree import ValueNode
from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC522"
NAME = "connector-without-role"
VLLM_SOURCE = "vllm/config/kv_transfer.py:121"
CATALOGUE = ("kv_transfer.role.required", "ec_transfer.role.required")

#: (flag, prefix of the keys, roles vLLM lists, source of the raise)
CONFIGS = (
    (
        "kv-transfer-config",
        "kv",
        ("kv_producer", "kv_both", "kv_consumer"),
        "vllm/config/kv_transfer.py:121",
    ),
    (
        "ec-transfer-config",
        "ec",
        ("ec_producer", "ec_both", "ec_consumer"),
        "vllm/config/ec_transfer.py:91",
    ),
)


def unroled(model: ConfigModel, flag: str, kind: str) -> ValueNode | None:
    """The `<kind>_connector` value of `flag`'s object when it has no `<kind>_role`."""
    tree = model.json_tree(flag)
    if tree is None or not tree.is_object:
        return None
    connector = tree.get(f"{kind}_connector")
    role = tree.get(f"{kind}_role")
    if connector is None or connector.value is None:
        return None
    return connector if role is None or role.value is None else None


def check(model: ConfigModel) -> Iterator[Finding]:
    for flag, kind, roles, source in CONFIGS:
        connector = unroled(model, flag, kind)
        if connector is None:
            continue
        yield finding(
            CODE,
            Severity.ERROR,
            (connector.start, connector.end),
            f"Please specify {kind}_role when {kind}_connector is set, supported roles are "
            f"{roles}. Add `{kind}_role: {kind}_producer` (sends, e.g. prefill), "
            f"`{kind}_consumer` (receives, e.g. decode) or `{kind}_both`.",
            source=source,
        )
