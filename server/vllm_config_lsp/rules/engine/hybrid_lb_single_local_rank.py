"""Hybrid data-parallel load balancing with one local rank: vLLM switches to external LB.

## What vLLM does
Hybrid LB (`data-parallel-hybrid-lb`, or a `data-parallel-start-rank` without `headless`)
balances requests over the data-parallel ranks of each node. With
`data-parallel-size-local: 1` there is nothing to balance on the node, and
`create_engine_config` logs "data_parallel_hybrid_lb is not eligible when
data_parallel_size_local = 1, autoswitch to data_parallel_external_lb."
(vllm/engine/arg_utils.py:2495): the rank runs as one external-LB rank instead. A start
rank infers hybrid LB when it is given (`is not None`, arg_utils.py:2489); releases before
that test it for truth, so there a start rank of 0 infers nothing: the rule counts a 0 only
for the releases whose wheel has the `is not None` test.

## Example
```yaml
model: Qwen/Qwen3-30B-A3B
data-parallel-size: 2
data-parallel-size-local: 1
data-parallel-hybrid-lb: true
```

## Fixed
```yaml
model: Qwen/Qwen3-30B-A3B
data-parallel-size: 2
data-parallel-size-local: 1
data-parallel-external-lb: true
data-parallel-rank: 0
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import Given, given, removal, switched_on, warning
from vllm_config_lsp.rules.releases import has_check
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC383"
NAME = "hybrid-lb-single-local-rank"
VLLM_SOURCE = "vllm/engine/arg_utils.py:2495"
CATALOGUE = ("warn.cli.hybrid_lb.local_one",)
#: `if self.data_parallel_start_rank is not None and not headless:` (hybrid LB inferred).
INFERRED_FROM_START = "vllm/engine/arg_utils.py:2489"


def autoswitched(model: ConfigModel) -> list[Given]:
    """The settings (`data-parallel-hybrid-lb`, the start rank that infers it) with which
    vLLM switches this rank to external LB because the local size is 1; none otherwise.
    VC314 reads them too: the external LB it ends in needs `data-parallel-size` above 1."""
    local = given(model, "data-parallel-size-local")
    if local is None or local.value != 1:
        return []
    if switched_on(model, "data-parallel-external-lb") or given(model, "data-parallel-rank"):
        return []  # external LB already: the hybrid branch is not reached
    start = given(model, "data-parallel-start-rank")
    if (
        start is not None
        and not start.value
        and not has_check(model.catalogue, CODE, INFERRED_FROM_START)
    ):
        start = None  # `if self.data_parallel_start_rank and …`: 0 infers nothing there
    if switched_on(model, "headless"):
        start = None
    hybrid = switched_on(model, "data-parallel-hybrid-lb")
    return [found for found in (hybrid, start) if found is not None]


def check(model: ConfigModel) -> Iterator[Finding]:
    causes = autoswitched(model)
    if not causes:
        return
    cause = causes[0]
    local = given(model, "data-parallel-size-local")
    hybrid = switched_on(model, "data-parallel-hybrid-lb")
    assert local is not None
    yield warning(
        CODE,
        cause,
        "data_parallel_hybrid_lb is not eligible when data_parallel_size_local = 1, "
        "autoswitch to data_parallel_external_lb. Write the external-LB form "
        "(`data-parallel-external-lb: true` with this node's `data-parallel-rank`), or raise "
        f"`{local.label}`.",
        VLLM_SOURCE,
        [removal(model, hybrid) if hybrid is not None else None],
        related=[local],
    )
