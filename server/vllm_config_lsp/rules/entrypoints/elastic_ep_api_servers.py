"""`api-server-count` above 1 with `enable-elastic-ep`: vLLM caps it to 1.

## What vLLM does
`ServeSubcommand.cmd` logs "Elastic EP only supports running with with at most one API
server. Capping api_server_count from N to 1." (vllm/entrypoints/cli/serve.py:140) and
starts a single API server.

## Example
```yaml
model: Qwen/Qwen3-30B-A3B
enable-expert-parallel: true
data-parallel-size: 2
enable-eplb: true
enable-elastic-ep: true
api-server-count: 4
```

## Fixed
```yaml
model: Qwen/Qwen3-30B-A3B
enable-expert-parallel: true
data-parallel-size: 2
enable-eplb: true
enable-elastic-ep: true
api-server-count: 1
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import given, is_int, replace, switched_on, warning
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC380"
NAME = "elastic-ep-api-servers"
VLLM_SOURCE = "vllm/entrypoints/cli/serve.py:140"
CATALOGUE = ("warn.serve.api_server_count.elastic_ep",)


def check(model: ConfigModel) -> Iterator[Finding]:
    elastic = switched_on(model, "enable-elastic-ep")
    count = given(model, "api-server-count")
    if elastic is None or count is None or not is_int(count.value) or count.value <= 1:
        return
    yield warning(
        CODE,
        count,
        "Elastic EP only supports running with with at most one API server. Capping "
        f"api_server_count from {count.value} to 1. Write `1`.",
        VLLM_SOURCE,
        [replace(model, count, 1, "Use `1`")],
        related=[elastic],
    )
