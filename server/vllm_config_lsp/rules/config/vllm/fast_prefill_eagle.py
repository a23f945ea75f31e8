"""KV-sharing fast prefill together with an EAGLE-style speculative method.

## What vLLM does
`VllmConfig.__post_init__` refuses `kv-sharing-fast-prefill` when the speculative method
uses the target's hidden states (`use_eagle()`: eagle, eagle3, mtp, dflash, dspark;
vllm/config/vllm.py:2017-2027): such drafters need correct logits for every token, while
fast prefill computes correct logits only for the last prompt token. The method is the one
vLLM settles on: a `draft_model` (written or left out) whose draft's name says `eagle3`
(`yuhuili/EAGLE3-LLaMA3.1-Instruct-8B`) is EAGLE-3 there; one whose name says nothing is
left to the draft's architecture and not checked.

## Example
```yaml
model: google/gemma-3n-E4B-it
kv-sharing-fast-prefill: true
speculative-config:
  method: eagle3
  model: some-org/gemma-3n-eagle3
  num_speculative_tokens: 3
```

## Fixed
```yaml
model: google/gemma-3n-E4B-it
kv-sharing-fast-prefill: true
speculative-config:
  method: ngram
  num_speculative_tokens: 3
  prompt_lookup_max: 3
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, removal, switched_on
from vllm_config_lsp.rules._model_config import USE_EAGLE, spec
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC342"
NAME = "fast-prefill-eagle"
VLLM_SOURCE = "vllm/config/vllm.py:2023"
CATALOGUE = ("vllm.fast_prefill.eagle",)


def check(model: ConfigModel) -> Iterator[Finding]:
    fast = switched_on(model, "kv-sharing-fast-prefill")
    config = spec(model)
    method = config.settled if config is not None else None
    if fast is None or method not in USE_EAGLE:
        return
    yield error(
        CODE,
        fast,
        "Fast prefill optimization for KV sharing is not compatible with EAGLE as EAGLE "
        "requires correct logits for all tokens while fast prefill gives incorrect logits "
        f"for prompt tokens (speculative method `{method}`).",
        VLLM_SOURCE,
        [removal(model, fast)],
    )
