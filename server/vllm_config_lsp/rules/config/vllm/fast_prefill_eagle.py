"""KV-sharing fast prefill together with an EAGLE-style speculative method.

## What vLLM does
`VllmConfig.__post_init__` refuses `kv-sharing-fast-prefill` when the speculative method
uses the target's hidden states (`use_eagle()`: eagle, eagle3, mtp, dflash, dspark;
vllm/config/vllm.py:2017-2027): such drafters need correct logits for every token, while
fast prefill computes correct logits only for the last prompt token. A method left to
auto-detection from the draft checkpoint is not checked.

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
from vllm_config_lsp.rules.config.vllm.watermark_speculative import written_method
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC342"
NAME = "fast-prefill-eagle"
VLLM_SOURCE = "vllm/config/vllm.py:2023"
CATALOGUE = ("vllm.fast_prefill.eagle",)

EAGLE_METHODS = ("eagle", "eagle3", "mtp", "dflash", "dspark")


def check(model: ConfigModel) -> Iterator[Finding]:
    fast = switched_on(model, "kv-sharing-fast-prefill")
    method = written_method(model)
    if fast is None or method is None or method.value not in EAGLE_METHODS:
        return
    yield error(
        CODE,
        fast,
        "Fast prefill optimization for KV sharing is not compatible with EAGLE as EAGLE "
        "requires correct logits for all tokens while fast prefill gives incorrect logits "
        f"for prompt tokens (speculative method `{method.value}`).",
        VLLM_SOURCE,
        [removal(model, fast)],
    )
