"""A KV connector that tpu-inference's platform refuses.

## What vLLM does
On a start that runs with tpu-inference (`vllm/vllm-tpu` images, `google.com/tpu`
resources, `# vllm-config: plugin=tpu-inference@…`), the platform's
`TpuPlatform.check_and_update_config` runs before any weights load and accepts only its
own connectors (tpu_inference/platforms/tpu_platform.py:526-533 in 0.32.0): any other
`kv_connector`, even one stock vLLM registers and runs on GPUs (`NixlConnector`,
`LMCacheConnectorV1` …), raises `Unsupported kv_connector 'NixlConnector' for the TPU
platform. Expected one of ('TPUConnector', 'TPUConnectorHMA', 'TPUOffloadConnector',
'RaidenOffloadConnector').` The check runs only for a tpu-inference release whose
platform has it (read from its wheel, `schemas/plugins/`). tpu-inference registers its
connectors with no `register_connector` call: a file names the module
(`kv_connector_module_path: tpu_inference.distributed.tpu_connector`). A name no connector
has and no module path is VC361's.

## Example
```yaml
# vllm-config: plugin=tpu-inference@0.32.0
model: Qwen/Qwen3-8B
kv-transfer-config:
  kv_connector: NixlConnector
  kv_role: kv_both
```

## Fixed
```yaml
# vllm-config: plugin=tpu-inference@0.32.0
model: Qwen/Qwen3-8B
kv-transfer-config:
  kv_connector: TPUConnector
  kv_connector_module_path: tpu_inference.distributed.tpu_connector
  kv_role: kv_both
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, json_given
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC254"
NAME = "tpu-kv-connector"
VLLM_SOURCE = "tpu_inference/platforms/tpu_platform.py:530"

FLAG = "kv-transfer-config"
#: The platform's `allowed` tuple (tpu_inference/platforms/tpu_platform.py:526).
ALLOWED = ("TPUConnector", "TPUConnectorHMA", "TPUOffloadConnector", "RaidenOffloadConnector")
_SAID = "Unsupported kv_connector '{kv_transfer_config.kv_connector}' for the TPU platform."


def check(model: ConfigModel) -> Iterator[Finding]:
    plugin = model.plugin
    site = plugin.refusal(_SAID) if plugin is not None else None
    if plugin is None or site is None:
        return
    name = json_given(model, FLAG, "kv_connector")
    if name is None or not isinstance(name.value, str):
        return
    if name.value in ALLOWED:
        return
    path = json_given(model, FLAG, "kv_connector_module_path")
    known = model.catalogue.value_sets.get("kv_connectors")
    if (path is None or not path.value) and (known is None or name.value not in known):
        return  # no connector has the name: VC361
    message = (
        f"Unsupported kv_connector '{name.value}' for the TPU platform. Expected one of "
        f"{ALLOWED}. ({plugin.label}, {site['source']}) `{name.value}` runs on GPUs; on "
        "TPUs use `TPUConnector` for prefill/decode disaggregation (with "
        "`kv_connector_module_path: tpu_inference.distributed.tpu_connector`) or "
        "`TPUOffloadConnector` (`tpu_inference.offload.tpu_offload_connector`) to offload "
        "the KV cache to host memory."
    )
    yield error(CODE, name, message, VLLM_SOURCE)
