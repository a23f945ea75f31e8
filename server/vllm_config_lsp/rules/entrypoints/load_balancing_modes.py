"""More than one data-parallel load-balancing mode is selected.

## What vLLM does
`ServeSubcommand.cmd` works out the load-balancing mode before it starts anything
(vllm/entrypoints/cli/serve.py:77-105): multi-port external
(`data-parallel-multi-port-external-lb`), external (`data-parallel-external-lb`, or any
`data-parallel-rank`), hybrid (`data-parallel-hybrid-lb`, or a `data-parallel-start-rank`
when neither hybrid nor multi-port is set). More than one stops the start: `Cannot use
more than one data parallel load balancing mode. Choose one of: ...`. The same pair
(hybrid and external) is refused again, later, by `EngineArgs.create_engine_config`
(vllm/engine/arg_utils.py:2381-2388); `vllm serve` never gets there. Multi-port with
external or hybrid is refused earlier, by VC511.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
data-parallel-size: 4
data-parallel-rank: 1
data-parallel-start-rank: 2
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
data-parallel-size: 4
data-parallel-size-local: 2
data-parallel-start-rank: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import Arg, args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC510"
NAME = "load-balancing-modes"
VLLM_SOURCE = "vllm/entrypoints/cli/serve.py:100"
CATALOGUE = ("serve.lb_modes", "cli.dp.hybrid_and_external")


def _modes(a: dict[str, Arg]) -> list[tuple[str, Arg]]:
    """(mode, the setting that selects it) for each mode the file selects."""
    multi = a["data_parallel_multi_port_external_lb"]
    hybrid = a["data_parallel_hybrid_lb"]
    external = a["data_parallel_external_lb"]
    rank = a["data_parallel_rank"]
    start = a["data_parallel_start_rank"]
    modes: list[tuple[str, Arg]] = []
    if external.value:
        modes.append(("external", external))
    elif rank.value is not None:
        modes.append(("external (`data-parallel-rank`)", rank))
    if not hybrid.value and not multi.value:
        if start.value is not None:
            modes.append(("hybrid (`data-parallel-start-rank`)", start))
    else:
        if hybrid.value:
            modes.append(("hybrid", hybrid))
        if multi.value:
            modes.append(("multi-port external", multi))
    return modes


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(
        model,
        "data-parallel-multi-port-external-lb",
        "data-parallel-hybrid-lb",
        "data-parallel-external-lb",
        "data-parallel-rank",
        "data-parallel-start-rank",
        "grpc",
    )
    if a is None or a["grpc"].value:
        return  # `--grpc` returns before the mode check (serve.py:59-63)
    if a["data_parallel_multi_port_external_lb"].value and (
        a["data_parallel_external_lb"].value
        or a["data_parallel_hybrid_lb"].value
        or a["data_parallel_rank"].value is not None
    ):
        return  # validate_multi_port_external_lb_args refuses it first (VC511)
    modes = _modes(a)
    if len(modes) < 2:
        return
    names = " and ".join(name for name, _ in modes)
    yield finding(
        CODE,
        Severity.ERROR,
        modes[-1][1].where,
        "Cannot use more than one data parallel load balancing mode. Choose one of: "
        "--data-parallel-multi-port-external-lb, --data-parallel-external-lb (or "
        "--data-parallel-rank), --data-parallel-hybrid-lb (or --data-parallel-start-rank). "
        f"This file selects {names}.",
        source=VLLM_SOURCE,
    )
