"""`numa-bind-nodes` or `numa-bind-cpus` is set but `numa-bind` is not.

## What vLLM does
`ParallelConfig._validate_parallel_config` refuses explicit NUMA nodes or CPU sets while
`numa_bind` is off: `numa_bind_nodes and numa_bind_cpus require numa_bind=True.`
(vllm/config/parallel.py:555-560). The lists only say where to bind; `numa-bind: true` is
what turns binding on.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
numa-bind-nodes: [0, 1]
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
numa-bind-nodes: [0, 1]
numa-bind: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import add_flag, error, given, removal
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC317"
NAME = "numa-bind-required"
VLLM_SOURCE = "vllm/config/parallel.py:559"
CATALOGUE = ("parallel.numa_requires_bind",)


def check(model: ConfigModel) -> Iterator[Finding]:
    switch = given(model, "numa-bind")
    if switch is not None and switch.value is True:
        return
    for flag in ("numa-bind-nodes", "numa-bind-cpus"):
        found = given(model, flag)
        if found is None or found.value is None:
            continue
        add = add_flag(model, found, "numa-bind", "true") if switch is None else None
        yield error(
            CODE,
            found,
            "numa_bind_nodes and numa_bind_cpus require numa_bind=True. Add "
            "`numa-bind: true` to bind workers, or remove this list.",
            VLLM_SOURCE,
            [add, removal(model, found)],
        )
        return
