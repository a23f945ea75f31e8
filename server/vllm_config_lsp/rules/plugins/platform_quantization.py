"""`quantization` names a method the plugin's platform does not support.

## What vLLM does
After the method is found in the registry, `ModelConfig._verify_quantization` asks the
platform (vllm/config/model.py:1470); `Platform.verify_quantization` refuses any method
outside the platform's `supported_quantization` list with `X quantization is currently not
supported in npu.` (vllm/platforms/interface.py:1158), before any weights are read. Stock
vLLM on a GPU leaves the list empty (every method passes); a platform plugin sets it:
vllm-ascend 0.18.0 supports `ascend` and `compressed-tensors` only
(vllm_ascend/platform.py:103), tpu-inference its own six. The list is read from the
plugin's wheel (`schemas/plugins/`); only checked on a start that runs with the plugin.

## Example
```yaml
# vllm-config: plugin=vllm-ascend@0.18.0
model: Qwen/Qwen3-8B-FP8
quantization: fp8
```

## Fixed
```yaml
# vllm-config: plugin=vllm-ascend@0.18.0
model: Eco-Tech/Qwen3-8B-w8a8
quantization: ascend
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, token_span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC251"
NAME = "plugin-platform-quantization"
VLLM_SOURCE = "vllm/platforms/interface.py:1158"

FLAG = "quantization"


def check(model: ConfigModel) -> Iterator[Finding]:
    plugin = model.plugin
    value = model.flag(FLAG)
    if plugin is None or value is None or value.error is not None:
        return
    supported = plugin.platform.get("supported_quantization") or {}
    methods = supported.get("methods") or []
    if not methods or not isinstance(value.value, str):
        return
    method = value.value.lower()
    known = model.catalogue.value_sets.get("quantization_methods")
    if method in methods or (known is not None and method not in known):
        return  # supported, or unknown to the registry (VC303)
    device = plugin.platform.get("device_name", plugin.name)
    token = value.use.values[-1] if value.use.values else value.use.token
    yield finding(
        CODE,
        Severity.ERROR,
        token_span(model, token),
        f"{method} quantization is currently not supported in {device}. {plugin.label}'s "
        f"platform supports {', '.join(f'`{m}`' for m in methods)} "
        f"({supported.get('source')}).",
        source=VLLM_SOURCE,
    )
