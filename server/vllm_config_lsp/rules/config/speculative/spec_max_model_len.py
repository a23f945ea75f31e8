"""`speculative-config.max_model_len` is larger than the target's `max-model-len`.

## What vLLM does
The draft's context length may only shrink the target's. For methods that load a draft,
`SpeculativeConfig._maybe_override_draft_max_model_len` stops the start when the engine
config is built with `speculative_max_model_len=A cannot be larger than
target_max_model_len=B` (vllm/config/speculative.py:1762-1790). Checked here only when
`max-model-len` is given (otherwise it comes from the model).

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
max-model-len: 8192
speculative-config:
  model: meta-llama/Llama-3.2-1B-Instruct
  num_speculative_tokens: 4
  max_model_len: 16384
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
max-model-len: 8192
speculative-config:
  model: meta-llama/Llama-3.2-1B-Instruct
  num_speculative_tokens: 4
  max_model_len: 4096
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import as_number, plain, spec
from vllm_config_lsp.rules.config.speculative.spec_draft_model_unsupported import refusal
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC470"
NAME = "spec-max-model-len"
VLLM_SOURCE = "vllm/config/speculative.py:1787"
CATALOGUE = ("spec.max_len.target",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    target = plain(model, "max-model-len")
    if config is None or target is None or not config.uses_draft:
        return
    if refusal(model) is not None:
        return  # the release stops at the draft model first (VC471)
    draft = as_number(config.value("max_model_len"))
    if draft is None or not isinstance(target.value, int) or target.value < 1:
        return
    if draft <= target.value:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        config.span("max_model_len"),
        f"speculative_max_model_len={draft!r} cannot be larger than "
        f"target_max_model_len={target.value!r}: the draft's context length can only be "
        "shorter than the target's.",
        source=VLLM_SOURCE,
    )
