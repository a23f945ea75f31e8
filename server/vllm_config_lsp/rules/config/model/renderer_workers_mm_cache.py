"""`renderer-num-workers > 1` with the multimodal processor cache on a pooling model.

## What vLLM does
For a multimodal model run as a pooling model, preprocessing runs on the renderer workers
and the multimodal processor cache is not thread-safe. `ModelConfig.__post_init__` stops
the start with `Cannot use --renderer-num-workers > 1 with the multimodal processor cache
enabled for pooling models. …` (vllm/config/model.py:896-908) when `renderer_num_workers
> 1`, `mm_processor_cache_gb > 0` (default 4) and the runner is `pooling`. Checked here only
when `runner: pooling` is explicit (`auto` is resolved from the model).

## Example
```yaml
model: Qwen/Qwen2-VL-2B-Instruct
runner: pooling
renderer-num-workers: 4
```

## Fixed
```yaml
model: Qwen/Qwen2-VL-2B-Instruct
runner: pooling
renderer-num-workers: 4
mm-processor-cache-gb: 0
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import MULTIMODAL_GATE, plain
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC423"
NAME = "renderer-workers-mm-cache"
VLLM_SOURCE = "vllm/config/model.py:901"
CATALOGUE = ("model.renderer_workers.mm_cache",)


def check(model: ConfigModel) -> Iterator[Finding]:
    runner = plain(model, "runner")
    workers = plain(model, "renderer-num-workers")
    cache = plain(model, "mm-processor-cache-gb")
    if runner is None or runner.value != "pooling" or workers is None:
        return
    size = cache.value if cache is not None else 4
    if not isinstance(workers.value, int) or workers.value <= 1 or not size or size <= 0:
        return
    yield finding(
        CODE,
        Severity.WARNING,
        workers.span,
        "Cannot use --renderer-num-workers > 1 with the multimodal processor cache enabled "
        "for pooling models. Pooling preprocessing runs on the renderer workers, and the "
        "cache is not thread-safe. Please set --renderer-num-workers 1 (the default), or "
        f"disable the cache with --mm-processor-cache-gb 0. {MULTIMODAL_GATE}",
        source=VLLM_SOURCE,
    )
