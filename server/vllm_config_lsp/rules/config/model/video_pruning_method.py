"""`video-pruning-method` names a pruning algorithm the multimodal model does not implement.

## What vLLM does
With `video-pruning-rate` above 0, vLLM prunes that fraction of video tokens with
`video-pruning-method` (`evs`, the default, or `vidcom2`). Each model class that prunes
declares the methods it implements (`supported_video_pruning_methods`: `("evs",)` from
the `SupportsMultiModalPruning` interface, both for Qwen3-VL and Qwen3.5).
`ModelConfig.__post_init__` refuses another one once it has read the model's config.json
(vllm/config/model.py:882-894): `Video pruning method 'vidcom2' is not supported by
Qwen2_5_VLForConditionalGeneration (supported methods: ('evs',)).` The methods of each
class come from schemas/vllm-0.33.0.models.json (read from vLLM's sources).

## Example
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
video-pruning-rate: 0.5
video-pruning-method: vidcom2
```

## Fixed
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
video-pruning-rate: 0.5
video-pruning-method: evs
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import resolve_runner, served
from vllm_config_lsp.rules._engine import error, field_value, given_field, replace
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC620"
NAME = "video-pruning-method"
VLLM_SOURCE = "vllm/config/model.py:890"
CATALOGUE = ("model.video_pruning.method",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    rate = given_field(model, "MultiModalConfig", "video_pruning_rate")
    if config is None or rate is None or not isinstance(rate.value, (int, float)):
        return
    if isinstance(rate.value, bool) or not 0 < rate.value < 1:
        return
    method = given_field(model, "MultiModalConfig", "video_pruning_method")
    chosen = (
        method.value
        if method is not None
        else field_value(model, "MultiModalConfig", "video_pruning_method")
    )
    found = resolve_runner(model)
    if found is None or not isinstance(chosen, str):
        return
    arch = config.arch
    if arch is None or arch.name != found.arch or arch.flag("supports_multimodal") is not True:
        return
    supported = arch.video_pruning
    if not supported or chosen in supported:
        return
    shown = "(" + ", ".join(repr(m) for m in supported) + ("," if len(supported) == 1 else "") + ")"
    fixes = (
        [
            replace(model, method, m, f"Set `{method.assign(m)}`", preferred=i == 0)
            for i, m in enumerate(supported)
        ]
        if method is not None
        else []
    )
    yield error(
        CODE,
        method or rate,
        f"Video pruning method '{chosen}' is not supported by {arch.cls} (supported "
        f"methods: {shown}). {config.where.name} implements only "
        f"{' and '.join(supported)}.",
        VLLM_SOURCE,
        fixes,
    )
