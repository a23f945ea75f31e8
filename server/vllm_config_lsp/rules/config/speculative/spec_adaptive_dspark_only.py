"""Adaptive verification with a speculative method other than DSpark, in the releases that
allow it for DSpark only.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC472`), the last step of
`SpeculativeConfig.__post_init__` refuses `enable_adaptive_verification: true` unless the
method is `dspark`: "Adaptive verification only supported with DSpark" (vllm/config/
speculative.py:1141-1142 in 0.28.0), when the engine config is built. The checks of
`VllmConfig` on adaptive verification (VC335) come later and are never reached. Later
releases verify adaptively for every method and refuse only the combination with
`use_local_argmax_reduction` (VC469).

## Example
```yaml
# vllm-config: version=0.28.0
model: Qwen/Qwen3-8B
speculative-config: {method: ngram, num_speculative_tokens: 3, enable_adaptive_verification: true}
```

## Fixed
```yaml
# vllm-config: version=0.28.0
model: Qwen/Qwen3-8B
speculative-config: {method: ngram, num_speculative_tokens: 3}
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import Span, as_bool, spec
from vllm_config_lsp.rules.releases import has_check
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC472"
NAME = "spec-adaptive-dspark-only"
#: The check is gone from the release the other rules transcribe: this one is read from
#: 0.28.0, and runs for the releases whose wheel has the same check.
TRANSCRIBES = "0.28.0"
VLLM_SOURCE = "vllm/config/speculative.py:1142"


def refused(model: ConfigModel) -> Span | None:
    """Where the file turns adaptive verification on for a method other than DSpark, when
    the model's release refuses that (the later adaptive-verification checks of the
    release are then never reached)."""
    if not has_check(model.catalogue, CODE, VLLM_SOURCE):
        return None
    config = spec(model)
    if config is None or config.method == "dspark" or not config.method_known:
        return None
    if not as_bool(config.value("enable_adaptive_verification", False)):
        return None
    return config.span("enable_adaptive_verification")


def check(model: ConfigModel) -> Iterator[Finding]:
    where = refused(model)
    if where is None:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        where,
        "Adaptive verification only supported with DSpark. vLLM "
        f"{model.version} sizes the verification budget adaptively for `method: dspark` "
        "only: remove `enable_adaptive_verification` (or set it to false).",
        source=VLLM_SOURCE,
    )
