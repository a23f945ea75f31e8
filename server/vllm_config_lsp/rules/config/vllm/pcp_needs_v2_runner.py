"""Prefill context parallelism with `VLLM_USE_V2_MODEL_RUNNER=0` (vLLM 0.27.1 and 0.28.0).

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC816`), `VllmConfig.__post_init__`
refuses a `prefill-context-parallel-size` above 1 when the V1 model runner is chosen:
`Prefill context parallelism requires Model Runner V2. Remove VLLM_USE_V2_MODEL_RUNNER=0.`
(vllm/config/vllm.py:1601-1607 in 0.28.0). Left unset, the variable lets vLLM choose V2
for prefill context parallelism (`use_v2_model_runner`, vllm.py:615-622); set to a false
integer (`bool(int(value))`), it forces V1, which has no PCP support. The environment
decides it, so the rule speaks where the host writes the variable (a Kubernetes `env:`, a
compose `environment:`, `ENV`, `export`, a `NAME=value` prefix).

## Example
```sh
# vllm-config: version=0.28.0
VLLM_USE_V2_MODEL_RUNNER=0 vllm serve deepseek-ai/DeepSeek-V3 \\
  --tensor-parallel-size 4 --prefill-context-parallel-size 2
```

## Fixed
```sh
# vllm-config: version=0.28.0
vllm serve deepseek-ai/DeepSeek-V3 \\
  --tensor-parallel-size 4 --prefill-context-parallel-size 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import above_one
from vllm_config_lsp.rules._environ import where
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.environ import as_int

CODE = "VC816"
NAME = "pcp-needs-v2-runner"
#: Gone from the release the other rules transcribe: read from 0.28.0, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.28.0"
VLLM_SOURCE = "vllm/config/vllm.py:1604"
VARIABLE = "VLLM_USE_V2_MODEL_RUNNER"


def check(model: ConfigModel) -> Iterator[Finding]:
    var = model.invocation.environment().get(VARIABLE)
    if var is None or var.value is None or not var.value.resolved:
        return
    if as_int(var.value.text) != 0:
        return  # V2 chosen, or `bool(int(...))` raising first (VC241)
    pcp = above_one(model, "ParallelConfig", "prefill_context_parallel_size")
    if pcp is None:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        where(var),
        "Prefill context parallelism requires Model Runner V2. Remove "
        f"VLLM_USE_V2_MODEL_RUNNER=0. `{pcp.written}` is {pcp.value} here, and the V1 model "
        "runner this variable forces has no prefill context parallelism.",
        source=VLLM_SOURCE,
    )
