"""The data-parallel launch options do not describe a launch vLLM can make.

## What vLLM does
`EngineArgs.create_engine_config` works out this node's share of a data-parallel
deployment (vllm/engine/arg_utils.py:2380-2523) and stops at the first contradiction:
- headless with `data-parallel-hybrid-lb` (an assertion: hybrid LB needs API servers);
- `nnodes` > 1 with a `data-parallel-backend` other than `mp`;
- `nnodes` not dividing the world size (DP x PP x TP x PCP);
- `node-rank` outside `0 … nnodes-1`;
- external LB on several nodes without `data-parallel-rank`, where `nnodes` is not a
  multiple of `data-parallel-size` (the rank cannot be inferred from `node-rank`);
- `enable-fault-tolerance` without external LB (`data-parallel-external-lb` or
  `data-parallel-rank`);
- external LB without a rank (given or inferred), or with `data-parallel-size-local`
  other than 1 (an external rank is one engine);
- `data-parallel-hybrid-lb` without `data-parallel-size-local`.

`vllm serve` refuses combined load-balancing modes earlier (VC510), and
`data-parallel-multi-port-external-lb` has its own checks (VC511); both are left to those
rules.

## Example
```yaml
model: Qwen/Qwen3-30B-A3B
data-parallel-size: 4
data-parallel-hybrid-lb: true
```

## Fixed
```yaml
model: Qwen/Qwen3-30B-A3B
data-parallel-size: 4
data-parallel-size-local: 2
data-parallel-hybrid-lb: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import is_int
from vllm_config_lsp.rules._frontend import Arg, args, first_set
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC514"
NAME = "data-parallel-launch"
VLLM_SOURCE = "vllm/engine/arg_utils.py:2384"
CATALOGUE = (
    "cli.headless.hybrid",
    "cli.dp.nnodes_backend",
    "cli.dp.nnodes_divides",
    "cli.dp.node_rank",
    "cli.dp.external_rank_inference",
    "cli.ft.external_lb",
    "cli.dp.external_needs_rank",
    "cli.dp.external_local1",
    "cli.dp.hybrid_needs_local",
)

SOURCE = "vllm/engine/arg_utils.py:{}"
PREFIX = "Invalid data-parallel launch options: "
FLAGS = (
    "headless",
    "api-server-count",
    "grpc",
    "data-parallel-multi-port-external-lb",
    "data-parallel-hybrid-lb",
    "data-parallel-external-lb",
    "data-parallel-rank",
    "data-parallel-start-rank",
    "data-parallel-size",
    "data-parallel-size-local",
    "data-parallel-backend",
    "nnodes",
    "node-rank",
    "pipeline-parallel-size",
    "tensor-parallel-size",
    "prefill-context-parallel-size",
    "enable-fault-tolerance",
)


def _serve_refuses_first(a: dict[str, Arg]) -> bool:
    """`vllm serve` stops before the engine config on these (VC510, VC511), or never
    builds it here (`--grpc` has its own server)."""
    v = {k: x.value for k, x in a.items()}
    if v["grpc"] or v["data_parallel_multi_port_external_lb"]:
        return True
    external = bool(v["data_parallel_external_lb"]) or v["data_parallel_rank"] is not None
    hybrid = bool(v["data_parallel_hybrid_lb"]) or v["data_parallel_start_rank"] is not None
    return external and hybrid


def _first_problem(a: dict[str, Arg]) -> tuple[Arg, str, int] | None:
    """(where, message, source line) of the first check of the launch options vLLM fails."""
    v = {k: x.value for k, x in a.items()}
    count = v["api_server_count"]
    headless = bool(v["headless"]) or (is_int(count) and count < 1)
    hybrid = a["data_parallel_hybrid_lb"]
    if headless and hybrid.value:
        return hybrid, "data_parallel_hybrid_lb is not applicable in headless mode", 2380
    ints = (
        "data_parallel_size",
        "nnodes",
        "node_rank",
        "pipeline_parallel_size",
        "tensor_parallel_size",
        "prefill_context_parallel_size",
    )
    if not all(is_int(v[name]) for name in ints):
        return None
    nnodes, node_rank, dp = v["nnodes"], v["node_rank"], v["data_parallel_size"]
    rank, local = v["data_parallel_rank"], v["data_parallel_size_local"]
    if nnodes > 1 and v["data_parallel_backend"] != "mp":
        return (
            first_set(a["data_parallel_backend"], a["nnodes"]),
            f"{PREFIX}`--nnodes {nnodes}` requires `--data-parallel-backend mp`; got "
            f"`--data-parallel-backend {v['data_parallel_backend']}`. Use the MP backend "
            "or set `--nnodes 1`.",
            2391,
        )
    if nnodes > 1:
        within_dp = (
            v["pipeline_parallel_size"]
            * v["tensor_parallel_size"]
            * v["prefill_context_parallel_size"]
        )
        world = dp * within_dp
        if within_dp <= 0 or world % nnodes:
            return (
                a["nnodes"],
                f"{PREFIX}`--nnodes {nnodes}` must evenly divide the total world size "
                f"({world}). Adjust `--nnodes`, `--data-parallel-size`, "
                "`--pipeline-parallel-size`, `--tensor-parallel-size`, or "
                "`--prefill-context-parallel-size`.",
                2407,
            )
        if not 0 <= node_rank < nnodes:
            return (
                first_set(a["node_rank"], a["nnodes"]),
                f"{PREFIX}`--node-rank` must be between 0 and {nnodes - 1}; got "
                f"`--node-rank {node_rank}`. Set it to this node's zero-based index.",
                2415,
            )
        if dp > 1 and v["data_parallel_external_lb"]:
            if rank is None:
                if nnodes % dp:
                    return (
                        first_set(a["data_parallel_size"], a["data_parallel_external_lb"]),
                        f"{PREFIX}`--node-rank` cannot unambiguously identify external "
                        "data-parallel ranks when `--nnodes` is not divisible by "
                        "`--data-parallel-size`. Set a unique `--data-parallel-rank` for "
                        "each external-LB process.",
                        2428,
                    )
                rank = 0  # inferred from node-rank
        elif local is None:
            local = max(world // nnodes // within_dp, 1)
    external = bool(v["data_parallel_external_lb"]) or rank is not None
    if v["enable_fault_tolerance"] and not external:
        return (
            a["enable_fault_tolerance"],
            "Fault tolerance requires external load balancer mode (--data-parallel-external-lb "
            "or --data-parallel-rank). Internal LB mode is not supported.",
            2451,
        )
    if external:
        if rank is None:
            return (
                a["data_parallel_external_lb"],
                f"{PREFIX}`--data-parallel-external-lb` requires a data-parallel rank. Set "
                "`--data-parallel-rank`, or set `--data-parallel-size` greater than 1 and use "
                "`--nnodes` with `--node-rank` so the rank can be inferred.",
                2469,
            )
        if local not in (1, None):
            return (
                first_set(a["data_parallel_size_local"], a["data_parallel_rank"]),
                f"{PREFIX}an external data-parallel rank requires "
                f"`--data-parallel-size-local 1`; got {local}. Set it to 1 or omit it.",
                2477,
            )
    elif local is None and hybrid.value:
        return (
            hybrid,
            f"{PREFIX}`--data-parallel-hybrid-lb` requires `--data-parallel-size-local`. Set "
            "it to the number of data-parallel ranks on this node.",
            2520,
        )
    return None


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, *FLAGS)
    if a is None or _serve_refuses_first(a):
        return
    problem = _first_problem(a)
    if problem is None:
        return
    where, message, line = problem
    yield finding(CODE, Severity.ERROR, where.where, message, source=SOURCE.format(line))
