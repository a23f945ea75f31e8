"""`data-parallel-backend` is neither `mp` nor `ray`.

## What vLLM does
`--data-parallel-backend` (`-dpb`) takes any text at argparse time. While the engine config
is built, `EngineArgs.create_engine_config` asserts `data_parallel_backend can only be ray
or mp, got X` when no `data-parallel-address` is given
(vllm/engine/arg_utils.py:2545-2549); with an address, `ParallelConfig` refuses the value
a moment later (its type is `Literal['ray', 'mp']`). Either way vLLM does not start.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
data-parallel-size: 2
data-parallel-backend: MP
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
data-parallel-size: 2
data-parallel-backend: mp
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import closest, finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC515"
NAME = "data-parallel-backend"
VLLM_SOURCE = "vllm/engine/arg_utils.py:2547"
CATALOGUE = ("cli.dp.backend_value",)

BACKENDS = ("mp", "ray")


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "data-parallel-backend")
    if a is None:
        return
    backend = a["data_parallel_backend"]
    if not backend.explicit or backend.value in BACKENDS or not isinstance(backend.value, str):
        return
    fixes = []
    suggestion = closest(backend.value.lower(), BACKENDS, cutoff=0.5)
    if suggestion is not None:
        fixes.append(
            Fix(
                f"Replace with `{suggestion}`",
                (TextEdit(*backend.where, suggestion),),
                safe=False,
                preferred=True,
            )
        )
    yield finding(
        CODE,
        Severity.ERROR,
        backend.where,
        f"data_parallel_backend can only be ray or mp, got {backend.value}: use `mp` "
        "(processes, the default) or `ray`.",
        source=VLLM_SOURCE,
        fixes=fixes,
    )
