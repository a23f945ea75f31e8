"""Async scheduling left to vLLM, with settings that send it to the V1 model runner.

## What vLLM does
Some settings make `VllmConfig.use_v2_model_runner` fall back to the V1 model runner
(`_get_v2_model_runner_unsupported_features`, vllm/config/vllm.py:3053): the
`external_launcher` executor with pipeline parallelism (V2 lacks its PP-output broadcast)
and the `suffix` or `custom_class` speculative methods. With `async-scheduling` left unset,
`VllmConfig.__post_init__` then turns async scheduling off where the V1 runner cannot run it
(vllm.py:1712): "Async scheduling is disabled because the V1 model runner does not support it
with pipeline parallelism." (or "with suffix-based speculative decoding"). No setting of the
file changes, so this is information; set `no-async-scheduling: true` to say so. The V1
runner is also chosen without such a setting (no Triton, `VLLM_USE_V2_MODEL_RUNNER=0`): that
depends on the machine and is not reported. HiSparse and watermarking force V2 and are skipped.

## Example
```yaml
model: Qwen/Qwen2.5-0.5B-Instruct
distributed-executor-backend: external_launcher
pipeline-parallel-size: 2
```

## Fixed
```yaml
model: Qwen/Qwen2.5-0.5B-Instruct
distributed-executor-backend: external_launcher
pipeline-parallel-size: 2
no-async-scheduling: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._checkpoint import resolve_runner
from vllm_config_lsp.rules._engine import (
    Given,
    above_one,
    add_flag,
    field_value,
    given,
    given_field,
)
from vllm_config_lsp.rules._model_config import ASYNC_METHODS, spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC643"
NAME = "async-scheduling-v1-off"
VLLM_SOURCE = "vllm/config/vllm.py:1712"
CATALOGUE = ("warn.vllm.async.v1_runner",)
#: Methods Model Runner V2 lacks (vllm.py:3067).
V1_METHODS = ("suffix", "custom_class")


def _v1_cause(model: ConfigModel) -> tuple[Given, str, str] | None:
    """The setting that sends the file to the V1 runner, what sends it in words, and
    vLLM's name for the incompatibility it then reports."""
    config = spec(model)
    pipeline = above_one(model, "ParallelConfig", "pipeline_parallel_size")
    executor = given_field(model, "ParallelConfig", "distributed_executor_backend")
    if config is not None and config.method in V1_METHODS:
        anchor = Given(config.method, config.span("method"), "speculative-config.method")
        if not config.has("method"):
            anchor = Given(config.method, config.anchor, "speculative-config")
        method = f"`method: {config.method}`"
        return anchor, method, f"{config.method}-based speculative decoding"
    if executor is None or executor.value != "external_launcher" or pipeline is None:
        return None
    if config is not None and config.method not in ASYNC_METHODS:
        return None  # reported for the method, which a rule would have to name first
    if config is not None and config.value("disable_padded_drafter_batch") is True:
        return None
    launcher = f"`{executor.label}: external_launcher` with `{pipeline.label}`"
    return pipeline, launcher, "pipeline parallelism"


def check(model: ConfigModel) -> Iterator[Finding]:
    if given_field(model, "SchedulerConfig", "async_scheduling") is not None:
        return
    if field_value(model, "AttentionConfig", "hisparse_config") is not None:
        return
    if given(model, "watermark-config") is not None:
        return
    resolved = resolve_runner(model)
    runner = (
        resolved.runner if resolved is not None else field_value(model, "ModelConfig", "runner")
    )
    if runner == "pooling":
        return
    cause = _v1_cause(model)
    if cause is None:
        return
    anchor, because, what = cause
    top = given(model, anchor.label.split(".", 1)[0]) or anchor
    fix = add_flag(model, top, "no-async-scheduling", "true") if model.is_config_file else None
    yield finding(
        CODE,
        Severity.INFO,
        anchor.where,
        "Async scheduling is disabled because the V1 model runner does not support it with "
        f"{what}. ({because} sends the file to the V1 model runner.) Add "
        "`no-async-scheduling: true` to say so, or drop the setting to keep async scheduling.",
        source=VLLM_SOURCE,
        fixes=[fix] if fix is not None else [],
    )
