"""External and hybrid data-parallel load balancing together, which older releases refuse.

## What vLLM does
Up to the releases this rule names (`vllm-config-lsp rules VC530`), before they had a
multi-port mode, `ServeSubcommand.cmd` knows two load-balancing modes: external
(`data-parallel-external-lb`, or any `data-parallel-rank`) and hybrid
(`data-parallel-hybrid-lb`, or any `data-parallel-start-rank`). Both at once stop the
start: "Cannot use both external and hybrid data parallel load balancing modes. …"
(vllm/entrypoints/cli/serve.py:66-80 in 0.15.1). `--grpc` returns before the check where
the release has it. Later releases count three modes and say so in other words (VC510).

## Example
```yaml
# vllm-config: version=0.15.1
model: deepseek-ai/DeepSeek-V3
data-parallel-size: 8
data-parallel-size-local: 4
data-parallel-external-lb: true
data-parallel-hybrid-lb: true
```

## Fixed
```yaml
# vllm-config: version=0.15.1
model: deepseek-ai/DeepSeek-V3
data-parallel-size: 8
data-parallel-size-local: 4
data-parallel-hybrid-lb: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import Arg, args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC530"
NAME = "external-and-hybrid-lb"
#: The two-mode check is gone from the release the other rules transcribe (VC510 counts
#: three modes there): this one is read from 0.15.1, and runs for the releases whose
#: wheel has the same check.
TRANSCRIBES = "0.15.1"
VLLM_SOURCE = "vllm/entrypoints/cli/serve.py:74"


def _selects(switch: Arg, rank: Arg) -> Arg | None:
    """The setting that selects a mode: its switch, else a rank that implies it."""
    if switch.value:
        return switch
    return rank if rank.value is not None else None


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(
        model,
        "data-parallel-external-lb",
        "data-parallel-rank",
        "data-parallel-hybrid-lb",
        "data-parallel-start-rank",
        "grpc",
    )
    if a is None or a["grpc"].value:
        return
    external = _selects(a["data_parallel_external_lb"], a["data_parallel_rank"])
    hybrid = _selects(a["data_parallel_hybrid_lb"], a["data_parallel_start_rank"])
    if external is None or hybrid is None:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        hybrid.where,
        "Cannot use both external and hybrid data parallel load balancing modes. External "
        "LB is enabled via --data-parallel-external-lb or --data-parallel-rank. Hybrid LB is "
        "enabled via --data-parallel-hybrid-lb or --data-parallel-start-rank. Use one mode "
        f"or the other. This file selects external (`{external.name}`) and hybrid "
        f"(`{hybrid.name}`).",
        source=VLLM_SOURCE,
    )
