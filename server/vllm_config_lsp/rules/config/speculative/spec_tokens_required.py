"""`speculative-config` lacks `num_speculative_tokens` and nothing can supply it.

## What vLLM does
`num_speculative_tokens` may come from a draft checkpoint's `n_predict`; otherwise
`SpeculativeConfig._verify_args` stops the start with `num_speculative_tokens must be
provided with speculative model unless the draft model config contains an n_predict
parameter.` (vllm/config/speculative.py:1946-1951) when the engine config is built.
Methods without a draft checkpoint (`ngram`, `ngram_gpu`, `extract_hidden_states`,
`custom_class`, or any method with no `model`) always need it; `suffix` defaults it to
`suffix_decoding_max_tree_depth`.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  prompt_lookup_max: 4
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
speculative-config:
  method: ngram
  prompt_lookup_max: 4
  num_speculative_tokens: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC462"
NAME = "spec-tokens-required"
VLLM_SOURCE = "vllm/config/speculative.py:1947"
CATALOGUE = ("spec.tokens_required",)
#: Methods that never read a draft config, so no `n_predict` can fill the count in.
NO_DRAFT_CONFIG = ("ngram", "ngram_gpu", "custom_class", "extract_hidden_states")


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or config.has("num_speculative_tokens") or config.method == "suffix":
        return
    if config.has("model") and config.method not in NO_DRAFT_CONFIG:
        return  # the draft's config may carry n_predict
    yield finding(
        CODE,
        Severity.ERROR,
        config.span("method"),
        "num_speculative_tokens must be provided with speculative model unless the draft "
        "model config contains an n_predict parameter. Add `num_speculative_tokens` (how "
        "many tokens to propose per step) to the speculative config.",
        source=VLLM_SOURCE,
    )
