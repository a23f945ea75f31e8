"""`pipeline-parallel-size` above 1 for a model class without pipeline-parallel support.

## What vLLM does
Pipeline parallelism needs the model class to pass intermediate tensors between stages
(the `SupportsPP` interface). `ModelConfig.verify_with_parallel_config` looks the
architecture up in vLLM's model registry and, when `pipeline_parallel_size > 1` and the
class lacks it, stops with `Pipeline parallelism is not supported for this model.
Supported models implement the SupportsPP interface.` (vllm/config/model.py:1567-1574).
Which classes support it comes from schemas/vllm-0.33.0.models.json, generated from vLLM's
registry and model sources (tools/generate_model_registry.py). Whisper is one that does
not.

## Example
```yaml
model: openai/whisper-small
pipeline-parallel-size: 2
```

## Fixed
```yaml
model: openai/whisper-small
tensor-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import error, given_field, is_int, removal, replace
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC602"
NAME = "pipeline-parallel-unsupported"
VLLM_SOURCE = "vllm/config/model.py:1573"
CATALOGUE = ("model.pp.support",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    pp = given_field(model, "ParallelConfig", "pipeline_parallel_size")
    if config is None or pp is None or not is_int(pp.value) or pp.value <= 1:
        return
    if config.arch_flag("supports_pp") is not False:
        return
    yield error(
        CODE,
        pp,
        "Pipeline parallelism is not supported for this model. Supported models implement "
        f"the `SupportsPP` interface. {config.architecture} does not: use "
        "`tensor-parallel-size` to spread it over GPUs instead.",
        VLLM_SOURCE,
        [removal(model, pp), replace(model, pp, "1", f"Set {pp.written} to 1", preferred=False)],
    )
