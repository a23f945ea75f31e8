"""FLy verification (`rejection_sample_method: fly`) with settings it cannot use.

## What vLLM does
FLy relaxes verification over a window of draft tokens. `SpeculativeConfig._verify_args`
stops the start when the engine config is built with `FLy is not compatible with
method='extract_hidden_states', …`, `FLy requires num_speculative_tokens to be at least
2.` and `FLy requires fly_window_size to be smaller than num_speculative_tokens.`
(vllm/config/speculative.py:2013-2029).

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  num_speculative_tokens: 4
  rejection_sample_method: fly
  fly_window_size: 4
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  num_speculative_tokens: 4
  rejection_sample_method: fly
  fly_window_size: 3
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import as_number, spec, spec_tokens
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC467"
NAME = "spec-fly"
VLLM_SOURCE = "vllm/config/speculative.py:2021"
CATALOGUE = ("spec.fly.extract", "spec.fly.tokens", "spec.fly.window")


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or config.value("rejection_sample_method") != "fly":
        return
    if config.method == "extract_hidden_states":
        yield finding(
            CODE,
            Severity.ERROR,
            config.span("rejection_sample_method"),
            "FLy is not compatible with method='extract_hidden_states', which does not "
            "perform speculative decoding.",
            source="vllm/config/speculative.py:2016",
        )
        return
    tokens = spec_tokens(config)
    if tokens is None:
        return
    if tokens < 2:
        yield finding(
            CODE,
            Severity.ERROR,
            config.span("num_speculative_tokens"),
            "FLy requires num_speculative_tokens to be at least 2.",
            source=VLLM_SOURCE,
        )
        return
    window = as_number(config.value("fly_window_size"))
    if window is not None and window >= tokens:
        yield finding(
            CODE,
            Severity.ERROR,
            config.span("fly_window_size"),
            "FLy requires fly_window_size to be smaller than num_speculative_tokens. "
            f"Here {window} >= {tokens}: use a window of at most {tokens - 1}.",
            source="vllm/config/speculative.py:2027",
        )
