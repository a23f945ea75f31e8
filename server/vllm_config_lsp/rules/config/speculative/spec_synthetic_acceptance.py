"""Synthetic acceptance settings that vLLM cannot turn into per-position rates.

## What vLLM does
`rejection_sample_method: synthetic` accepts draft tokens with made-up probabilities given
either as `synthetic_acceptance_rates` (one rate per speculative token, each in [0, 1],
non-increasing) or as a mean `synthetic_acceptance_length` in [1, num_speculative_tokens +
1]. `SpeculativeConfig._verify_args` stops the start when the engine config is built with
`rejection_sample_method='synthetic' requires exactly one of synthetic_acceptance_rates or
synthetic_acceptance_length.`, `synthetic_acceptance_rates must have length N, got …`,
`… entries must be in [0, 1], got …`, `… must be non-increasing, got …`,
`synthetic_acceptance_length must be in [1, N+1], got …`, and, for any other rejection
method, `synthetic_acceptance_rates / synthetic_acceptance_length are only valid with
rejection_sample_method='synthetic'.` (vllm/config/speculative.py:600-633, 1973-1988).

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  num_speculative_tokens: 3
  rejection_sample_method: synthetic
  synthetic_acceptance_rates: [0.9, 0.8]
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  num_speculative_tokens: 3
  rejection_sample_method: synthetic
  synthetic_acceptance_rates: [0.9, 0.8, 0.7]
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import Spec, as_number, numbers, spec, spec_tokens
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC465"
NAME = "spec-synthetic-acceptance"
VLLM_SOURCE = "vllm/config/speculative.py:608"
CATALOGUE = (
    "spec.synthetic.one_of",
    "spec.synthetic.rates_len",
    "spec.synthetic.rates_range",
    "spec.synthetic.rates_monotone",
    "spec.synthetic.length_range",
    "spec.synthetic.only",
)
RATES = "synthetic_acceptance_rates"
LENGTH = "synthetic_acceptance_length"


def _problem(config: Spec) -> tuple[str, str, str] | None:
    """(key to point at, message, raise line) of the first check vLLM fails."""
    rates_given, length_given = config.has(RATES), config.has(LENGTH)
    if config.value("rejection_sample_method", "standard") != "synthetic":
        if rates_given or length_given:
            return (
                RATES if rates_given else LENGTH,
                f"{RATES} / {LENGTH} are only valid with rejection_sample_method='synthetic'. "
                "Add `rejection_sample_method: synthetic`, or remove them.",
                "vllm/config/speculative.py:1985",
            )
        return None
    if rates_given == length_given:
        return (
            RATES if rates_given else "rejection_sample_method",
            f"rejection_sample_method='synthetic' requires exactly one of {RATES} or {LENGTH}.",
            VLLM_SOURCE,
        )
    n = spec_tokens(config)
    if n is None:
        return None  # the count may come from the draft's n_predict
    if rates_given:
        rates = config.value(RATES)
        if not isinstance(rates, list):
            return None
        values = list(numbers(as_number(r) for r in rates))
        if len(values) != len(rates):
            return None
        shown = [float(v) for v in values]  # list[float], as vLLM prints it
        if len(values) != n:
            return (
                RATES,
                f"{RATES} must have length {n}, got {shown}.",
                ("vllm/config/speculative.py:614"),
            )
        if not all(0 <= r <= 1 for r in values):
            return (
                RATES,
                f"{RATES} entries must be in [0, 1], got {shown}.",
                ("vllm/config/speculative.py:618"),
            )
        if any(values[i] > values[i - 1] for i in range(1, n)):
            return (
                RATES,
                f"{RATES} must be non-increasing, got {shown}.",
                ("vllm/config/speculative.py:623"),
            )
        return None
    length = as_number(config.value(LENGTH))
    if length is not None and not 1 <= length <= n + 1:
        return (
            LENGTH,
            f"{LENGTH} must be in [1, {n + 1}], got {float(length)}.",
            ("vllm/config/speculative.py:629"),
        )
    return None


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    problem = _problem(config) if config is not None else None
    if config is None or problem is None:
        return
    key, message, source = problem
    yield finding(CODE, Severity.ERROR, config.span(key), message, source=source)
