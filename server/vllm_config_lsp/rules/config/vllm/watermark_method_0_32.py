"""Watermarking with a speculative method that is not model-based, as vLLM 0.32.0
refuses it.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC826`),
`VllmConfig._check_supports_watermarking` (renamed from 0.31.0's
`_check_watermarking_unsupported`, VC825, with the same check), run from `__post_init__`,
refuses `watermark-config` next to a speculative method other than `dspark`, `eagle`,
`eagle3` or `mtp`: "Watermarking supports only autoregressive model-based speculative
decoding." (vllm/config/vllm.py:1310-1314 in 0.32.0). 0.33.0 accepts `dflash` too (VC330).
Only a method the file names is checked (an unset one comes from the draft checkpoint),
once the sampling checks before it pass (VC330 reports those).

## Example
```yaml
# vllm-config: version=0.32.0
model: Qwen/Qwen3-8B
watermark-config:
  key: 7
  algorithm: dual_key_gumbel
speculative-config:
  method: ngram
  num_speculative_tokens: 2
  prompt_lookup_max: 4
  draft_sample_method: probabilistic
```

## Fixed
```yaml
# vllm-config: version=0.32.0
model: Qwen/Qwen3-8B
speculative-config:
  method: ngram
  num_speculative_tokens: 2
  prompt_lookup_max: 4
  draft_sample_method: probabilistic
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules.config.vllm.watermark_method_0_31 import method_refused
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC826"
NAME = "watermark-method-0-32"
#: Gone from the release the other rules transcribe: read from 0.32.0.
TRANSCRIBES = "0.32.0"
VLLM_SOURCE = "vllm/config/vllm.py:1311"


def check(model: ConfigModel) -> Iterator[Finding]:
    yield from method_refused(model, CODE, VLLM_SOURCE)
