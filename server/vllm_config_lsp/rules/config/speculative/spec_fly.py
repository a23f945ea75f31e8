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
from vllm_config_lsp.rules._model_config import Spec, as_number, spec, spec_tokens
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC467"
NAME = "spec-fly"
VLLM_SOURCE = "vllm/config/speculative.py:2021"
CATALOGUE = ("spec.fly.extract", "spec.fly.tokens", "spec.fly.window")


def refusal(config: Spec) -> tuple[str, str, str] | None:
    """Where `_verify_args` stops FLy's settings (the key, vLLM's words, the line), or None
    when it lets them through or the file does not decide it (VC388 cautions only then)."""
    if config.method == "extract_hidden_states":
        return (
            "rejection_sample_method",
            "FLy is not compatible with method='extract_hidden_states', which does not "
            "perform speculative decoding.",
            "vllm/config/speculative.py:2016",
        )
    tokens = spec_tokens(config)
    if tokens is None:
        return None
    if tokens < 2:
        return (
            "num_speculative_tokens",
            "FLy requires num_speculative_tokens to be at least 2.",
            VLLM_SOURCE,
        )
    window = as_number(config.value("fly_window_size"))
    if window is not None and window >= tokens:
        return (
            "fly_window_size",
            "FLy requires fly_window_size to be smaller than num_speculative_tokens. "
            f"Here {window} >= {tokens}: use a window of at most {tokens - 1}.",
            "vllm/config/speculative.py:2027",
        )
    return None


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or config.value("rejection_sample_method") != "fly":
        return
    refused = refusal(config)
    if refused is not None:
        key, message, source = refused
        yield finding(CODE, Severity.ERROR, config.span(key), message, source=source)
