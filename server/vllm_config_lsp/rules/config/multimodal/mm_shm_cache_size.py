"""`mm-shm-cache-max-object-size-mb` is set but the processor cache is not `shm`.

## What vLLM does
The object-size limit only exists for the shared-memory processor cache.
`MultiModalConfig._validate_multimodal_config` stops the start of a multimodal model with
`'mm_shm_cache_max_object_size_mb' should only be set when 'mm_processor_cache_type' is
'shm'.` (vllm/config/multimodal.py:515-524) when the limit differs from its default (128,
read from the checked release's catalogue) and the cache type is not `shm` (default
`lru`). A text-only model has no multimodal config and ignores both options.

## Example
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
mm-shm-cache-max-object-size-mb: 256
```

## Fixed
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
mm-processor-cache-type: shm
mm-shm-cache-max-object-size-mb: 256
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import MULTIMODAL_GATE, plain, removal_fix
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC440"
NAME = "mm-shm-cache-size"
VLLM_SOURCE = "vllm/config/multimodal.py:521"
CATALOGUE = ("mm.shm_size_without_shm",)
FLAG = "mm-shm-cache-max-object-size-mb"


def check(model: ConfigModel) -> Iterator[Finding]:
    size = plain(model, FLAG)
    if size is None or size.value == model.catalogue.flags[FLAG].default:
        return
    kind = plain(model, "mm-processor-cache-type")
    if kind is not None and kind.value == "shm":
        return
    removal = removal_fix(model, size, f"Remove `{FLAG}`")
    yield finding(
        CODE,
        Severity.WARNING,
        size.span,
        "'mm_shm_cache_max_object_size_mb' should only be set when 'mm_processor_cache_type' "
        f"is 'shm'. Add `mm-processor-cache-type: shm`, or remove the size. {MULTIMODAL_GATE}",
        source=VLLM_SOURCE,
        fixes=[removal] if removal else [],
    )
