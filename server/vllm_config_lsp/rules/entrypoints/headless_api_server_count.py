"""`headless` is combined with a positive `api-server-count`.

## What vLLM does
`vllm serve` in headless mode starts engines only, no API server. `ServeSubcommand.cmd`
refuses a positive `--api-server-count` there: `--api-server-count=N cannot be used with
--headless (no API servers are started in headless mode).`
(vllm/entrypoints/cli/serve.py:69-75), before any engine work. `api-server-count: 0` (or
leaving it out) is what headless means.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
headless: true
api-server-count: 2
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
headless: true
```
"""

from collections.abc import Iterator
from dataclasses import replace

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC509"
NAME = "headless-api-server-count"
VLLM_SOURCE = "vllm/entrypoints/cli/serve.py:71"
CATALOGUE = ("serve.headless.api_servers",)


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "headless", "api-server-count", "grpc")
    if a is None or a["grpc"].value or not a["headless"].value:
        return  # `--grpc` returns before the headless check (serve.py:59-63)
    count = a["api_server_count"]
    if not isinstance(count.value, int) or count.value <= 0:
        return
    removal = count.removal(model, "Remove `api-server-count`")
    if removal is not None:
        removal = replace(removal, preferred=True)
    yield finding(
        CODE,
        Severity.ERROR,
        count.where,
        f"--api-server-count={count.value} cannot be used with --headless (no API servers "
        "are started in headless mode). Remove `api-server-count`, or `headless` to run "
        "the API servers here.",
        source=VLLM_SOURCE,
        fixes=[removal] if removal else [],
    )
