"""`all2all-backend: pplx` or `naive`: removed backends that vLLM replaces by another.

## What vLLM does
Both names are still among `--all2all-backend`'s choices, so argparse accepts them, but
`ParallelConfig._validate_parallel_config` logs "The 'pplx' all2all backend has been
removed. Falling back to 'allgather_reducescatter'." (vllm/config/parallel.py:538) and the
expert-parallel all-to-all runs with `allgather_reducescatter`, not what the file names.

## Example
```yaml
model: Qwen/Qwen3-30B-A3B
enable-expert-parallel: true
all2all-backend: pplx
```

## Fixed
```yaml
model: Qwen/Qwen3-30B-A3B
enable-expert-parallel: true
all2all-backend: allgather_reducescatter
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import given_field, replace, warning
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC370"
NAME = "all2all-backend-removed"
VLLM_SOURCE = "vllm/config/parallel.py:538"
CATALOGUE = ("warn.parallel.all2all.removed",)
FALLBACK = "allgather_reducescatter"


def check(model: ConfigModel) -> Iterator[Finding]:
    backend = given_field(model, "ParallelConfig", "all2all_backend")
    if backend is None or backend.value not in ("pplx", "naive"):
        return
    yield warning(
        CODE,
        backend,
        f"The '{backend.value}' all2all backend has been removed. Falling back to "
        f"'{FALLBACK}'. Write `{FALLBACK}` (what vLLM runs), or another backend.",
        VLLM_SOURCE,
        [replace(model, backend, FALLBACK, f"Use `{FALLBACK}`")],
    )
