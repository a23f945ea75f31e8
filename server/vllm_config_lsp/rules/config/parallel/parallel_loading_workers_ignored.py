"""`max-parallel-loading-workers` is accepted and ignored.

## What vLLM does
`ParallelConfig.__post_init__` logs "max_parallel_loading_workers is currently not
supported and will be ignored." whenever the flag is set (vllm/config/parallel.py:1102):
the weights load as if the line were absent.

## Example
```yaml
model: Qwen/Qwen3-8B
max-parallel-loading-workers: 2
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import given_field, removal, warning
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC371"
NAME = "parallel-loading-workers-ignored"
VLLM_SOURCE = "vllm/config/parallel.py:1102"
CATALOGUE = ("warn.parallel.max_parallel_loading_workers",)


def check(model: ConfigModel) -> Iterator[Finding]:
    workers = given_field(model, "ParallelConfig", "max_parallel_loading_workers")
    if workers is None or workers.value is None:
        return
    yield warning(
        CODE,
        workers,
        "max_parallel_loading_workers is currently not supported and will be ignored. "
        f"Remove `{workers.label}`: it has no effect.",
        VLLM_SOURCE,
        [removal(model, workers)],
    )
