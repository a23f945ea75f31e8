"""`per-request-spec-decode-metrics` without speculative decoding.

## What vLLM does
`VllmConfig.__post_init__` refuses `per_request_spec_decode_metrics` other than `none`
when there is no speculative config: `--per-request-spec-decode-metrics requires
speculative decoding to be enabled (via --speculative-config).` (vllm/config/vllm.py:
1734-1741). There are no acceptance counts to report without a drafter. A speculative
config comes from `speculative-config`, the `spec-*` shorthands, or a speculators
checkpoint given as the model (vLLM detects those from the checkpoint).

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
per-request-spec-decode-metrics: summary
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
per-request-spec-decode-metrics: summary
speculative-config:
  method: ngram
  num_speculative_tokens: 3
  prompt_lookup_max: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given, given_field, removal
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC326"
NAME = "spec-metrics-without-speculation"
VLLM_SOURCE = "vllm/config/vllm.py:1738"
CATALOGUE = ("vllm.spec_metrics",)

SPECULATIVE_FLAGS = ("speculative-config", "spec-method", "spec-model", "spec-tokens")


def check(model: ConfigModel) -> Iterator[Finding]:
    metrics = given_field(model, "ObservabilityConfig", "per_request_spec_decode_metrics")
    if metrics is None or metrics.value in ("none", None):
        return
    for flag in SPECULATIVE_FLAGS:
        found = model.flag(flag)
        if found is not None and found.value is not None:
            return
    name = given(model, "model")
    if name is not None and "speculator" in str(name.value).lower():
        return  # a speculators checkpoint brings its own speculative config
    yield error(
        CODE,
        metrics,
        "--per-request-spec-decode-metrics requires speculative decoding to be enabled "
        "(via --speculative-config). Add a `speculative-config`, or remove this option.",
        VLLM_SOURCE,
        [removal(model, metrics)],
    )
