"""Async scheduling with pipeline parallelism or the Ray executor, which vLLM 0.11.2-0.18.1 refuse.

## What vLLM does
With `async-scheduling: true`, `VllmConfig.__post_init__` of the releases this rule names
(`vllm-config-lsp rules VC801`) refuses, first, `pipeline-parallel-size` above 1 ("Async
scheduling is not yet compatible with pipeline_parallel_size > 1.", vllm/config/vllm.py:565
in 0.14.1; 0.15.1 lifted it), then, after the speculative checks (VC800), an executor
backend other than `mp`, `uni` and `external_launcher` ("Currently, async scheduling only
supports `mp`, `uni`, or `external_launcher` distributed executor backend, but you chose
`ray`.", vllm.py:583; from 0.19.1 the executor class decides, and Ray's supports it). Only an
explicit `async-scheduling: true` is refused: left unset, vLLM turns async scheduling off
with a warning instead. The backend is checked as written (`ray`); one vLLM picks by itself
depends on the machine and is not.

## Example
```yaml
# vllm-config: version=0.14.1
model: meta-llama/Llama-3.1-8B-Instruct
async-scheduling: true
pipeline-parallel-size: 2
```

## Fixed
```yaml
# vllm-config: version=0.14.1
model: meta-llama/Llama-3.1-8B-Instruct
pipeline-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._async_scheduling import async_on, speculative_refusal
from vllm_config_lsp.rules._engine import is_int
from vllm_config_lsp.rules._frontend import Arg, args
from vllm_config_lsp.rules.releases import has_check
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC801"
NAME = "async-scheduling-v0-11"
#: Gone from the release the other rules transcribe: read from 0.14.1, the newest release
#: that has both checks, run for the releases whose wheel has them.
TRANSCRIBES = "0.14.1"
VLLM_SOURCE = "vllm/config/vllm.py:565"
EXECUTOR_SOURCE = "vllm/config/vllm.py:583"
#: The backends these releases run async scheduling with (vllm.py:543-547).
EXECUTORS = ("mp", "uni", "external_launcher")


def pipeline_refused(model: ConfigModel) -> Arg | None:
    """`pipeline-parallel-size` above 1, where the release refuses it before anything else
    about async scheduling (VC800 stays silent then)."""
    a = args(model, "pipeline-parallel-size")
    if a is None or not async_on(model) or not has_check(model.catalogue, CODE, VLLM_SOURCE):
        return None
    pipeline = a["pipeline_parallel_size"]
    above = pipeline.explicit and is_int(pipeline.value) and pipeline.value > 1
    return pipeline if above else None


def check(model: ConfigModel) -> Iterator[Finding]:
    pipeline = pipeline_refused(model)
    if pipeline is not None:
        yield finding(
            CODE,
            Severity.ERROR,
            pipeline.where,
            "Async scheduling is not yet compatible with pipeline_parallel_size > 1. "
            f"vLLM {model.version} refuses to start: remove `async-scheduling` (vLLM then "
            "runs without it) or `pipeline-parallel-size`.",
            source=VLLM_SOURCE,
        )
        return
    a = args(model, "distributed-executor-backend")
    if a is None or not async_on(model) or speculative_refusal(model) is not None:
        return  # VC800 reports the speculative check, which comes first
    backend = a["distributed_executor_backend"]
    if not backend.explicit or not isinstance(backend.value, str) or backend.value in EXECUTORS:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        backend.where,
        "Currently, async scheduling only supports `mp`, `uni`, or `external_launcher` "
        f"distributed executor backend, but you chose `{backend.value}`. vLLM "
        f"{model.version} refuses to start: remove `async-scheduling` or use the `mp` backend.",
        source=EXECUTOR_SOURCE,
    )
