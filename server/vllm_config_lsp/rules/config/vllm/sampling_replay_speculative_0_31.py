"""Sampling distribution replay with speculative decoding, which vLLM 0.28.0-0.31.0 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC828`),
`VllmConfig._verify_sampling_replay_config` refuses `return-sampling-mask` next to any
speculative config: "sampling distribution replay does not support speculative decoding"
(vllm/config/vllm.py:1268-1271 in 0.31.0). The only check before it, Model Runner V2,
refuses as well, so such a file never starts. 0.32.0 replays speculative decoding too
(with fixed verification boundaries: VC334).

## Example
```yaml
# vllm-config: version=0.31.0
model: meta-llama/Llama-3.1-8B-Instruct
return-sampling-mask: true
logprobs-mode: processed_logprobs
speculative-config: '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3}'
```

## Fixed
```yaml
# vllm-config: version=0.31.0
model: meta-llama/Llama-3.1-8B-Instruct
return-sampling-mask: true
logprobs-mode: processed_logprobs
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, removal, switched_on
from vllm_config_lsp.rules.config.vllm.watermark_speculative import speculative_anchor
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC828"
NAME = "sampling-replay-speculative-0-31"
#: Gone from the release the other rules transcribe: read from 0.31.0, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.31.0"
VLLM_SOURCE = "vllm/config/vllm.py:1269"


def check(model: ConfigModel) -> Iterator[Finding]:
    mask = switched_on(model, "return-sampling-mask")
    spec = speculative_anchor(model)
    if mask is None or spec is None:
        return
    yield error(
        CODE,
        spec,
        "sampling distribution replay does not support speculative decoding. vLLM "
        f"{model.version} replays only plain decoding: remove `{spec.label}` or "
        "`return-sampling-mask`.",
        VLLM_SOURCE,
        [removal(model, mask, "Remove `return-sampling-mask`")],
    )
