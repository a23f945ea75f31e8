"""`engram-config` asks for shared or huge-page tables without CPU offload.

## What vLLM does
Shared-memory tables (`dp_shared_memory`) and transparent huge pages (`use_thp`) are ways
of holding CPU-offloaded Engram tables. `EngramConfig._validate_shared_memory` stops the
start, while the arguments are parsed, with `dp_shared_memory requires cpu_offload=True`
and with `use_thp requires cpu_offload=True and dp_shared_memory=False`
(vllm/config/engram.py:58-66).

## Example
```yaml
model: deepseek-ai/DeepSeek-V4.1
engram-config:
  cpu_offload: false
  dp_shared_memory: true
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V4.1
data-parallel-size: 2
engram-config:
  cpu_offload: true
  dp_shared_memory: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import as_bool, json_given
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC435"
NAME = "engram-shared-memory"
VLLM_SOURCE = "vllm/config/engram.py:61"
CATALOGUE = ("engram.shm_needs_offload", "engram.thp")
THP_SOURCE = "vllm/config/engram.py:63"
FLAG = "engram-config"


def check(model: ConfigModel) -> Iterator[Finding]:
    offload = json_given(model, FLAG, "cpu_offload")
    shared = json_given(model, FLAG, "dp_shared_memory")
    thp = json_given(model, FLAG, "use_thp")
    cpu_offload = as_bool(offload.value) if offload is not None else True
    dp_shared = shared is not None and shared.value is not None and as_bool(shared.value)
    if shared is not None and dp_shared and not cpu_offload:
        yield finding(
            CODE,
            Severity.ERROR,
            shared.span,
            "dp_shared_memory requires cpu_offload=True: turn `cpu_offload` on, or drop "
            "`dp_shared_memory`.",
            source=VLLM_SOURCE,
        )
        return
    if thp is not None and as_bool(thp.value) and (not cpu_offload or dp_shared):
        yield finding(
            CODE,
            Severity.ERROR,
            thp.span,
            "use_thp requires cpu_offload=True and dp_shared_memory=False (huge pages back "
            "private CPU-offloaded tables only).",
            source=THP_SOURCE,
        )
