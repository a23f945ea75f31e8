"""`enable-per-request-metrics` is set together with `disable-log-stats`.

## What vLLM does
`validate_parsed_serve_args` refuses the pair with `Error: --enable-per-request-metrics
requires engine statistics logging; remove --disable-log-stats to enable per-request
metrics.` (vllm/entrypoints/common/cli_args.py:565-571), right after argparse. The
per-request timings come from the engine's statistics, which `--disable-log-stats` turns
off.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
enable-per-request-metrics: true
disable-log-stats: true
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
enable-per-request-metrics: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC504"
NAME = "per-request-metrics-without-stats"
VLLM_SOURCE = "vllm/entrypoints/common/cli_args.py:568"
CATALOGUE = ("serve.per_request_metrics",)


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "enable-per-request-metrics", "disable-log-stats")
    if a is None or not a["enable_per_request_metrics"].value:
        return
    stats = a["disable_log_stats"]
    if not stats.value:
        return
    fixes = [
        fix
        for fix in (
            stats.removal(model, "Remove `disable-log-stats`"),
            a["enable_per_request_metrics"].removal(model, "Remove `enable-per-request-metrics`"),
        )
        if fix is not None
    ]
    yield finding(
        CODE,
        Severity.ERROR,
        a["enable_per_request_metrics"].where,
        "Error: --enable-per-request-metrics requires engine statistics logging; remove "
        "--disable-log-stats to enable per-request metrics.",
        source=VLLM_SOURCE,
        fixes=fixes,
    )
