"""`collect-detailed-traces` naming a module other than model, worker or all, which vLLM 0.6.6
to 0.8.5 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC843`), `--collect-detailed-traces`
is free text; `EngineArgs.create_engine_config` splits it at commas and refuses any part
outside `ALLOWED_DETAILED_TRACE_MODULES` with "Invalid module workers in
collect_detailed_traces. Valid modules are ['model', 'worker', 'all']"
(vllm/engine/arg_utils.py:1256-1263 in 0.8.5.post1). The split keeps spaces: `model, worker`
names the module " worker". vLLM 0.9 on gives the flag argparse choices.

## Example
```yaml
# vllm-config: version=0.8.5.post1
otlp-traces-endpoint: http://otel-collector:4317
collect-detailed-traces: model,workers
```

## Fixed
```yaml
# vllm-config: version=0.8.5.post1
otlp-traces-endpoint: http://otel-collector:4317
collect-detailed-traces: model,worker
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC843"
NAME = "detailed-trace-modules-0-8"
#: Gone from the release the other rules transcribe (argparse choices took its place in 0.9):
#: read from 0.8.5.post1, run for the releases whose wheel has the same check.
TRANSCRIBES = "0.8.5.post1"
VLLM_SOURCE = "vllm/engine/arg_utils.py:1261"
#: `ALLOWED_DETAILED_TRACE_MODULES`, the same list in 0.6.6.post1 to 0.8.5.post1.
MODULES = ["model", "worker", "all"]


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "collect-detailed-traces")
    if a is None:
        return
    traces = a["collect_detailed_traces"]
    if not traces.explicit or not isinstance(traces.value, str):
        return
    unknown = next((m for m in traces.value.split(",") if m not in MODULES), None)
    if unknown is None:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        traces.where,
        f"Invalid module {unknown} in collect_detailed_traces. Valid modules are {MODULES}. "
        f"vLLM {model.version} refuses to start: list only those, comma-separated without "
        "spaces.",
        source=VLLM_SOURCE,
    )
