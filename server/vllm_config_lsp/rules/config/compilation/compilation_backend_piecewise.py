"""`compilation-config.backend` names a custom backend while `mode` is `VLLM_COMPILE`.

## What vLLM does
Piecewise compilation (`mode: VLLM_COMPILE`, 3) only works with the `eager` or `inductor`
backends. `CompilationConfig.__post_init__` stops the start with
`Invalid backend for piecewise compilation: X` (vllm/config/compilation.py:1036-1045)
while the arguments are parsed. Only an explicit mode is checked: when `mode` is unset vLLM
picks it later and does not re-check the backend.

## Example
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  mode: VLLM_COMPILE
  backend: cudagraphs
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  mode: VLLM_COMPILE
  backend: inductor
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._model_config import json_given
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC404"
NAME = "compilation-backend-piecewise"
VLLM_SOURCE = "vllm/config/compilation.py:1044"
CATALOGUE = ("compilation.backend.piecewise",)
PIECEWISE_BACKENDS = ("", "eager", "inductor")


def _is_vllm_compile(value: object) -> bool:
    if isinstance(value, str):
        return value.upper() == "VLLM_COMPILE"
    return value == 3 and not isinstance(value, bool)


def check(model: ConfigModel) -> Iterator[Finding]:
    mode = json_given(model, "compilation-config", "mode")
    backend = json_given(model, "compilation-config", "backend")
    if mode is None or backend is None or not _is_vllm_compile(mode.value):
        return
    if not isinstance(backend.value, str) or backend.value in PIECEWISE_BACKENDS:
        return
    start, end = backend.span
    at = model.text.find(backend.value, start, end)
    fixes = []
    if at != -1:
        edit = TextEdit(at, at + len(backend.value), "inductor")
        fixes.append(Fix("Use the `inductor` backend", (edit,), safe=False, preferred=True))
    yield finding(
        CODE,
        Severity.ERROR,
        backend.span,
        f"Invalid backend for piecewise compilation: {backend.value}. With `mode: "
        "VLLM_COMPILE` the backend must be `inductor` or `eager`; use another mode "
        "(e.g. STOCK_TORCH_COMPILE) for a custom torch.compile backend.",
        source=VLLM_SOURCE,
        fixes=fixes,
    )
