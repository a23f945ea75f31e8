"""n-gram speculation with `prompt_lookup_min` larger than `prompt_lookup_max`.

## What vLLM does
For `method: ngram` (and `ngram_gpu`) a missing bound copies the other one (both missing:
5 and 5); then `SpeculativeConfig.__post_init__` stops the start with
`prompt_lookup_min=A must be <= prompt_lookup_max=B` (vllm/config/speculative.py:1300-1326)
when the engine config is built.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  num_speculative_tokens: 4
  prompt_lookup_min: 6
  prompt_lookup_max: 3
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  num_speculative_tokens: 4
  prompt_lookup_min: 2
  prompt_lookup_max: 3
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import as_number, spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC460"
NAME = "spec-ngram-lookup"
VLLM_SOURCE = "vllm/config/speculative.py:1323"
CATALOGUE = ("spec.ngram.min_le_max",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or config.method not in ("ngram", "ngram_gpu"):
        return
    low = as_number(config.value("prompt_lookup_min"))
    high = as_number(config.value("prompt_lookup_max"))
    if low is None or high is None or low <= high:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        config.span("prompt_lookup_min"),
        f"prompt_lookup_min={low} must be <= prompt_lookup_max={high}: the n-gram "
        "window's lower bound is above its upper bound.",
        source=VLLM_SOURCE,
    )
