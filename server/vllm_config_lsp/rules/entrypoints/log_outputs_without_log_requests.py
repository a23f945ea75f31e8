"""`enable-log-outputs` is set without `enable-log-requests`.

## What vLLM does
`validate_parsed_serve_args` refuses `--enable-log-outputs` unless request logging is on:
`Error: --enable-log-outputs requires --enable-log-requests`
(vllm/entrypoints/common/cli_args.py:555-556), right after argparse. Outputs are logged
by the request logger, which only exists with `--enable-log-requests`.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
enable-log-outputs: true
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
enable-log-outputs: true
enable-log-requests: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC502"
NAME = "log-outputs-without-log-requests"
VLLM_SOURCE = "vllm/entrypoints/common/cli_args.py:556"
CATALOGUE = ("serve.log_outputs",)


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "enable-log-outputs", "enable-log-requests")
    if a is None or not a["enable_log_outputs"].value or a["enable_log_requests"].value:
        return
    switch = a["enable_log_outputs"]
    removal = switch.removal(model, "Remove `enable-log-outputs`")
    yield finding(
        CODE,
        Severity.ERROR,
        switch.where,
        "Error: --enable-log-outputs requires --enable-log-requests. Add "
        "`enable-log-requests: true`, or remove `enable-log-outputs`.",
        source=VLLM_SOURCE,
        fixes=[removal] if removal else [],
    )
