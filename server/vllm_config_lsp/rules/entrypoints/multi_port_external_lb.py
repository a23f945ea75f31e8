"""`data-parallel-multi-port-external-lb` is combined with settings it cannot work with.

## What vLLM does
With `--data-parallel-multi-port-external-lb`, one supervisor starts one API server per
local data-parallel rank, on consecutive ports from `port`. `validate_parsed_serve_args`
calls `validate_multi_port_external_lb_args` right after argparse
(vllm/entrypoints/launchers/dp_supervisor.py:52-115), which refuses, in this order:
`--grpc` and `--uds` (each child needs its own TCP port); only one of `ssl-keyfile` /
`ssl-certfile`; an `api-server-count` other than 1; a `data-parallel-rank` (the
supervisor assigns the children's ranks); `data-parallel-external-lb` or
`data-parallel-hybrid-lb`; `data-parallel-size` < 2; `data-parallel-size-local` unset or
< 2, larger than `data-parallel-size`, or not dividing it; a start rank
(`data-parallel-start-rank`, else `node-rank` x local size) whose ranks run past
`data-parallel-size`; and a `data-parallel-supervisor-port` among the children's ports.

## Example
```yaml
model: deepseek-ai/DeepSeek-V3
data-parallel-multi-port-external-lb: true
data-parallel-size: 8
data-parallel-size-local: 3
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V3
data-parallel-multi-port-external-lb: true
data-parallel-size: 8
data-parallel-size-local: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import Arg, args, first_set
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC511"
NAME = "multi-port-external-lb"
VLLM_SOURCE = "vllm/entrypoints/launchers/dp_supervisor.py:54"
CATALOGUE = (
    "serve.multiport.grpc",
    "serve.multiport.uds",
    "serve.multiport.ssl_pair",
    "serve.multiport.api_count",
    "serve.multiport.dp_rank",
    "serve.multiport.other_lb",
    "serve.multiport.dp_size",
    "serve.multiport.local_size",
    "serve.multiport.local_le_dp",
    "serve.multiport.divisible",
    "serve.multiport.rank_overflow",
    "serve.multiport.port_overlap",
)

SOURCE = "vllm/entrypoints/launchers/dp_supervisor.py:{}"
FLAGS = (
    "data-parallel-multi-port-external-lb",
    "grpc",
    "uds",
    "ssl-keyfile",
    "ssl-certfile",
    "api-server-count",
    "data-parallel-rank",
    "data-parallel-external-lb",
    "data-parallel-hybrid-lb",
    "data-parallel-size",
    "data-parallel-size-local",
    "data-parallel-start-rank",
    "node-rank",
    "data-parallel-supervisor-port",
    "port",
)


def _ints(*values: object) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


def _first_problem(a: dict[str, Arg]) -> tuple[Arg, str, int] | None:
    """(where, message, source line) of the first check vLLM fails."""
    v = {k: arg.value for k, arg in a.items()}
    multi = a["data_parallel_multi_port_external_lb"]
    if v["grpc"]:
        return a["grpc"], "does not support --grpc", 54
    if v["uds"] is not None:
        return a["uds"], "does not support --uds", 58
    if bool(v["ssl_keyfile"]) != bool(v["ssl_certfile"]):
        given = first_set(a["ssl_keyfile"], a["ssl_certfile"])
        return given, "--ssl-keyfile and --ssl-certfile must be provided together", 62
    if v["api_server_count"] not in (None, 1):
        return a["api_server_count"], "currently requires --api-server-count=1", 66
    if v["data_parallel_rank"] is not None:
        return a["data_parallel_rank"], "manages child --data-parallel-rank values internally", 71
    if v["data_parallel_external_lb"] or v["data_parallel_hybrid_lb"]:
        where = first_set(a["data_parallel_external_lb"], a["data_parallel_hybrid_lb"])
        return (
            where,
            "cannot be combined with --data-parallel-external-lb or --data-parallel-hybrid-lb",
            76,
        )
    size, local = v["data_parallel_size"], v["data_parallel_size_local"]
    if not _ints(size) or (local is not None and not _ints(local)):
        return None
    if size < 2:
        return first_set(a["data_parallel_size"], multi), "requires --data-parallel-size > 1", 81
    if local is None or local < 2:
        where = first_set(a["data_parallel_size_local"], multi)
        return where, "requires --data-parallel-size-local >= 2", 88
    if local > size:
        return (
            a["data_parallel_size_local"],
            "--data-parallel-size-local cannot exceed --data-parallel-size",
            93,
        )
    if size % local:
        return (
            a["data_parallel_size_local"],
            "--data-parallel-size must be divisible by --data-parallel-size-local",
            97,
        )
    start = v["data_parallel_start_rank"]
    if start is None:
        start = (v["node_rank"] or 0) * local
        start_arg = first_set(a["node_rank"], multi)
    else:
        start_arg = a["data_parallel_start_rank"]
    if not _ints(start):
        return None
    if start + local > size:
        return (
            start_arg,
            "multi-port supervised ranks would exceed --data-parallel-size "
            f"(ranks {start}-{start + local - 1} of {size})",
            104,
        )
    supervisor, port = v["data_parallel_supervisor_port"], v["port"]
    if _ints(supervisor, port) and port <= supervisor <= port + local - 1:
        return (
            first_set(a["data_parallel_supervisor_port"], a["port"], multi),
            f"--data-parallel-supervisor-port {supervisor} overlaps with child rank ports "
            f"{port}-{port + local - 1}",
            112,
        )
    return None


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, *FLAGS)
    if a is None or not a["data_parallel_multi_port_external_lb"].value:
        return
    problem = _first_problem(a)
    if problem is None:
        return
    where, text, line = problem
    standalone = text.startswith("--") or text.startswith("multi-port")
    prefix = "Error: " if standalone else "Error: --data-parallel-multi-port-external-lb "
    yield finding(
        CODE,
        Severity.ERROR,
        where.where,
        prefix + text,
        source=SOURCE.format(line),
    )
