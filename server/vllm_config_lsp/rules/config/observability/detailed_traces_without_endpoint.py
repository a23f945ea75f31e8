"""`collect-detailed-traces` is set without `otlp-traces-endpoint`.

## What vLLM does
`ObservabilityConfig._validate_tracing_config` refuses detailed traces without a place to
send them: `collect_detailed_traces requires `--otlp-traces-endpoint` to be set.`
(vllm/config/observability.py:215-221), while the engine config is built. The detailed
spans are OpenTelemetry spans; without an OTLP endpoint vLLM has no exporter for them.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
collect-detailed-traces: all
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
collect-detailed-traces: all
otlp-traces-endpoint: http://otel-collector:4317
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC520"
NAME = "detailed-traces-without-endpoint"
VLLM_SOURCE = "vllm/config/observability.py:219"
CATALOGUE = ("obs.traces_need_endpoint",)


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "collect-detailed-traces", "otlp-traces-endpoint")
    if a is None:
        return
    traces, endpoint = a["collect_detailed_traces"], a["otlp_traces_endpoint"]
    if not traces.value or endpoint.value:
        return
    removal = traces.removal(model, "Remove `collect-detailed-traces`")
    yield finding(
        CODE,
        Severity.ERROR,
        traces.where,
        "collect_detailed_traces requires `--otlp-traces-endpoint` to be set. Add "
        "`otlp-traces-endpoint: <OTLP collector URL>`, or remove `collect-detailed-traces`.",
        source=VLLM_SOURCE,
        fixes=[removal] if removal else [],
    )
