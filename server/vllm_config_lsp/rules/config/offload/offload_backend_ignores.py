"""Offload settings of one backend while `offload-backend` selects the other.

## What vLLM does
`OffloadConfig.validate_offload_config` warns (`warnings.warn`,
vllm/config/offload.py:119-131) and ignores the other backend's settings:
- `offload-backend: uva` with `offload-group-size > 0`: "Prefetch offload fields are set
  but offload_backend='uva'. Prefetch settings will be ignored.";
- `offload-backend: prefetch` with `cpu-offload-gb > 0`: "UVA offload fields are set but
  offload_backend='prefetch'. UVA settings will be ignored.";
- `offload-backend: auto` (the default) with both: "Prefetch backend will be selected",
  so `cpu-offload-gb` is ignored.

## Example
```yaml
model: Qwen/Qwen3-8B
offload-backend: uva
offload-group-size: 4
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
offload-backend: prefetch
offload-group-size: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import Given, given, removal, warning
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC374"
NAME = "offload-backend-ignores"
VLLM_SOURCE = "vllm/config/offload.py:119"
CATALOGUE = ("warn.offload.prefetch_ignored", "warn.offload.uva_ignored", "warn.offload.auto_both")


def _positive(model: ConfigModel, flag: str) -> Given | None:
    found = given(model, flag)
    ok = found is not None and isinstance(found.value, int | float) and found.value > 0
    return found if ok else None


def check(model: ConfigModel) -> Iterator[Finding]:
    backend = given(model, "offload-backend")
    name = backend.value if backend is not None else "auto"
    uva, prefetch = _positive(model, "cpu-offload-gb"), _positive(model, "offload-group-size")
    if name == "uva" and prefetch is not None:
        ignored, other, words = (
            prefetch,
            backend,
            (
                "Prefetch offload fields are set but offload_backend='uva'. Prefetch settings "
                "will be ignored."
            ),
        )
    elif name == "prefetch" and uva is not None:
        ignored, other, words = (
            uva,
            backend,
            (
                "UVA offload fields are set but offload_backend='prefetch'. UVA settings will "
                "be ignored."
            ),
        )
    elif name == "auto" and uva is not None and prefetch is not None:
        ignored, other, words = (
            uva,
            prefetch,
            (
                "Both UVA and prefetch offload fields are set with offload_backend='auto'. "
                "Prefetch backend will be selected."
            ),
        )
    else:
        return
    yield warning(
        CODE,
        ignored,
        f"{words} `{ignored.label}` has no effect: remove it, or set `offload-backend` to "
        "the backend it belongs to.",
        VLLM_SOURCE,
        [removal(model, ignored)],
        related=[other],
    )
