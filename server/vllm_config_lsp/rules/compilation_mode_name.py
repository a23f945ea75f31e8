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

from ..config_model import ConfigModel
from ..findings import Finding, Severity
from ..rule_support import finding
from ._model_config import enum_names, name_fixes, raw_node

CODE = "VC401"
NAME = "compilation-mode-name"
VLLM_SOURCE = "vllm/config/compilation.py:865"
CATALOGUE = ("compilation.mode.name",)


def check(model: ConfigModel) -> Iterator[Finding]:
    node = raw_node(model, "compilation-config", "mode")
    names = enum_names(model, "CompilationMode")
    if node is None or not isinstance(node.value, str) or not names:
        return
    if node.value.upper() in names:
        return
    where = (node.start, node.end)
    yield finding(
        CODE,
        Severity.ERROR,
        where,
        f"Invalid compilation mode: {node.value}. Valid modes are: {', '.join(names)}. "
        "Write one of these names (any case) or its number (0-3).",
        source=VLLM_SOURCE,
        fixes=name_fixes(where, node.value, names),
    )
