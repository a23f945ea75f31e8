"""`nnodes` does not divide the world size DP x PP x TP (as releases before PCP counted it).

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC393`),
`EngineArgs.create_engine_config` refuses, for `nnodes` above 1, a world size
(data x pipeline x tensor parallel size) that the nodes cannot share evenly: `Invalid
data-parallel launch options: `--nnodes 2` must evenly divide the total world size (3).`
(vllm/engine/arg_utils.py:2083-2090 in 0.28.0), after refusing a data-parallel backend other
than `mp` (VC514). Later releases count prefill context parallelism in the world size too
(VC514); 0.11.2 asserts it in other words (VC390).

## Example
```yaml
# vllm-config: version=0.28.0
model: meta-llama/Llama-3.1-70B-Instruct
tensor-parallel-size: 3
nnodes: 2
```

## Fixed
```yaml
# vllm-config: version=0.28.0
model: meta-llama/Llama-3.1-70B-Instruct
tensor-parallel-size: 4
nnodes: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import is_int
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC393"
NAME = "nnodes-world-size"
#: The release the other rules transcribe counts PCP in: this one is read from 0.28.0,
#: and runs for the releases whose wheel has the same check.
TRANSCRIBES = "0.28.0"
VLLM_SOURCE = "vllm/engine/arg_utils.py:2084"

SIZES = ("data-parallel-size", "pipeline-parallel-size", "tensor-parallel-size")


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "nnodes", "data-parallel-backend", *SIZES)
    if a is None:
        return
    nnodes = a["nnodes"]
    sizes = [a[name.replace("-", "_")].value for name in SIZES]
    if not all(is_int(n) for n in (nnodes.value, *sizes)):
        return
    if nnodes.value <= 1 or a["data_parallel_backend"].value != "mp":
        return  # one node, or another backend refused first (VC514)
    dp, pp, tp = sizes
    world = dp * pp * tp
    if world % nnodes.value == 0:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        nnodes.where,
        "Invalid data-parallel launch options: "
        f"`--nnodes {nnodes.value}` must evenly divide the total world size ({world}). "
        "Adjust `--nnodes`, `--data-parallel-size`, `--pipeline-parallel-size`, or "
        "`--tensor-parallel-size`.",
        source=VLLM_SOURCE,
    )
