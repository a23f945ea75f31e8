"""The data-parallel launch options contradict each other (as older releases assert it).

## What vLLM does
Up to the releases this rule names (`vllm-config-lsp rules VC390`),
`EngineArgs.create_engine_config` asserts the data-parallel launch options one after the
other (vllm/engine/arg_utils.py:1456-1546 in 0.11.2) and stops at the first that fails:
- `data_parallel_hybrid_lb and data_parallel_external_lb cannot both be True.`;
- `nnodes > 1 is only supported with data_parallel_backend=mp`;
- with `nnodes` above 1: `world_size=… must be divisible by nnodes=….` (the world size is
  DP x PP x TP) and `node_rank=… must be less than nnodes=….` (a negative node rank
  passes);
- an external rank (`data-parallel-external-lb`, or `data-parallel-rank` given) needs that
  rank, given or inferred from `node-rank` on several nodes with DP above 1: `data_parallel_rank
  or node_rank must be spefified if data_parallel_external_lb is enable.`, and a local size
  of 1: `data_parallel_size_local must be 1 or None when data_parallel_rank is set`;
- `data-parallel-hybrid-lb` without `data-parallel-size-local` (on one node):
  `data_parallel_size_local must be set to use data_parallel_hybrid_lb.`

Headless mode with hybrid LB, asserted first, is VC514's. Later releases raise these as
`Invalid data-parallel launch options: …` with other conditions (VC514); 0.11.2's
`vllm serve` has no check of combined load-balancing modes before them (VC510).

## Example
```yaml
# vllm-config: version=0.11.2
model: deepseek-ai/DeepSeek-V2-Lite
data-parallel-size: 8
data-parallel-rank: 3
data-parallel-size-local: 4
```

## Fixed
```yaml
# vllm-config: version=0.11.2
model: deepseek-ai/DeepSeek-V2-Lite
data-parallel-size: 8
data-parallel-rank: 3
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import is_int
from vllm_config_lsp.rules._frontend import Arg, args, first_set
from vllm_config_lsp.rules.engine.data_parallel_launch import FLAGS
from vllm_config_lsp.rules.entrypoints import external_and_hybrid_lb
from vllm_config_lsp.rules.releases import has_check
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC390"
NAME = "data-parallel-launch-asserts"
#: The asserts are gone from the release the other rules transcribe: this one is read
#: from 0.11.2, and runs for the releases whose wheel has the same checks.
TRANSCRIBES = "0.11.2"
VLLM_SOURCE = "vllm/engine/arg_utils.py:1459"

SOURCE = "vllm/engine/arg_utils.py:{}"
#: The hybrid-and-external assert, which the releases with VC530's check never reach.
BOTH_MODES = 1459
SIZES = (
    "data_parallel_size",
    "nnodes",
    "node_rank",
    "pipeline_parallel_size",
    "tensor_parallel_size",
)


def _nodes_problem(a: dict[str, Arg]) -> tuple[Arg, str, int] | None:
    """The first multi-node assert that fails (1462-1481)."""
    v = {k: x.value for k, x in a.items()}
    nnodes, node_rank = v["nnodes"], v["node_rank"]
    if not (v["data_parallel_backend"] == "mp" or nnodes == 1):
        return (
            first_set(a["data_parallel_backend"], a["nnodes"]),
            "nnodes > 1 is only supported with data_parallel_backend=mp. vLLM launches "
            "several nodes itself only with the MP backend: set `data-parallel-backend: mp`, "
            "or drop `nnodes`.",
            1462,
        )
    if nnodes <= 1:
        return None
    world = v["data_parallel_size"] * v["pipeline_parallel_size"] * v["tensor_parallel_size"]
    if world % nnodes:
        return (
            a["nnodes"],
            f"world_size={world} must be divisible by nnodes={nnodes}. The world size is "
            "data x pipeline x tensor parallel size; every node runs the same share of it.",
            1476,
        )
    if not node_rank < nnodes:
        return (
            first_set(a["node_rank"], a["nnodes"]),
            f"node_rank={node_rank} must be less than nnodes={nnodes}. Node ranks count "
            f"from 0 up to {nnodes - 1}.",
            1479,
        )
    return None


def _first_problem(a: dict[str, Arg]) -> tuple[Arg, str, int] | None:
    """(where, message, source line) of the first launch assert vLLM fails."""
    v = {k: x.value for k, x in a.items()}
    count = v["api_server_count"]
    headless = bool(v["headless"]) or (is_int(count) and count < 1)
    hybrid, external_lb = a["data_parallel_hybrid_lb"], a["data_parallel_external_lb"]
    if headless and hybrid.value:
        return None  # asserted first (1456): VC514's
    if hybrid.value and external_lb.value:
        return (
            first_set(hybrid, external_lb),
            "data_parallel_hybrid_lb and data_parallel_external_lb cannot both be True. "
            "Choose one load-balancing mode.",
            BOTH_MODES,
        )
    if not all(is_int(v[name]) and v[name] >= 1 for name in SIZES if name != "node_rank"):
        return None
    if not is_int(v["node_rank"]):
        return None
    problem = _nodes_problem(a)
    if problem is not None:
        return problem
    rank, local = v["data_parallel_rank"], v["data_parallel_size_local"]
    if v["nnodes"] > 1 and v["data_parallel_size"] > 1 and external_lb.value:
        rank = 0  # inferred from the node rank (1482-1486)
    elif v["nnodes"] > 1 and local is None:
        local = 1  # inferred (1492-1496): at least 1
    if external_lb.value or rank is not None:
        if rank is None:
            return (
                external_lb,
                "data_parallel_rank or node_rank must be spefified if "
                "data_parallel_external_lb is enable. Give this process its "
                "`data-parallel-rank`, or use `nnodes` with `node-rank` and "
                "`data-parallel-size` above 1 so vLLM infers it.",
                1502,
            )
        if local not in (1, None):
            return (
                first_set(a["data_parallel_size_local"], a["data_parallel_rank"]),
                "data_parallel_size_local must be 1 or None when data_parallel_rank is set. "
                f"An external rank is one engine; got {local}: set it to 1 or omit it.",
                1506,
            )
    elif local is None and hybrid.value:
        return (
            hybrid,
            "data_parallel_size_local must be set to use data_parallel_hybrid_lb. Set "
            "`data-parallel-size-local` to the number of data-parallel ranks on this node.",
            1544,
        )
    return None


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, *FLAGS)
    problem = None if a is None else _first_problem(a)
    if problem is not None:
        where, message, line = problem
        if line == BOTH_MODES and has_check(
            model.catalogue, external_and_hybrid_lb.CODE, external_and_hybrid_lb.VLLM_SOURCE
        ):
            return  # `vllm serve` refused both modes before EngineArgs (VC530)
        yield finding(CODE, Severity.ERROR, where.where, message, source=SOURCE.format(line))
