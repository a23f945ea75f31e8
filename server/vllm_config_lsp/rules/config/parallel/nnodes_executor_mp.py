"""`nnodes` above 1 with an executor backend other than `mp` (as older releases check it).

## What vLLM does
Up to the releases this rule names (`vllm-config-lsp rules VC392`),
`ParallelConfig.__post_init__` refuses `nnodes > 1` unless the distributed executor backend
is `mp`: `nnodes > 1 can only be set when distributed exectuor backend is mp.`
(vllm/config/parallel.py:599-602 in 0.11.2, the spelling vLLM's). Left unset, the backend
is `mp` when the world size (PP x TP) is above 1 on several nodes, but `uni` when it is 1
(parallel.py:590-591): then data parallelism over several nodes with one GPU per rank is
refused too. Later releases also accept `uni` and `external_launcher` (VC321).

## Example
```yaml
# vllm-config: version=0.11.2
model: meta-llama/Llama-3.1-8B-Instruct
data-parallel-size: 2
nnodes: 2
```

## Fixed
```yaml
# vllm-config: version=0.11.2
model: meta-llama/Llama-3.1-8B-Instruct
data-parallel-size: 2
tensor-parallel-size: 2
nnodes: 2
distributed-executor-backend: mp
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import Given, error, field_value, given_field, is_int
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC392"
NAME = "nnodes-executor-mp"
#: The check changed shape in the release the other rules transcribe: this one is read
#: from 0.11.2, and runs for the releases whose wheel has the same check.
TRANSCRIBES = "0.11.2"
VLLM_SOURCE = "vllm/config/parallel.py:600"

CLASS = "ParallelConfig"


def check(model: ConfigModel) -> Iterator[Finding]:
    nnodes = several_nodes(model)
    if nnodes is None:
        return
    pp = field_value(model, CLASS, "pipeline_parallel_size")
    tp = field_value(model, CLASS, "tensor_parallel_size")
    backend = given_field(model, CLASS, "distributed_executor_backend")
    if backend is None:
        if pp * tp > 1:
            return  # vLLM chooses `mp`
        why = "with one GPU per rank (PP x TP = 1) vLLM chooses the `uni` executor"
    elif backend.value == "mp":
        return
    else:
        why = f"got `{backend.value}`"
    yield error(
        CODE,
        backend or nnodes,
        f"nnodes > 1 can only be set when distributed exectuor backend is mp. vLLM "
        f"{model.version} runs several nodes only with the multiprocess executor; {why}: "
        "set `distributed-executor-backend: mp`, or drop `nnodes`.",
        VLLM_SOURCE,
    )


def several_nodes(model: ConfigModel) -> Given | None:
    """`nnodes` above 1 where the world (DP x PP x TP) splits evenly over the nodes (else
    `EngineArgs` asserts first, VC390)."""
    nnodes = given_field(model, CLASS, "nnodes")
    if nnodes is None or not is_int(nnodes.value) or nnodes.value <= 1:
        return None
    sizes = [
        field_value(model, CLASS, name)
        for name in ("data_parallel_size", "pipeline_parallel_size", "tensor_parallel_size")
    ]
    if not all(is_int(size) and size >= 1 for size in sizes):
        return None
    dp, pp, tp = sizes
    return None if (dp * pp * tp) % nnodes.value else nnodes
