"""`nnodes` above 1 with an executor backend other than `mp` or `uni` (vLLM 0.12.0).

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC813`),
`ParallelConfig.__post_init__` refuses `nnodes > 1` unless the distributed executor backend
is `mp` or `uni`: `nnodes > 1 can only be set when distributed executor backend is mp or
uni.` (vllm/config/parallel.py:596-600 in 0.12.0). vLLM's own multi-node launch starts the
ranks with its multiprocess executor; Ray or an external launcher places them itself.
Left unset, the backend is `mp` for a world above one GPU and `uni` for one, both
accepted. 0.11.2 accepts only `mp` (VC392); later releases also `external_launcher`
(VC321).

## Example
```yaml
# vllm-config: version=0.12.0
model: meta-llama/Llama-3.1-70B-Instruct
tensor-parallel-size: 8
pipeline-parallel-size: 2
nnodes: 2
distributed-executor-backend: ray
```

## Fixed
```yaml
# vllm-config: version=0.12.0
model: meta-llama/Llama-3.1-70B-Instruct
tensor-parallel-size: 8
pipeline-parallel-size: 2
nnodes: 2
distributed-executor-backend: mp
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given_field, replace
from vllm_config_lsp.rules.config.parallel.nnodes_executor_mp import several_nodes
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC813"
NAME = "nnodes-executor-mp-uni"
#: The check changed shape in the release the other rules transcribe: this one is read
#: from 0.12.0, and runs for the releases whose wheel has the same check.
TRANSCRIBES = "0.12.0"
VLLM_SOURCE = "vllm/config/parallel.py:597"
ACCEPTED = ("mp", "uni")


def check(model: ConfigModel) -> Iterator[Finding]:
    if several_nodes(model) is None:
        return
    backend = given_field(model, "ParallelConfig", "distributed_executor_backend")
    if backend is None or backend.value in ACCEPTED:
        return  # unset: `mp` above one GPU, `uni` for one
    yield error(
        CODE,
        backend,
        "nnodes > 1 can only be set when distributed executor backend is mp or uni. vLLM "
        f"{model.version} starts the ranks of several nodes with its own executor; got "
        f"`{backend.value}`: set `distributed-executor-backend: mp`, or drop `nnodes`.",
        VLLM_SOURCE,
        [replace(model, backend, "mp", "Use the `mp` executor")],
    )
