"""`compilation-config.mode` is a name that is not a compilation mode.

## What vLLM does
`CompilationConfig.validate_mode_before` accepts the mode as a number (0-3) or as a member
name of `CompilationMode` in any case; any other text stops the start with
`Invalid compilation mode: X. Valid modes are: NONE, STOCK_TORCH_COMPILE, DYNAMO_TRACE_ONCE,
VLLM_COMPILE` (vllm/config/compilation.py:861-867), while the arguments are parsed.

## Example
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  mode: vllm-compile
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  mode: VLLM_COMPILE
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import enum_names, name_fixes, unknown_name
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC401"
NAME = "compilation-mode-name"
VLLM_SOURCE = "vllm/config/compilation.py:865"
CATALOGUE = ("compilation.mode.name",)


def check(model: ConfigModel) -> Iterator[Finding]:
    names = enum_names(model, "CompilationMode")
    hit = unknown_name(model, names, "compilation-config", "mode")
    if hit is None:
        return
    written, where = hit
    yield finding(
        CODE,
        Severity.ERROR,
        where,
        f"Invalid compilation mode: {written}. Valid modes are: {', '.join(names)}. "
        "Write one of these names (any case) or its number (0-3).",
        source=VLLM_SOURCE,
        fixes=name_fixes(where, written, names),
    )
