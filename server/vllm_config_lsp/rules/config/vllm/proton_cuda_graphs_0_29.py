"""The Proton profiler without `enforce-eager` or `cudagraph_mode: NONE`, which vLLM 0.28.0
and 0.29.0 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC830`),
`VllmConfig.__post_init__` with `profiler-config.profiler: proton` needs NVIDIA CUDA, then
refuses any cudagraph mode but NONE: "The Proton profiler requires CUDA graphs to be
disabled. Use --enforce-eager or set --compilation-config.cudagraph_mode=none."
(vllm/config/vllm.py:1383-1388 in 0.29.0). The check runs before the optimization level's
defaults fill in the mode, so a mode the file leaves unset (`None`) is refused too: only
`enforce-eager` (which sets NONE just before) or an explicit `cudagraph_mode: NONE` pass.
Later releases profile under CUDA graphs with graph attribution (VC336).

## Example
```yaml
# vllm-config: version=0.29.0
model: meta-llama/Llama-3.1-8B-Instruct
profiler-config: '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton"}'
```

## Fixed
```yaml
# vllm-config: version=0.29.0
model: meta-llama/Llama-3.1-8B-Instruct
profiler-config: '{"profiler": "proton", "proton_profiler_dir": "/tmp/proton"}'
enforce-eager: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    add_flag,
    compilation_field,
    error,
    json_given,
    switched_on,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC830"
NAME = "proton-cuda-graphs-0-29"
#: Gone from the release the other rules transcribe: read from 0.29.0, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.29.0"
VLLM_SOURCE = "vllm/config/vllm.py:1384"


def check(model: ConfigModel) -> Iterator[Finding]:
    profiler = json_given(model, "profiler-config", "profiler")
    if profiler is None or profiler.value != "proton":
        return
    if switched_on(model, "enforce-eager") is not None:
        return
    mode = compilation_field(model, "cudagraph_mode")
    if mode is not None and str(mode.value).upper() == "NONE":
        return
    shown = f"`cudagraph_mode` is {mode.value}" if mode is not None else "no cudagraph mode"
    yield error(
        CODE,
        mode or profiler,
        "The Proton profiler requires CUDA graphs to be disabled. Use --enforce-eager or set "
        f"--compilation-config.cudagraph_mode=none. (vLLM {model.version} checks before "
        f"the defaults apply, and the file gives {shown}.)",
        VLLM_SOURCE,
        [add_flag(model, profiler, "enforce-eager", "true")],
    )
