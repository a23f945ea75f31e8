"""`numa-bind-nodes` / `numa-bind-cpus` hold values numactl cannot take.

## What vLLM does
`ParallelConfig`'s field validators (vllm/config/parallel.py:484-520), run when the engine
config is built, refuse a negative NUMA node (`numa_bind_nodes must contain non-negative
integers.`), an empty CPU set, a CPU set that is not numactl's list syntax (`0-3`,
`0,2,4-7`: digits, ranges, commas, no spaces), and a descending range such as `7-4`. The
values are handed to `numactl --cpunodebind/--physcpubind` for each worker, one entry per
local GPU.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
numa-bind: true
numa-bind-cpus: ["0-15", "31-16"]
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
numa-bind: true
numa-bind-cpus: ["0-15", "16-31"]
```
"""

import re
from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import Given, error, given, is_int
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC316"
NAME = "numa-bind-lists"
VLLM_SOURCE = "vllm/config/parallel.py:507"
CATALOGUE = (
    "parallel.numa_nodes.negative",
    "parallel.numa_cpus.entry_empty",
    "parallel.numa_cpus.syntax",
    "parallel.numa_cpus.ascending",
)

NODES_SOURCE = "vllm/config/parallel.py:492"
EMPTY_SOURCE = "vllm/config/parallel.py:505"
ASCENDING_SOURCE = "vllm/config/parallel.py:516"
#: vllm/config/parallel.py:35
CPUSET = re.compile(r"^\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*$")


def _item(found: Given, index: int) -> Given:
    """The same setting, pointing at one of its values."""
    if index >= len(found.items):
        return found
    return Given(found.value, found.items[index], found.label, found.pair)


def _cpu_problem(cpuset: str) -> tuple[str, str] | None:
    if not cpuset:
        return "numa_bind_cpus entries must not be empty.", EMPTY_SOURCE
    if not CPUSET.fullmatch(cpuset):
        return (
            "numa_bind_cpus entries must use numactl CPU list syntax, for example '0-3' "
            f"or '0,2,4-7'. Got {cpuset!r}.",
            VLLM_SOURCE,
        )
    for part in cpuset.split(","):
        low, dash, high = part.partition("-")
        if dash and int(low) > int(high):
            return (
                f"numa_bind_cpus ranges must be ascending, but got '{cpuset}'. Write "
                f"'{high}-{low}'.",
                ASCENDING_SOURCE,
            )
    return None


def _none_problem(cpuset: object) -> tuple[str, str] | None:
    """`""` and `None` become None in argparse (`optional_type`), so pydantic refuses the
    entry as a non-string before vLLM's own empty-entry check can run."""
    if cpuset is not None:
        return None
    return (
        'Input should be a valid string: an empty CPU set (`""` or `None`) reaches vLLM '
        "as None (numa_bind_cpus entries must not be empty). Give each GPU a CPU list such "
        "as '0-3'.",
        EMPTY_SOURCE,
    )


def check(model: ConfigModel) -> Iterator[Finding]:
    nodes = given(model, "numa-bind-nodes")
    if nodes is not None and isinstance(nodes.value, list):
        for index, node in enumerate(nodes.value):
            if is_int(node) and node < 0:
                yield error(
                    CODE,
                    _item(nodes, index),
                    f"numa_bind_nodes must contain non-negative integers. Got {node}: NUMA "
                    "nodes are numbered from 0 (see `numactl --hardware`).",
                    NODES_SOURCE,
                )
                break
    cpus = given(model, "numa-bind-cpus")
    if cpus is not None and isinstance(cpus.value, list):
        for index, cpuset in enumerate(cpus.value):
            problem = _cpu_problem(cpuset) if isinstance(cpuset, str) else _none_problem(cpuset)
            if problem is not None:
                yield error(CODE, _item(cpus, index), problem[0], problem[1])
                break
