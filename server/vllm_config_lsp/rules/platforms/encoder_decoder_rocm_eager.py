"""An encoder-decoder model (Whisper, BART, …) on an AMD GPU without `enforce-eager`: vLLM
runs it in eager mode, without CUDA graphs.

## What vLLM does
`ModelConfig._verify_cuda_graph` (vllm/config/model.py:1486-1496) checks, once config.json
is read, whether the model is an encoder-decoder (`is_encoder_decoder` in its config.json
or its text config, vllm/transformers_utils/config.py:774) and, on ROCm, warns `CUDA graph
is not supported for whisper on ROCm yet, fallback to eager mode.` and sets `enforce_eager`
itself. The server starts, but without the CUDA graphs the file leaves on. It needs an
AMD target and the model's config.json.

## Example
```yaml
# vllm-config: gpu=MI300X
model: openai/whisper-small
```

## Fixed
```yaml
# vllm-config: gpu=MI300X
model: openai/whisper-small
enforce-eager: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import model_given, served
from vllm_config_lsp.rules._engine import add_switch, field_value, given, warning
from vllm_config_lsp.rules._platform import on_target, target_gpu
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC715"
NAME = "encoder-decoder-rocm-eager"
VLLM_SOURCE = "vllm/config/model.py:1491"
CATALOGUE = ("warn.model.cuda_graph.rocm",)


def check(model: ConfigModel) -> Iterator[Finding]:
    gpu, config = target_gpu(model), served(model)
    if gpu is None or gpu.vendor != "amd" or config is None or not config.is_encoder_decoder:
        return
    if field_value(model, "ModelConfig", "enforce_eager") is True:
        return
    yield warning(
        CODE,
        model_given(model),
        f"CUDA graph is not supported for {config.model_type} on ROCm yet, fallback to eager "
        f"mode. {config.where.name} is an encoder-decoder model (`is_encoder_decoder` in its "
        f"config.json).{on_target(model)}",
        VLLM_SOURCE,
        [add_switch(model, given(model, "model"), "enforce-eager")],
    )
