"""The deprecated `cuda-graph-sizes` next to `compilation-config.cudagraph_capture_sizes`,
which vLLM 0.11.2 and 0.12.0 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC355`),
`EngineArgs.create_engine_config` copies `--cuda-graph-sizes` (deprecated for
`--cudagraph-capture-sizes`) into the compilation config and refuses a compilation config
that sets the sizes too: "cuda_graph_sizes and compilation_config.cudagraph_capture_sizes
are mutually exclusive" (vllm/engine/arg_utils.py:1704-1715 in 0.12.0). The flag is gone
from 0.13.0; its successor's check is VC512.

## Example
```yaml
# vllm-config: version=0.12.0
model: meta-llama/Llama-3.1-8B-Instruct
cuda-graph-sizes: [1, 2, 4]
compilation-config: '{"cudagraph_capture_sizes": [1, 2, 4, 8]}'
```

## Fixed
```yaml
# vllm-config: version=0.12.0
model: meta-llama/Llama-3.1-8B-Instruct
compilation-config: '{"cudagraph_capture_sizes": [1, 2, 4, 8]}'
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.engine.flag_and_config_both_set import set_arg
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC355"
NAME = "cuda-graph-sizes-twice-0-12"
#: The flag is gone from the release the other rules transcribe: read from 0.12.0, run for
#: the releases whose wheel has the same check.
TRANSCRIBES = "0.12.0"
VLLM_SOURCE = "vllm/engine/arg_utils.py:1711"
LABEL = "compilation-config.cudagraph_capture_sizes"


def check(model: ConfigModel) -> Iterator[Finding]:
    flag = set_arg(model, "cuda-graph-sizes")
    tree = model.json_tree("compilation-config")
    entry = tree.entry("cudagraph_capture_sizes") if tree is not None else None
    if flag is None or tree is None or entry is None or entry.value.value is None:
        return
    removal = flag.removal(model, f"Remove `cuda-graph-sizes` (keep `{LABEL}`)")
    yield finding(
        CODE,
        Severity.ERROR,
        (entry.value.start, entry.value.end),
        "cuda_graph_sizes and compilation_config.cudagraph_capture_sizes are mutually "
        f"exclusive: vLLM {model.version} refuses to start. `cuda-graph-sizes` is the "
        f"deprecated spelling of `{LABEL}`; keep only one of them.",
        source=VLLM_SOURCE,
        fixes=[removal] if removal is not None else [],
    )
