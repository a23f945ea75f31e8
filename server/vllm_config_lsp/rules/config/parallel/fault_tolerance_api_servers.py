"""Fault tolerance with more than one API server process.

## What vLLM does
`vllm serve` with `api-server-count` above 1 builds the engine config in its
multi-API-server launcher with that count (vllm/entrypoints/cli/serve.py:307), and
`ParallelConfig._validate_parallel_config` then refuses fault tolerance
(vllm/config/parallel.py:530-535): the fault-tolerance system assumes one
AsyncMPClient manages all engines. `fault-tolerance-config` turns fault tolerance on by
itself; `enable-elastic-ep` caps the API servers at 1 first.

## Example
```yaml
model: Qwen/Qwen3-30B-A3B
data-parallel-size: 2
data-parallel-rank: 0
enable-fault-tolerance: true
api-server-count: 2
```

## Fixed
```yaml
model: Qwen/Qwen3-30B-A3B
data-parallel-size: 2
data-parallel-rank: 0
enable-fault-tolerance: true
api-server-count: 1
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given, is_int, replace, switched_on
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC344"
NAME = "fault-tolerance-api-servers"
VLLM_SOURCE = "vllm/config/parallel.py:531"
CATALOGUE = ("parallel.ft.api_servers",)


def check(model: ConfigModel) -> Iterator[Finding]:
    tolerance = switched_on(model, "enable-fault-tolerance")
    config = given(model, "fault-tolerance-config")
    if tolerance is None and (config is None or not isinstance(config.value, dict)):
        return
    servers = given(model, "api-server-count")
    if servers is None or not is_int(servers.value) or servers.value <= 1:
        return
    if switched_on(model, "enable-elastic-ep") or switched_on(model, "headless"):
        return  # capped to 1, or refused by the headless check first
    yield error(
        CODE,
        servers,
        "Fault tolerance requires a single API server process (--api-server-count=1), but "
        f"got {servers.value}. The FT system assumes one AsyncMPClient manages all engines.",
        VLLM_SOURCE,
        [replace(model, servers, "1", "Use 1")],
    )
