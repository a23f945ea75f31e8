"""A port outside 0-65535: vLLM stops before it serves anything.

## What vLLM does
`setup_server` binds the HTTP socket before the engine is built
(vllm/entrypoints/launchers/launcher.py:378, `create_server_socket`), and Python's
`socket.bind` refuses such a port: `OverflowError: bind(): port must be 0-65535.` (not
when `uds` serves HTTP on a Unix socket, `headless` serves none, or `grpc` serves gRPC on
it, which this rule does not follow). `data-parallel-rpc-port` goes to
`ParallelConfig.data_parallel_rpc_port`, declared `Field(ge=1, le=65535)`, so building the
engine config fails first.

## Example
```yaml
model: Qwen/Qwen3-8B
port: 80000
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
port: 8000
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import Unparsed, arg
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC529"
NAME = "port-range"
VLLM_SOURCE = "vllm/entrypoints/launchers/launcher.py:353"


def check(model: ConfigModel) -> Iterator[Finding]:
    try:
        port = arg(model, "port")
        elsewhere = [arg(model, name).value for name in ("uds", "headless", "grpc")]
    except Unparsed:
        return
    outside = isinstance(port.value, int) and not 0 <= port.value <= 65535
    if port.explicit and outside and not any(elsewhere):
        yield finding(
            CODE,
            Severity.ERROR,
            port.where,
            f"bind(): port must be 0-65535 (got {port.value}): vLLM cannot open its HTTP socket",
            source=VLLM_SOURCE,
        )
