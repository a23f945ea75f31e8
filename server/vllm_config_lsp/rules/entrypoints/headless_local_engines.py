"""Headless mode with `data-parallel-size-local` 0 or less starts no engine.

## What vLLM does
`run_headless` builds the engine config and then refuses a node that would run no engine:
`data_parallel_size_local must be > 0 in headless mode`
(vllm/entrypoints/cli/serve.py:199-203). A headless node exists only to run engines for a
head node elsewhere, so it needs at least one local data-parallel rank. `api-server-count:
0` also means headless. With external load balancing vLLM refuses any local size other
than 1 earlier (VC514).

## Example
```yaml
model: Qwen/Qwen3-30B-A3B
headless: true
data-parallel-size: 4
data-parallel-size-local: 0
```

## Fixed
```yaml
model: Qwen/Qwen3-30B-A3B
headless: true
data-parallel-size: 4
data-parallel-size-local: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC527"
NAME = "headless-local-engines"
VLLM_SOURCE = "vllm/entrypoints/cli/serve.py:203"
CATALOGUE = ("serve.headless.local_engines",)


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(
        model,
        "headless",
        "api-server-count",
        "grpc",
        "data-parallel-multi-port-external-lb",
        "data-parallel-size-local",
        "data-parallel-external-lb",
        "data-parallel-rank",
    )
    if a is None or a["grpc"].value or a["data_parallel_multi_port_external_lb"].value:
        return
    count = a["api_server_count"].value
    headless = a["headless"].value or (isinstance(count, int) and count < 1)
    local = a["data_parallel_size_local"]
    external = a["data_parallel_external_lb"].value or a["data_parallel_rank"].value is not None
    if not headless or external or not isinstance(local.value, int) or local.value > 0:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        local.where,
        f"data_parallel_size_local must be > 0 in headless mode (got {local.value}): a "
        "headless node runs this many engines; set it to at least 1, or remove "
        "`data-parallel-size-local`.",
        source=VLLM_SOURCE,
    )
