"""A negative typical-acceptance posterior threshold or alpha, which vLLM 0.6.6 and 0.7.3 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC846`), with speculative decoding
configured (`speculative-model`, or `num-speculative-tokens`, which alone is refused
unless the model is DeepSeek-V3), `SpeculativeConfig._verify_args` refuses a negative
`typical-acceptance-sampler-posterior-threshold` or `-alpha` whatever the acceptance method
("Expected typical_acceptance_sampler_posterior_threshold and
typical_acceptance_sampler_posterior_alpha to be > 0. Instead found
typical_acceptance_sampler_posterior_threshold = -0.1 and
typical_acceptance_sampler_posterior_alpha = 0.3", vllm/config.py:2120-2129 in 0.7.3);
an unset one is 0.09 (threshold) or 0.3 (alpha). vLLM compares with `< 0`: 0 passes.
vLLM 0.8.5 and 0.9.2 read the two from `speculative-config` (VC847).

## Example
```yaml
# vllm-config: version=0.7.3
speculative-model: "[ngram]"
num-speculative-tokens: 3
ngram-prompt-lookup-max: 4
typical-acceptance-sampler-posterior-threshold: -0.1
```

## Fixed
```yaml
# vllm-config: version=0.7.3
speculative-model: "[ngram]"
num-speculative-tokens: 3
ngram-prompt-lookup-max: 4
typical-acceptance-sampler-posterior-threshold: 0.1
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC846"
NAME = "typical-acceptance-flags-0-7"
#: Gone from the release the other rules transcribe (the flags went into
#: `speculative-config` in 0.8): read from 0.7.3, run for the releases whose wheel has it.
TRANSCRIBES = "0.7.3"
VLLM_SOURCE = "vllm/config.py:2122"
THRESHOLD = "typical-acceptance-sampler-posterior-threshold"
ALPHA = "typical-acceptance-sampler-posterior-alpha"
#: `maybe_create_spec_config`'s values for an unset threshold and alpha.
DEFAULTS = (0.09, 0.3)


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "speculative-model", "num-speculative-tokens", THRESHOLD, ALPHA)
    if a is None:
        return
    if a["speculative_model"].value is None and a["num_speculative_tokens"].value is None:
        return
    threshold = a["typical_acceptance_sampler_posterior_threshold"]
    alpha = a["typical_acceptance_sampler_posterior_alpha"]
    values = [
        float(arg.value) if _number(arg.value) else default
        for arg, default in zip((threshold, alpha), DEFAULTS, strict=True)
    ]
    negative = [arg for arg, value in zip((threshold, alpha), values, strict=True) if value < 0]
    if not negative:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        negative[0].where,
        "Expected typical_acceptance_sampler_posterior_threshold and "
        "typical_acceptance_sampler_posterior_alpha to be > 0. Instead found "
        f"typical_acceptance_sampler_posterior_threshold = {values[0]} and "
        f"typical_acceptance_sampler_posterior_alpha = {values[1]}. vLLM {model.version} "
        "refuses to start with speculative decoding: set both to 0 or more.",
        source=VLLM_SOURCE,
    )


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
