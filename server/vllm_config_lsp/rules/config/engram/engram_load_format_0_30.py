"""Engram's `dp_shared_memory` with a load format that does not call the weight loaders,
which vLLM 0.30.0 refuses.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC832`),
`VllmConfig._resolve_and_verify_engram_config` runs `EngramConfig.verify_load_config`,
which refuses `engram-config.dp_shared_memory: true` with a `load-format` other than
`auto`, `safetensors` or `pt`: "dp_shared_memory requires load_format 'auto',
'safetensors' or 'pt'; got 'dummy'." (vllm/config/engram.py:103-111 in 0.30.0). Tables
shared across data-parallel ranks are filled through the parameters' weight-loading
callbacks, which only those loaders invoke. Later releases dropped the check.

## Example
```yaml
# vllm-config: version=0.30.0
model: deepseek-ai/DeepSeek-V4.1
data-parallel-size: 2
load-format: dummy
engram-config: '{"cpu_offload": true, "dp_shared_memory": true}'
```

## Fixed
```yaml
# vllm-config: version=0.30.0
model: deepseek-ai/DeepSeek-V4.1
data-parallel-size: 2
load-format: safetensors
engram-config: '{"cpu_offload": true, "dp_shared_memory": true}'
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given, json_given, replace
from vllm_config_lsp.rules._model_config import as_bool
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC832"
NAME = "engram-load-format-0-30"
#: Gone from the release the other rules transcribe: read from 0.30.0.
TRANSCRIBES = "0.30.0"
VLLM_SOURCE = "vllm/config/engram.py:108"
FORMATS = ("auto", "safetensors", "pt")


def check(model: ConfigModel) -> Iterator[Finding]:
    shared = json_given(model, "engram-config", "dp_shared_memory")
    fmt = given(model, "load-format")
    if shared is None or shared.value is None or not as_bool(shared.value) or fmt is None:
        return
    if fmt.value in FORMATS:
        return
    yield error(
        CODE,
        fmt,
        "dp_shared_memory requires load_format 'auto', 'safetensors' or 'pt'; got "
        f"{fmt.value!r}. vLLM {model.version} fills the shared Engram tables through the "
        "weight loaders those formats call.",
        VLLM_SOURCE,
        [replace(model, fmt, "auto", "Use `auto`")],
    )
