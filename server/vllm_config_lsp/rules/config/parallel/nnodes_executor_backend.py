"""`nnodes` above 1 with an executor backend other than `mp`, `uni` or `external_launcher`.

## What vLLM does
`ParallelConfig.__post_init__` refuses `nnodes > 1` unless the distributed executor backend
is `mp`, `uni` or `external_launcher`: `nnodes > 1 can only be set when distributed
executor backend is mp, uni or external_launcher.` (vllm/config/parallel.py:1106-1114).
`--nnodes`/`--node-rank` describe vLLM's own multi-node launch; a Ray cluster is described
to Ray instead. Left unset, the backend is chosen per platform (`mp` for multi-node CUDA),
so only a backend the file names is checked.

## Example
```yaml
model: meta-llama/Llama-3.1-70B-Instruct
tensor-parallel-size: 16
nnodes: 2
distributed-executor-backend: ray
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-70B-Instruct
tensor-parallel-size: 16
nnodes: 2
distributed-executor-backend: mp
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given_field, is_int, removal
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC321"
NAME = "nnodes-executor-backend"
VLLM_SOURCE = "vllm/config/parallel.py:1111"
CATALOGUE = ("parallel.nnodes_backend",)

CLASS = "ParallelConfig"
ALLOWED = ("mp", "uni", "external_launcher")


def check(model: ConfigModel) -> Iterator[Finding]:
    nnodes = given_field(model, CLASS, "nnodes")
    backend = given_field(model, CLASS, "distributed_executor_backend")
    if nnodes is None or not is_int(nnodes.value) or nnodes.value <= 1:
        return
    if backend is None or not isinstance(backend.value, str) or backend.value in ALLOWED:
        return
    yield error(
        CODE,
        backend,
        "nnodes > 1 can only be set when distributed executor backend is mp, uni or "
        f"external_launcher (got `{backend.value}`). Use `mp` with `nnodes`/`node-rank`, "
        "or drop `nnodes` and let Ray place the workers.",
        VLLM_SOURCE,
        [removal(model, nnodes)],
    )
