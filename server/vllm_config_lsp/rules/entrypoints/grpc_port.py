"""`grpc-port` is combined with settings that cannot go with it, or is out of range.

## What vLLM does
`validate_grpc_port_arg` checks `--grpc-port` right after argparse
(vllm/entrypoints/common/cli_args.py:480-510), in this order:
- `--grpc` too: `--grpc and --grpc-port are mutually exclusive.` (`--grpc` is the Python
  gRPC server on `--port`; `--grpc-port` adds the Rust frontend's gRPC services);
- `VLLM_USE_RUST_FRONTEND` unset or `0` in vLLM's environment, or not `vllm serve`
  (`python -m vllm.entrypoints.openai.api_server`): `--grpc-port requires
  VLLM_USE_RUST_FRONTEND=1 vllm serve` (vllm/entrypoints/common/cli_args.py:491);
- `headless`, or `api-server-count` 0 or less: `--grpc-port requires a Rust frontend;
  remove --headless and non-positive --api-server-count`;
- `data-parallel-multi-port-external-lb`: `--grpc-port is incompatible with
  --data-parallel-multi-port-external-lb: its frontends would share the same gRPC port`;
- a port outside 0-65535: `--grpc-port must be between 0 and 65535`;
- the same port as `port` (HTTP over TCP, no `uds`): `--grpc-port must differ from --port
  when HTTP uses TCP`.

The environment is the serving host's, which a config file cannot hold. `grpc-port`
exists only for the Rust frontend, so a file that sets it is meant for a host that sets
`VLLM_USE_RUST_FRONTEND=1`: an error would be wrong for every such deployment, so the
missing variable is a warning (an error for the `api_server` entrypoint, which refuses
whatever the environment). A command line whose host writes the environment decides it:
`VLLM_USE_RUST_FRONTEND=1` in a Kubernetes `env:`, a compose `environment:`, a Dockerfile
`ENV`, an `export` or a `VAR=1 vllm serve` prefix silences it; a Kubernetes container or a
compose service that does not set it (and has no `envFrom`/`env_file`) is refused: an
error. Elsewhere the rule reads the environment it runs in, as vLLM does.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
grpc: true
grpc-port: 50051
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
grpc: true
port: 50051
```
(The Python gRPC server on `port`; or keep `grpc-port` alone for the Rust frontend, with
`VLLM_USE_RUST_FRONTEND=1` where vLLM runs.)
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._environ import lookup
from vllm_config_lsp.rules._frontend import Arg, args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.environ import as_int

CODE = "VC508"
NAME = "grpc-port"
VLLM_SOURCE = "vllm/entrypoints/common/cli_args.py:486"
CATALOGUE = (
    "serve.grpc_both",
    "serve.grpc_port.headless",
    "serve.grpc_port.multiport",
    "serve.grpc_port.range",
    "serve.grpc_port.clash",
    "serve.grpc_port.rust",
)

SOURCE = "vllm/entrypoints/common/cli_args.py:{}"


def _problem(a: dict[str, Arg]) -> tuple[str, int] | None:
    """(message, source line) of the first check vLLM fails."""
    get = {k: v.value for k, v in a.items()}
    count = get["api_server_count"]
    port = get["grpc_port"]
    if get["grpc"]:
        return (
            "--grpc and --grpc-port are mutually exclusive. Use --grpc --port for the "
            "Python gRPC server, or VLLM_USE_RUST_FRONTEND=1 with --grpc-port for the "
            "Rust frontend. Keep only one of `grpc` and `grpc-port`.",
            486,
        )
    if get["headless"] or (isinstance(count, int) and count <= 0):
        return (
            "--grpc-port requires a Rust frontend; remove --headless and non-positive "
            "--api-server-count",
            496,
        )
    if get["data_parallel_multi_port_external_lb"]:
        return (
            "--grpc-port is incompatible with --data-parallel-multi-port-external-lb: its "
            "frontends would share the same gRPC port",
            501,
        )
    if not isinstance(port, int):
        return None
    if not 0 <= port <= 65535:
        return "--grpc-port must be between 0 and 65535", 507
    if port != 0 and port == get["port"] and not get["uds"]:
        return (
            f"--grpc-port must differ from --port when HTTP uses TCP (both are {port}).",
            509,
        )
    return None


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(
        model,
        "grpc-port",
        "grpc",
        "headless",
        "api-server-count",
        "data-parallel-multi-port-external-lb",
        "port",
        "uds",
    )
    if a is None or a["grpc_port"].value is None:
        return
    problem = _problem(a)
    if problem is None:
        yield from _rust_frontend(model, a["grpc_port"])
        return
    message, line = problem
    removal = a["grpc_port"].removal(model, "Remove `grpc-port`")
    yield finding(
        CODE,
        Severity.ERROR,
        a["grpc_port"].where,
        message,
        source=SOURCE.format(line),
        fixes=[removal] if removal and line != 509 else [],
    )


RUST = "--grpc-port requires VLLM_USE_RUST_FRONTEND=1 vllm serve"


def _rust_frontend(model: ConfigModel, port: Arg) -> Iterator[Finding]:
    """`VLLM_USE_RUST_FRONTEND` (read as `bool(int(...))`, vllm/envs.py:591) and the
    `serve` subcommand."""
    removal = port.removal(model, "Remove `grpc-port`")
    fixes = [removal] if removal else []
    if model.invocation.entrypoint != "serve":
        yield finding(
            CODE,
            Severity.ERROR,
            port.where,
            f"{RUST}: this command line starts the API server module, which has no Rust "
            "frontend. Start it with `vllm serve`, or remove `grpc-port`.",
            source=SOURCE.format(491),
            fixes=fixes,
        )
        return
    value, known = lookup(model, "VLLM_USE_RUST_FRONTEND")
    number = as_int(value or "0")
    if number is None:
        return  # `bool(int(...))` raises first: VC241 reports the value
    if number:
        return
    if known:
        said = (
            f"VLLM_USE_RUST_FRONTEND={value}" if value is not None else "no VLLM_USE_RUST_FRONTEND"
        )
        severity = Severity.ERROR
        message = (
            f"{RUST}: the environment this command line gets sets {said}, so vLLM refuses "
            "it. Set VLLM_USE_RUST_FRONTEND=1 next to it, or remove `grpc-port`."
        )
    else:
        severity = Severity.WARNING
        message = (
            f"{RUST}: vLLM refuses this file unless the environment it runs in sets "
            "VLLM_USE_RUST_FRONTEND=1 (the Rust frontend's gRPC listener). Set it there (and "
            "here, to silence this), or remove `grpc-port`."
        )
    yield finding(CODE, severity, port.where, message, source=SOURCE.format(491), fixes=fixes)
