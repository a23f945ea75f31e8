"""Pipeline parallelism with an executor backend that cannot run it.

## What vLLM does
`EngineArgs._check_feature_supported`, the first step of `create_engine_config`, refuses
`pipeline-parallel-size` > 1 with any `distributed-executor-backend` other than unset,
`mp`, `ray` or `external_launcher`: `Pipeline Parallelism without Ray distributed executor
or multiprocessing executor or external launcher is not supported. We recommend to remove
... from your config.` (vllm/engine/arg_utils.py:2922-2937, message :3276-3281). The `uni`
executor runs a single worker in the API process, so there is no second stage to hand
activations to.

## Example
```yaml
model: meta-llama/Llama-3.1-70B-Instruct
pipeline-parallel-size: 2
distributed-executor-backend: uni
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-70B-Instruct
pipeline-parallel-size: 2
distributed-executor-backend: mp
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC517"
NAME = "pipeline-parallel-executor"
VLLM_SOURCE = "vllm/engine/arg_utils.py:2937"
CATALOGUE = ("cli.pp_executor",)

SUPPORTED = (None, "ray", "mp", "external_launcher")
FEATURE = (
    "Pipeline Parallelism without Ray distributed executor or multiprocessing executor or "
    "external launcher"
)


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "pipeline-parallel-size", "distributed-executor-backend")
    if a is None:
        return
    pp, backend = a["pipeline_parallel_size"], a["distributed_executor_backend"]
    if not isinstance(pp.value, int) or pp.value <= 1 or backend.value in SUPPORTED:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        backend.where,
        f"{FEATURE} is not supported. We recommend to remove {FEATURE} from your config. "
        f"`distributed-executor-backend: {backend.value}` cannot run "
        f"pipeline-parallel-size {pp.value}: use `mp` or `ray`.",
        source=VLLM_SOURCE,
        fixes=[
            Fix(
                "Use the `mp` executor",
                (TextEdit(*backend.where, "mp"),),
                safe=False,
                preferred=True,
            )
        ],
    )
