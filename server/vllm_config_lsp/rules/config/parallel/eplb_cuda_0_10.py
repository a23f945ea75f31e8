"""EPLB's own checks in vLLM 0.9.2 and 0.10.2, on an NVIDIA target: negative redundant
experts, expert parallelism off, one TP x DP rank.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC815`),
`ParallelConfig.__post_init__` checks `enable-eplb` after refusing it off CUDA
(vllm/config/parallel.py:350-367 in 0.10.2), so the rule speaks only where the target GPU
is known to be NVIDIA; in order it refuses:
- a negative number of redundant experts (`num-redundant-experts`, or
  `eplb-config.num_redundant_experts`; the flag wins): `num_redundant_experts must be
  non-negative, but got -1.`;
- `enable-expert-parallel` off: `enable_expert_parallel must be True to use EPLB.`;
- TP x DP of 1: `EPLB requires tensor_parallel_size or data_parallel_size to be greater
  than 1, but got TP=1,DP=1.`: the load balancer moves experts between the ranks of the
  expert-parallel group, and one rank has nothing to balance.

Later releases check EPLB in `_validate_parallel_config` (VC312, VC814), and the number of
redundant experts gets a bound of its own.

## Example
```yaml
# vllm-config: version=0.10.2 gpu=H100
model: Qwen/Qwen3-30B-A3B
data-parallel-size: 2
enable-expert-parallel: true
enable-eplb: true
num-redundant-experts: -2
```

## Fixed
```yaml
# vllm-config: version=0.10.2 gpu=H100
model: Qwen/Qwen3-30B-A3B
data-parallel-size: 2
enable-expert-parallel: true
enable-eplb: true
num-redundant-experts: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    Given,
    error,
    given,
    is_int,
    json_given,
    removal,
    switched_on,
)
from vllm_config_lsp.rules._platform import on_target, vendor
from vllm_config_lsp.rules.config.parallel.eplb_requirements import without_expert_parallel
from vllm_config_lsp.rules.config.parallel.eplb_tp_dp import single_rank_eplb
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC815"
NAME = "eplb-cuda-0-10"
#: Gone from the release the other rules transcribe (moved and reworded): read from
#: 0.10.2, run for the releases whose wheel has the same checks.
TRANSCRIBES = "0.10.2"
SOURCE = "vllm/config/parallel.py:{}"
VLLM_SOURCE = "vllm/config/parallel.py:356"
#: The raise lines of 0.10.2: redundant experts, expert parallelism, TP x DP.
LINES = (356, 360, 363)
#: `current_platform.is_cuda()`, the check before them.
PLATFORMS = ("nvidia",)


def check(model: ConfigModel) -> Iterator[Finding]:
    eplb = switched_on(model, "enable-eplb")
    if eplb is None or vendor(model) not in PLATFORMS:
        return
    redundant = _redundant(model)
    if redundant is not None and is_int(redundant.value) and redundant.value < 0:
        yield error(
            CODE,
            redundant,
            "num_redundant_experts must be non-negative, but got "
            f"{redundant.value}.{on_target(model)} Set it to 0 or more.",
            SOURCE.format(356),
            [removal(model, redundant)],
        )
        return
    without = without_expert_parallel(CODE, model, eplb, SOURCE.format(360))
    if without is not None:
        yield without
        return
    found = single_rank_eplb(CODE, model, PLATFORMS, SOURCE.format(363))
    if found is not None:
        yield found


def _redundant(model: ConfigModel) -> Given | None:
    """The number of redundant experts as vLLM uses it: the deprecated flag, forwarded
    over `eplb-config.num_redundant_experts` (parallel.py:283-285), else the key."""
    flag = given(model, "num-redundant-experts")
    if flag is not None and flag.value is not None:
        return flag
    return json_given(model, "eplb-config", "num_redundant_experts")
