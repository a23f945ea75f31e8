"""`sse-keep-alive-interval` is negative.

## What vLLM does
`validate_parsed_serve_args` refuses a negative `--sse-keep-alive-interval` with
`Error: --sse-keep-alive-interval must be a non-negative integer (0 disables keep-alive
comments).` (vllm/entrypoints/common/cli_args.py:558-563), right after argparse. The value
is the idle time in seconds after which a streaming response sends an SSE comment line;
`0` turns the comments off.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
sse-keep-alive-interval: -1
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
sse-keep-alive-interval: 15
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC503"
NAME = "negative-sse-keep-alive"
VLLM_SOURCE = "vllm/entrypoints/common/cli_args.py:560"
CATALOGUE = ("serve.sse_keepalive",)


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "sse-keep-alive-interval")
    if a is None:
        return
    interval = a["sse_keep_alive_interval"]
    if not isinstance(interval.value, int) or interval.value >= 0:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        interval.where,
        "Error: --sse-keep-alive-interval must be a non-negative integer (0 disables "
        f"keep-alive comments). Got {interval.value}: use a number of seconds, or 0.",
        source=VLLM_SOURCE,
        fixes=[
            Fix(
                "Use 0 (no keep-alive comments)",
                (TextEdit(*interval.where, "0"),),
                safe=False,
                preferred=True,
            )
        ],
    )
