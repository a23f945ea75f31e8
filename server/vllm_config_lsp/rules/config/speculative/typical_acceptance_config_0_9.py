"""A negative `posterior_threshold` or `posterior_alpha` of the typical acceptance sampler,
which vLLM 0.8.5 and 0.9.2 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC847`), with
`acceptance_method: typical_acceptance_sampler` in `speculative-config`,
`SpeculativeConfig._verify_args` refuses a negative `posterior_threshold` or
`posterior_alpha` ("Expected the posterior_threshold and posterior_alpha of
typical_acceptance_sampler to be > 0. Instead found posterior_threshold = -0.1 and
posterior_alpha = 0.3", vllm/config.py:2889-2898 in 0.9.2), whichever engine runs; an
unset one is 0.09 (threshold) or 0.3 (alpha). vLLM
compares with `< 0`: 0 passes; with the default `rejection_sampler` the two are not read.
vLLM 0.10 dropped the typical acceptance sampler; 0.6.6 and 0.7.3 had the same check on
flags (VC846).

## Example
```yaml
# vllm-config: version=0.9.2
speculative-config: >-
  {"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4,
  "acceptance_method": "typical_acceptance_sampler", "posterior_threshold": -0.1}
```

## Fixed
```yaml
# vllm-config: version=0.9.2
speculative-config: >-
  {"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4,
  "acceptance_method": "typical_acceptance_sampler", "posterior_threshold": 0.1}
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import as_number, spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC847"
NAME = "typical-acceptance-config-0-9"
#: Gone from the release the other rules transcribe (the sampler went in 0.10): read from
#: 0.9.2, run for the releases whose wheel has the same check.
TRANSCRIBES = "0.9.2"
VLLM_SOURCE = "vllm/config.py:2893"
KEYS = ("posterior_threshold", "posterior_alpha")
#: `SpeculativeConfig.__post_init__` fills an unset threshold and alpha (config.py:2764-2768).
DEFAULTS = (0.09, 0.3)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or config.value("acceptance_method") != "typical_acceptance_sampler":
        return
    values = [as_number(config.value(key)) for key in KEYS]
    negative = [
        key for key, value in zip(KEYS, values, strict=True) if value is not None and value < 0
    ]
    if not negative:
        return
    threshold, alpha = (
        float(default if value is None else value)
        for value, default in zip(values, DEFAULTS, strict=True)
    )
    yield finding(
        CODE,
        Severity.ERROR,
        config.span(negative[0]),
        "Expected the posterior_threshold and posterior_alpha of typical_acceptance_sampler "
        f"to be > 0. Instead found posterior_threshold = {threshold} and posterior_alpha = "
        f"{alpha}. vLLM {model.version} refuses to start: set `{negative[0]}` to 0 or more.",
        source=VLLM_SOURCE,
    )
