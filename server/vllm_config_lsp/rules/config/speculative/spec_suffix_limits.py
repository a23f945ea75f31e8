"""Suffix-decoding limits out of range.

## What vLLM does
For `method: suffix`, `SpeculativeConfig._validate_suffix_decoding` stops the start with
`suffix_decoding_max_tree_depth=N must be >= 1`, `suffix_decoding_max_cached_requests=N
must be >= 0`, `suffix_decoding_max_spec_factor=N must be >= 0` or
`suffix_decoding_min_token_prob=N must be in [0, 1]` (vllm/config/speculative.py:1726-1760)
when the engine config is built (after checking that `arctic-inference` is installed).
Other methods ignore these options.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: suffix
  suffix_decoding_min_token_prob: 10
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: suffix
  suffix_decoding_min_token_prob: 0.1
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import as_number, spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC464"
NAME = "spec-suffix-limits"
VLLM_SOURCE = "vllm/config/speculative.py:1742"
CATALOGUE = ("spec.suffix.depth", "spec.suffix.cached", "spec.suffix.factor", "spec.suffix.prob")
#: field → (lowest, highest, how vLLM states the bound, raise line), in vLLM's order.
LIMITS = (
    ("suffix_decoding_max_tree_depth", 1, None, ">= 1", VLLM_SOURCE),
    ("suffix_decoding_max_cached_requests", 0, None, ">= 0", "vllm/config/speculative.py:1747"),
    ("suffix_decoding_max_spec_factor", 0, None, ">= 0", "vllm/config/speculative.py:1752"),
    ("suffix_decoding_min_token_prob", 0, 1, "in [0, 1]", "vllm/config/speculative.py:1757"),
)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or config.method != "suffix":
        return
    for field, low, high, bound, source in LIMITS:
        value = as_number(config.value(field))
        if value is None or (value >= low and (high is None or value <= high)):
            continue
        yield finding(
            CODE,
            Severity.ERROR,
            config.span(field),
            f"{field}={config.value(field)} must be {bound}",
            source=source,
        )
        return
