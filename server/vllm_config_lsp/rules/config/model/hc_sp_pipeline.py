"""`enable-hc-sp` with tensor parallelism needs `pipeline-parallel-size: 1`.

## What vLLM does
With `--enable-hc-sp` and `tensor_parallel_size > 1`, `ModelConfig.verify_with_parallel_config`
requires CUDA or ROCm and a model that supports it, then stops the start with
`--enable-hc-sp requires PP=1` when `pipeline_parallel_size` is not 1
(vllm/config/model.py:1546-1555). Without tensor parallelism the option has no effect and
nothing is checked. No model class of vLLM 0.33.0 implements HC-SP (VC622 refuses them
first), so the examples name a plugin's model.

## Example
```yaml
model: my-org/model-with-hc-sp
enable-hc-sp: true
tensor-parallel-size: 8
pipeline-parallel-size: 2
```

## Fixed
```yaml
model: my-org/model-with-hc-sp
enable-hc-sp: true
tensor-parallel-size: 8
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import plain
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC421"
NAME = "hc-sp-pipeline"
VLLM_SOURCE = "vllm/config/model.py:1555"
CATALOGUE = ("model.hc_sp.pp",)


def check(model: ConfigModel) -> Iterator[Finding]:
    enabled = plain(model, "enable-hc-sp")
    tp = plain(model, "tensor-parallel-size")
    pp = plain(model, "pipeline-parallel-size")
    if enabled is None or enabled.value is not True or tp is None or pp is None:
        return
    if not isinstance(tp.value, int) or tp.value <= 1 or pp.value == 1:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        pp.span,
        f"--enable-hc-sp requires PP=1 (pipeline-parallel-size is {pp.value}): use tensor "
        "parallelism only, or drop `enable-hc-sp`.",
        source=VLLM_SOURCE,
    )
