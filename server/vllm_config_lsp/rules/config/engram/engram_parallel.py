"""`engram-config` sharing settings that the parallel layout cannot honour.

## What vLLM does
When the engine config is built, `EngramConfig.verify_parallel_config` stops the start
with `dp_shared_memory requires data_parallel_size > 1.`, `dp_shared_memory is not
supported with elastic EP.` and `Engram embedding_across_dp is not supported with elastic
EP yet.` (vllm/config/engram.py:93-109). An explicit `engram-config` is only accepted for
a model with Engram n-gram layers (vllm/config/vllm.py:1483-1489); any other model is
refused for that reason instead.

## Example
```yaml
model: deepseek-ai/DeepSeek-V4.1
engram-config:
  dp_shared_memory: true
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V4.1
data-parallel-size: 2
engram-config:
  dp_shared_memory: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import as_bool, json_given, plain
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC436"
NAME = "engram-parallel"
VLLM_SOURCE = "vllm/config/engram.py:99"
CATALOGUE = ("engram.shm_dp", "engram.shm_elastic", "engram.across_dp_elastic")
ELASTIC_SOURCE = "vllm/config/engram.py:101"
ACROSS_SOURCE = "vllm/config/engram.py:107"
FLAG = "engram-config"


def check(model: ConfigModel) -> Iterator[Finding]:
    dp_given = plain(model, "data-parallel-size")
    dp = dp_given.value if dp_given is not None and isinstance(dp_given.value, int) else 1
    elastic_given = plain(model, "enable-elastic-ep")
    elastic = elastic_given is not None and elastic_given.value is True
    shared = json_given(model, FLAG, "dp_shared_memory")
    if shared is not None and shared.value is not None and as_bool(shared.value):
        if dp <= 1:
            yield finding(
                CODE,
                Severity.ERROR,
                shared.span,
                "dp_shared_memory requires data_parallel_size > 1. Set `data-parallel-size`, "
                "or drop `dp_shared_memory` (vLLM turns it on by itself where it applies).",
                source=VLLM_SOURCE,
            )
            return
        if elastic:
            yield finding(
                CODE,
                Severity.ERROR,
                shared.span,
                "dp_shared_memory is not supported with elastic EP.",
                source=ELASTIC_SOURCE,
            )
            return
    across = json_given(model, FLAG, "embedding_across_dp")
    if across is not None and as_bool(across.value) and dp > 1 and elastic:
        yield finding(
            CODE,
            Severity.ERROR,
            across.span,
            "Engram embedding_across_dp is not supported with elastic EP yet.",
            source=ACROSS_SOURCE,
        )
