"""Data-parallel sizes and ranks that do not fit together.

## What vLLM does
`EngineArgs.create_engine_config` settles the data-parallel launch mode first
(vllm/engine/arg_utils.py:2376-2530): a `data-parallel-rank` means one externally
load-balanced rank with a local size of 1; otherwise `data-parallel-size-local` is kept as
given, and `data-parallel-start-rank` becomes the rank. `ParallelConfig` then refuses:
- `data_parallel_size_local` above `data_parallel_size` (vllm/config/parallel.py:543-547);
- an external-LB rank when `data_parallel_size` is 1: `data_parallel_external_lb can only
  be set when data_parallel_size > 1` (parallel.py:549-553);
- a rank outside `[0, data_parallel_size)` (parallel.py:1014-1020).

`data-parallel-hybrid-lb` changes none of these: with a local size it only picks the
launcher (arg_utils.py:2488-2506), so `data-parallel-size-local: 3` above
`data-parallel-size: 2` is refused with it too. With a local size of 1, hybrid LB (written,
or inferred from `data-parallel-start-rank`) switches the rank to external LB (VC383), which
the second check then refuses when `data-parallel-size` is 1.

## Example
```yaml
model: deepseek-ai/DeepSeek-V2-Lite
data-parallel-size: 2
data-parallel-size-local: 4
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V2-Lite
data-parallel-size: 4
data-parallel-size-local: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import Given, error, field_value, given, is_int, removal
from vllm_config_lsp.rules.engine.hybrid_lb_single_local_rank import autoswitched
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC314"
NAME = "data-parallel-ranks"
VLLM_SOURCE = "vllm/config/parallel.py:546"
CATALOGUE = ("parallel.dp_local_le_dp", "parallel.external_lb_dp", "parallel.dp_rank_range")

EXTERNAL_SOURCE = "vllm/config/parallel.py:552"
RANK_SOURCE = "vllm/config/parallel.py:1018"


def _on(found: Given | None) -> bool:
    return found is not None and found.value is True


def check(model: ConfigModel) -> Iterator[Finding]:
    dp = field_value(model, "ParallelConfig", "data_parallel_size")
    if not is_int(dp):
        return
    local = given(model, "data-parallel-size-local")
    rank = given(model, "data-parallel-rank")
    start = given(model, "data-parallel-start-rank")
    external_flag = given(model, "data-parallel-external-lb")
    if rank is not None and not is_int(rank.value):
        rank = None
    external = _on(external_flag) or rank is not None
    if _on(given(model, "enable-fault-tolerance")):
        return  # launch-mode checks of EngineArgs come first (not this rule's)
    if _on(given(model, "data-parallel-hybrid-lb")) and (
        _on(external_flag) or _on(given(model, "headless"))
    ):
        # hybrid LB with external LB or headless is refused first (arg_utils.py:2380-2389);
        # otherwise it only decides the launcher, and ParallelConfig's checks still apply
        return
    if external:
        if rank is None or (local is not None and local.value not in (1, None)):
            return  # EngineArgs refuses these launch options first
        if dp <= 1:
            anchor = external_flag if external_flag is not None and _on(external_flag) else rank
            yield error(
                CODE,
                anchor,
                "data_parallel_external_lb can only be set when data_parallel_size > 1. "
                f"`{rank.label}` makes this one rank of an externally load-balanced "
                "deployment; set `data-parallel-size` to the total number of ranks, or "
                "remove it.",
                EXTERNAL_SOURCE,
                [removal(model, rank)],
            )
            return
        if not 0 <= rank.value < dp:
            yield _out_of_range(rank, rank.value, dp)
        return
    if local is None or not is_int(local.value):
        return
    switched = autoswitched(model) if dp <= 1 else []
    if switched:
        yield error(
            CODE,
            switched[0],
            "data_parallel_external_lb can only be set when data_parallel_size > 1. With "
            f"`{local.label}: 1`, `{switched[0].label}` makes vLLM switch this rank to "
            "external LB (arg_utils.py:2495-2501); set `data-parallel-size` to the total "
            "number of ranks, or remove it.",
            EXTERNAL_SOURCE,
            # removing one of two causes leaves the other switching
            [removal(model, switched[0])] if len(switched) == 1 else [],
        )
        return
    if local.value > dp:
        yield error(
            CODE,
            local,
            f"data_parallel_size_local ({local.value}) must be <= data_parallel_size ({dp}). "
            "`data-parallel-size` is the total over all nodes; raise it, or lower the "
            "local size.",
            VLLM_SOURCE,
        )
        return
    if (
        start is not None
        and is_int(start.value)
        and (dp > 1 or local.value == 0)
        and not 0 <= start.value < dp
    ):
        yield _out_of_range(start, start.value, dp)


def _out_of_range(where: Given, value: int, dp: int) -> Finding:
    return error(
        CODE,
        where,
        f"data_parallel_rank ({value}) must be in the range [0, {dp}). Ranks count from 0 "
        "up to `data-parallel-size` - 1.",
        RANK_SOURCE,
    )
