"""`cudagraph_mode` next to the deprecated `use_cudagraph: false` or `full_cuda_graph: true`,
which vLLM 0.10.2 refuses.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC353`),
`CompilationConfig.__post_init__` migrates the deprecated switches to `cudagraph_mode`
(`use_cudagraph: false` → `NONE`, `full_cuda_graph: true` → `FULL`) and refuses a file that
also sets `cudagraph_mode`: "use_cudagraph and cudagraph_mode are mutually exclusive, prefer
cudagraph_mode since use_cudagraph is deprecated." and "full_cuda_graph and cudagraph_mode
are mutually exclusive, prefer cudagraph_mode since full_cuda_graph is deprecated."
(vllm/config/compilation.py:445-462 in 0.10.2), while the arguments are parsed. Later
releases migrate them without refusing, and then drop the switches.

## Example
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
compilation-config: '{"full_cuda_graph": true, "cudagraph_mode": "FULL_AND_PIECEWISE"}'
```

## Fixed
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
compilation-config: '{"cudagraph_mode": "FULL_AND_PIECEWISE"}'
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import compilation_field, error, removal
from vllm_config_lsp.rules._model_config import as_bool
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC353"
NAME = "cudagraph-mode-exclusive-0-10"
#: Gone from the release the other rules transcribe: read from 0.10.2, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.10.2"
VLLM_SOURCE = "vllm/config/compilation.py:450"
FULL_SOURCE = "vllm/config/compilation.py:459"
#: (deprecated switch, the value that migrates, the mode it stands for, source)
SWITCHES = (
    ("use_cudagraph", False, "NONE", VLLM_SOURCE),
    ("full_cuda_graph", True, "FULL", FULL_SOURCE),
)


def check(model: ConfigModel) -> Iterator[Finding]:
    mode = compilation_field(model, "cudagraph_mode")
    if mode is None or mode.value is None:
        return
    for name, migrates, meant, source in SWITCHES:
        switch = compilation_field(model, name)
        if switch is None or switch.value is None or as_bool(switch.value) is not migrates:
            continue
        yield error(
            CODE,
            switch,
            f"{name} and cudagraph_mode are mutually exclusive, prefer cudagraph_mode since "
            f"{name} is deprecated. vLLM {model.version} refuses to start: remove `{name}` "
            f"(it stands for `cudagraph_mode: {meant}`) and keep `cudagraph_mode`.",
            source,
            [removal(model, switch)],
        )
        return  # vLLM stops at the first
