"""Sampling distribution replay (`return-sampling-mask`) on a diffusion language model.

## What vLLM does
`VllmConfig._verify_sampling_replay_config` (vllm/config/vllm.py:1304-1323) checks
`return-sampling-mask` against the model: after Model Runner V2 and adaptive verification
it refuses discrete diffusion models with `sampling distribution replay does not support
diffusion models`. vLLM recognises such a model by a `canvas_length` in its config.json
(`ModelConfig.is_diffusion`, vllm/config/model.py:1959). On a host without Model Runner V2
the same configuration is refused one check earlier, so it never starts.

## Example
```yaml
model: synthetic/qwen2-diffusion
return-sampling-mask: true
logprobs-mode: processed_logprobs
```

## Fixed
```yaml
model: synthetic/qwen2-diffusion
logprobs-mode: processed_logprobs
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import error, removal, switched_on
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC629"
NAME = "sampling-replay-diffusion"
VLLM_SOURCE = "vllm/config/vllm.py:1321"
CATALOGUE = ("vllm.sampling_replay.diffusion",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    mask = switched_on(model, "return-sampling-mask")
    if config is None or mask is None or config.raw.get("canvas_length") is None:
        return
    yield error(
        CODE,
        mask,
        "sampling distribution replay does not support diffusion models. "
        f"{config.where.name} is a discrete diffusion model (`canvas_length` "
        f"{config.raw['canvas_length']!r} in its config.json).",
        VLLM_SOURCE,
        [removal(model, mask)],
    )
