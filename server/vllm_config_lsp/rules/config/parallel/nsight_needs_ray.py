"""`ray-workers-use-nsight` without the Ray executor.

## What vLLM does
`ParallelConfig._verify_args` refuses `ray_workers_use_nsight` unless the workers run with
Ray: `Unable to use nsight profiling unless workers run with Ray.`
(vllm/config/parallel.py:1173-1176). The executor is `distributed-executor-backend`; left
unset, a single GPU gets `uni` and several get `mp` (vllm/config/parallel.py:1054-1099;
Ray only with `data-parallel-backend: ray` or inside a Ray placement group, which
`vllm serve` from a config file or a shell never is: other hosts such as Ray Serve may
be, so there several GPUs are not checked).

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
ray-workers-use-nsight: true
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
tensor-parallel-size: 2
distributed-executor-backend: ray
ray-workers-use-nsight: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    add_flag,
    error,
    field_value,
    given,
    given_field,
    is_int,
    removal,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC319"
NAME = "nsight-needs-ray"
VLLM_SOURCE = "vllm/config/parallel.py:1174"
CATALOGUE = ("parallel.nsight_ray",)

CLASS = "ParallelConfig"
#: Executor names that are not Ray (a dotted class path may be a Ray executor).
NOT_RAY = ("mp", "uni", "external_launcher")


def _world_size(model: ConfigModel) -> int | None:
    sizes = [
        field_value(model, CLASS, name)
        for name in (
            "pipeline_parallel_size",
            "tensor_parallel_size",
            "prefill_context_parallel_size",
            "data_parallel_size",
        )
    ]
    if not all(is_int(n) for n in sizes):
        return None
    total = 1
    for n in sizes:
        total *= n
    return total


def check(model: ConfigModel) -> Iterator[Finding]:
    nsight = given_field(model, CLASS, "ray_workers_use_nsight")
    if nsight is None or nsight.value is not True:
        return
    backend = given_field(model, CLASS, "distributed_executor_backend")
    if backend is not None and backend.value is not None:
        if backend.value not in NOT_RAY:
            return
        why = f"`{backend.label}: {backend.value}` does not use Ray"
        fix = None
    else:
        # Unset: one rank in total gets `uni`; more get `mp`, or Ray through the DP
        # backend or a surrounding placement group (Ray Serve; never `vllm serve` itself).
        world = _world_size(model)
        if world is None or _is_ray(given(model, "data-parallel-backend")):
            return
        if world == 1:
            why = "With a single GPU vLLM runs the `uni` executor"
        elif _vllm_serve(model):
            why = (
                f"With {world} GPUs and no `distributed-executor-backend`, `vllm serve` runs "
                "the `mp` executor"
            )
        else:
            return
        fix = add_flag(model, nsight, "distributed-executor-backend", "ray")
    yield error(
        CODE,
        nsight,
        f"Unable to use nsight profiling unless workers run with Ray. {why}. Set "
        "`distributed-executor-backend: ray`, or profile with nsys around `vllm serve` "
        "instead.",
        VLLM_SOURCE,
        [fix, removal(model, nsight)],
    )


def _vllm_serve(model: ConfigModel) -> bool:
    """A `--config` file or a shell command line: the `vllm serve` process builds the
    config outside any Ray placement group (other hosts may run vLLM inside one)."""
    return model.is_config_file or model.invocation.source == "shell"


def _is_ray(found: object) -> bool:
    return getattr(found, "value", None) == "ray"
