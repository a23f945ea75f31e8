"""Async scheduling with the uni-process backend, pipeline parallelism or speculative
decoding, which vLLM 0.10.2 refuses.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC360`),
`EngineArgs.create_engine_config` refuses `async-scheduling` with
`distributed-executor-backend: uni` ("Async scheduling is not supported with uni-process
backend."), with `pipeline-parallel-size` above 1 ("Async scheduling is not supported with
pipeline-parallel-size > 1.") and with a speculative config ("Currently, speculative
decoding is not supported with async scheduling.") (vllm/engine/arg_utils.py:1282-1300 in
0.10.2). Later releases moved these checks to `VllmConfig.__post_init__` and lifted them
one by one.

## Example
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
async-scheduling: true
pipeline-parallel-size: 2
```

## Fixed
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
async-scheduling: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import is_int
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules._model_config import spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC360"
NAME = "async-scheduling-v0-10"
#: Gone from the release the other rules transcribe: read from 0.10.2, run for the
#: releases whose wheel has the same checks.
TRANSCRIBES = "0.10.2"
SOURCE = "vllm/engine/arg_utils.py:{}"
VLLM_SOURCE = "vllm/engine/arg_utils.py:1289"
#: The raise lines of 0.10.2: uni-process backend, pipeline parallelism, speculation.
LINES = (1289, 1292, 1298)
FLAGS = ("async-scheduling", "distributed-executor-backend", "pipeline-parallel-size")


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, *FLAGS)
    if a is None or a["async_scheduling"].value is not True:
        return
    backend, pipeline = a["distributed_executor_backend"], a["pipeline_parallel_size"]
    switch = a["async_scheduling"]
    if backend.explicit and backend.value == "uni":
        where, line, said = (
            backend,
            1289,
            "Async scheduling is not supported with uni-process backend.",
        )
    elif pipeline.explicit and is_int(pipeline.value) and pipeline.value > 1:
        where, line, said = (
            pipeline,
            1292,
            ("Async scheduling is not supported with pipeline-parallel-size > 1."),
        )
    elif spec(model) is not None:
        where, line, said = (
            switch,
            1298,
            ("Currently, speculative decoding is not supported with async scheduling."),
        )
    else:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        where.where,
        f"{said} vLLM {model.version} refuses to start: remove `async-scheduling` or the "
        "setting it cannot run with.",
        source=SOURCE.format(line),
    )
