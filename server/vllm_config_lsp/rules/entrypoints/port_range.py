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
RPC_SOURCE = "vllm/config/parallel.py:161"


def check(model: ConfigModel) -> Iterator[Finding]:
    try:
        port, rpc = arg(model, "port"), arg(model, "data-parallel-rpc-port")
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
    if rpc.explicit and isinstance(rpc.value, int) and not 1 <= rpc.value <= 65535:
        bound = "less than or equal to 65535" if rpc.value > 65535 else "greater than or equal to 1"
        yield finding(
            CODE,
            Severity.ERROR,
            rpc.where,
            f"Input should be {bound} (ParallelConfig.data_parallel_rpc_port, got {rpc.value})",
            source=RPC_SOURCE,
        )
