"""`VLLM_ALLOW_RUNTIME_LORA_UPDATING` is set for a start with more than one API server.

## What vLLM does
`run_multi_api_server` (vllm/entrypoints/cli/serve.py:315), which `vllm serve` runs when
`api-server-count` is above 1 (or, unset, when `data-parallel-size` above 1 makes it the
default without a load-balancing mode), raises `VLLM_ALLOW_RUNTIME_LORA_UPDATING cannot
be used with api_server_count > 1` when the variable is true (read as `.lower() in ("1",
"true")`): adapters loaded through one API server would be unknown to the others. The
environment decides it, so the rule speaks where the host writes the variable (a
Kubernetes `env:`, a compose `environment:`, `ENV`, `export`, a `NAME=value` prefix); a
headless start, `enable-elastic-ep` (which caps the count at 1) and the Rust frontend
(`VLLM_USE_RUST_FRONTEND=1`, which ignores the count) start a single API server.

## Example
```sh
VLLM_ALLOW_RUNTIME_LORA_UPDATING=1 vllm serve Qwen/Qwen3-8B --enable-lora --api-server-count 2
```

## Fixed
```sh
VLLM_ALLOW_RUNTIME_LORA_UPDATING=1 vllm serve Qwen/Qwen3-8B --enable-lora
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._environ import lookup
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.environ import as_int

CODE = "VC539"
NAME = "runtime-lora-with-api-servers"
VLLM_SOURCE = "vllm/entrypoints/cli/serve.py:315"

VARIABLE = "VLLM_ALLOW_RUNTIME_LORA_UPDATING"
_BALANCING = (
    "data-parallel-external-lb",
    "data-parallel-rank",
    "data-parallel-hybrid-lb",
    "data-parallel-start-rank",
    "data-parallel-multi-port-external-lb",
)


def check(model: ConfigModel) -> Iterator[Finding]:
    invocation = model.invocation
    if invocation.entrypoint != "serve":
        return
    var = invocation.environment().get(VARIABLE)
    if var is None or var.value is None or not var.value.resolved:
        return
    if var.value.text.strip().lower() not in ("1", "true"):
        return
    rust, _ = lookup(model, "VLLM_USE_RUST_FRONTEND")
    if rust is not None and as_int(rust) != 0:
        return  # the Rust frontend, or `bool(int(...))` raising first (VC241)
    a = args(model, "api-server-count", "headless", "enable-elastic-ep", "data-parallel-size")
    balancing = args(model, *_BALANCING)
    if a is None or balancing is None or a["headless"].value or a["enable_elastic_ep"].value:
        return
    count = a["api_server_count"].value
    where = a["api_server_count"].where
    if count is None and not any(b.value for b in balancing.values()):
        count = a["data_parallel_size"].value
        where = a["data_parallel_size"].where
    if not isinstance(count, int) or count <= 1 or where == (0, 0):
        return
    yield finding(
        CODE,
        Severity.ERROR,
        (var.name.start, var.name.end),
        f"VLLM_ALLOW_RUNTIME_LORA_UPDATING cannot be used with api_server_count > 1 (this "
        f"start runs {count} API servers). Unset the variable, or start one API server.",
        source=VLLM_SOURCE,
    )
