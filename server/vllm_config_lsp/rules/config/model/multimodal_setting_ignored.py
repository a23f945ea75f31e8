"""A multimodal setting on a text-only model: vLLM starts and ignores it.

## What vLLM does
`ModelConfig.__post_init__` builds a `MultiModalConfig` from `limit-mm-per-prompt`,
`mm-processor-kwargs`, `mm-processor-cache-gb`, `mm-encoder-tp-mode`, `media-io-kwargs`
and the other `MultiModalConfig` flags only when the architecture is multimodal
(vllm/config/model.py:824-881). For a text-only model those settings are dropped without a
word, so the file says something vLLM does not do. Whether the architecture is multimodal
comes from vLLM's model registry (schemas/vllm-0.33.0.models.json).

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
limit-mm-per-prompt:
  image: 2
```

## Fixed
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
limit-mm-per-prompt:
  image: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import given, removal, warning
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC612"
NAME = "multimodal-setting-ignored"
VLLM_SOURCE = "vllm/config/model.py:881"
CLASS = "MultiModalConfig."


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    if config is None or config.arch_flag("supports_multimodal") is not False:
        return
    for spec in model.catalogue.flags.values():
        if not (spec.field or "").startswith(CLASS):
            continue
        setting = given(model, spec.name)
        if setting is None:
            continue
        yield warning(
            CODE,
            setting,
            f"`{setting.label}` only applies to multimodal models; {config.architecture} "
            "takes text only, so vLLM ignores it.",
            VLLM_SOURCE,
            [removal(model, setting)],
        )
