"""A model-specific MTP method name (`deepseek_mtp`, `qwen3_next_mtp`, …) instead of `mtp`.

## What vLLM does
`SpeculativeConfig.__post_init__` logs "method `deepseek_mtp` is deprecated and replaced
with mtp." for every name of `MTPModelTypes` other than `mtp` and runs `mtp`
(vllm/config/speculative.py:1247): the method is chosen from the model, the name only
says "MTP".

## Example
```yaml
model: deepseek-ai/DeepSeek-V3
speculative-config:
  method: deepseek_mtp
  num_speculative_tokens: 1
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V3
speculative-config:
  method: mtp
  num_speculative_tokens: 1
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import json_given, replace, warning
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC372"
NAME = "mtp-method-deprecated"
VLLM_SOURCE = "vllm/config/speculative.py:1247"
CATALOGUE = ("warn.speculative.mtp_method.deprecated",)


def check(model: ConfigModel) -> Iterator[Finding]:
    method = json_given(model, "speculative-config", "method")
    names = model.catalogue.value_sets.get("mtp_model_types")
    if method is None or names is None or method.value == "mtp":
        return
    if method.value not in names.values:
        return
    yield warning(
        CODE,
        method,
        f"method `{method.value}` is deprecated and replaced with mtp. Write `mtp`: vLLM "
        "picks the MTP layers from the model.",
        VLLM_SOURCE,
        [replace(model, method, "mtp", "Use `mtp`")],
    )
