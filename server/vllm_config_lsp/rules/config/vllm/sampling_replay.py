"""Sampling distribution replay (`return-sampling-mask`) with settings it cannot replay.

## What vLLM does
With `return-sampling-mask: true`, `VllmConfig._verify_sampling_replay_config`
(vllm/config/vllm.py:1304-1333) needs Model Runner V2, then refuses adaptive speculative
verification (the replayed distribution needs fixed verification boundaries), diffusion
models, custom `logits-processors`, and any `logprobs-mode` other than
`processed_logprobs`: the returned logprobs must be normalised over the same nucleus as the
sampling mask. `logprobs-mode` defaults to `raw_logprobs`, so it must be set.

## Example
```yaml
model: Qwen/Qwen3-8B
return-sampling-mask: true
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
return-sampling-mask: true
logprobs-mode: processed_logprobs
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    adaptive_verification,
    add_flag,
    error,
    given,
    removal,
    replace,
    switched_on,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC334"
NAME = "sampling-replay"
VLLM_SOURCE = "vllm/config/vllm.py:1329"
CATALOGUE = (
    "vllm.sampling_replay.adaptive",
    "vllm.sampling_replay.logits_processors",
    "vllm.sampling_replay.logprobs_mode",
)

ADAPTIVE_SOURCE = "vllm/config/vllm.py:1315"
PROCESSORS_SOURCE = "vllm/config/vllm.py:1325"
MODE = "processed_logprobs"
MODE_MESSAGE = (
    "sampling distribution replay requires logprobs_mode='processed_logprobs' so that "
    "returned logprobs are normalized over the same nucleus as the sampling mask"
)


def check(model: ConfigModel) -> Iterator[Finding]:
    mask = switched_on(model, "return-sampling-mask")
    if mask is None:
        return
    adaptive = adaptive_verification(model)
    if adaptive is not None:
        yield error(
            CODE,
            adaptive,
            "sampling distribution replay with speculative decoding requires fixed "
            "verification boundaries; disable adaptive verification",
            ADAPTIVE_SOURCE,
            [removal(model, adaptive)],
        )
    processors = given(model, "logits-processors")
    if processors is not None and processors.value:
        yield error(
            CODE,
            processors,
            "sampling distribution replay does not support custom logits processors",
            PROCESSORS_SOURCE,
            [removal(model, processors)],
        )
    mode = given(model, "logprobs-mode")
    if mode is not None and mode.value != MODE:
        yield error(
            CODE,
            mode,
            f"{MODE_MESSAGE} (`logprobs-mode` is `{mode.value}`).",
            VLLM_SOURCE,
            [replace(model, mode, MODE, f"Use `{MODE}`")],
        )
    elif mode is None:
        yield error(
            CODE,
            mask,
            f"{MODE_MESSAGE} (`logprobs-mode` defaults to `raw_logprobs`). Add "
            f"`logprobs-mode: {MODE}`.",
            VLLM_SOURCE,
            [add_flag(model, mask, "logprobs-mode", MODE)],
        )
