"""`kv-transfer-config` names a connector but no role, in the words of vLLM 0.9.2 to 0.10.2.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC350`),
`KVTransferConfig.__post_init__` refuses a `kv_connector` without `kv_role` with "Please
specify kv_disagg_role when kv_connector is set, supported roles are ('kv_producer',
'kv_both', 'kv_consumer')" (vllm/config/kv_transfer.py:91-93 in 0.10.2), the check VC522
transcribes from 0.33.0 under an older name for the field (`kv_disagg_role`, which no
release accepts as a key: the field is `kv_role`).

## Example
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
kv-transfer-config: '{"kv_connector": "SharedStorageConnector"}'
```

## Fixed
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
kv-transfer-config: '{"kv_connector": "SharedStorageConnector", "kv_role": "kv_both"}'
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.config.kv_transfer.connector_without_role import unroled
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC350"
NAME = "connector-without-disagg-role-0-10"
#: The words changed in the release VC522 transcribes: read from 0.10.2, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.10.2"
VLLM_SOURCE = "vllm/config/kv_transfer.py:92"


def check(model: ConfigModel) -> Iterator[Finding]:
    connector = unroled(model, "kv-transfer-config", "kv")
    if connector is None:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        (connector.start, connector.end),
        "Please specify kv_disagg_role when kv_connector is set, supported roles are "
        f"('kv_producer', 'kv_both', 'kv_consumer'). vLLM {model.version} refuses to start; "
        "the key is `kv_role`: add "
        "`kv_role: kv_producer` (sends, e.g. prefill), `kv_consumer` (receives, e.g. decode) "
        "or `kv_both`.",
        source=VLLM_SOURCE,
    )
