"""An encoder-cache producer instance (`ec_role: ec_producer`) for a text-only model.

## What vLLM does
A dedicated EC producer only runs the multimodal encoder and ships its outputs to the
instances that run the language model. `VllmConfig._resolve_mm_encoder_only` needs the
model's multimodal config for that and refuses a text-only model: `An EC producer-only
instance requires a multimodal model.` (vllm/config/vllm.py:2889-2899). Whether the
architecture is multimodal comes from vLLM's model registry.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
ec-transfer-config:
  ec_connector: ECExampleConnector
  ec_role: ec_producer
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import Given, error, json_given, removal
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC611"
NAME = "ec-producer-text-model"
VLLM_SOURCE = "vllm/config/vllm.py:2898"
CATALOGUE = ("vllm.ec_producer.mm",)
FLAG = "ec-transfer-config"


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    role = json_given(model, FLAG, "ec_role")
    connector = json_given(model, FLAG, "ec_connector")
    if config is None or role is None or role.value != "ec_producer":
        return
    if connector is None or connector.value is None:
        return
    if config.arch_flag("supports_multimodal") is not False:
        return
    # the whole `ec-transfer-config` goes: without the producer role it has no purpose
    whole = Given(None, role.where, FLAG, role.pair)
    yield error(
        CODE,
        role,
        "An EC producer-only instance requires a multimodal model. "
        f"{config.architecture} takes text only, so it has no encoder outputs to produce.",
        VLLM_SOURCE,
        [removal(model, whole)],
    )
