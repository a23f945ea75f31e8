"""Adaptive verification together with `use_local_argmax_reduction`.

## What vLLM does
Adaptive verification estimates acceptance from the draft logits, which the local argmax
reduction never materialises. Except for DSpark, `SpeculativeConfig.__post_init__` stops
the start when the engine config is built with `Adaptive verification estimates
per-position acceptance from the draft logits, which use_local_argmax_reduction never
materializes. Disable one of them.` (vllm/config/speculative.py:1710-1722).

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  num_speculative_tokens: 4
  enable_adaptive_verification: true
  use_local_argmax_reduction: true
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  num_speculative_tokens: 4
  enable_adaptive_verification: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import as_bool, spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC469"
NAME = "spec-adaptive-argmax"
VLLM_SOURCE = "vllm/config/speculative.py:1718"
CATALOGUE = ("spec.adaptive.argmax",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or config.method == "dspark" or not config.method_known:
        return
    adaptive = as_bool(config.value("enable_adaptive_verification", False))
    argmax = as_bool(config.value("use_local_argmax_reduction", False))
    if not (adaptive and argmax):
        return
    yield finding(
        CODE,
        Severity.ERROR,
        config.span("use_local_argmax_reduction"),
        "Adaptive verification estimates per-position acceptance from the draft logits, "
        "which use_local_argmax_reduction never materializes. Disable one of them.",
        source=VLLM_SOURCE,
    )
