"""`compilation-config.custom_ops` has an entry vLLM cannot read: no `+`/`-` prefix, two
base modes, or one op both enabled and disabled.

## What vLLM does
`CompilationConfig.__post_init__` reads each `custom_ops` entry as `all`, `none`, `+op`
(enable) or `-op` (disable) and stops the start, while the arguments are parsed, with
`Invalid syntax 'op' for custom op, must be 'all', 'none', '+op' or '-op'`; with
`custom_ops can contain only one base mode: 'all' or 'none'` when both appear; and with
`custom_ops cannot both enable and disable the same operation(s): op` when `+op` and `-op`
are both listed (vllm/config/compilation.py:1012-1034).

## Example
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  custom_ops: ["none", "rms_norm"]
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  custom_ops: ["none", "+rms_norm"]
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._model_config import json_given
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC403"
NAME = "custom-ops"
VLLM_SOURCE = "vllm/config/compilation.py:1015"
CATALOGUE = (
    "compilation.custom_ops.syntax",
    "compilation.custom_ops.one_base",
    "compilation.custom_ops.conflict",
)
ONE_BASE_SOURCE = "vllm/config/compilation.py:1023"
CONFLICT_SOURCE = "vllm/config/compilation.py:1031"
BASES = ("all", "none")


def check(model: ConfigModel) -> Iterator[Finding]:
    given = json_given(model, "compilation-config", "custom_ops")
    if given is None or given.node is None or not given.node.items:
        return
    items = [item for item in given.node.items if isinstance(item.value, str)]
    for item in items:  # vLLM stops at the first bad entry
        op = item.value
        if op in BASES or (len(op) >= 2 and op[0] in "+-"):
            continue
        at = model.text.find(op, item.start, item.end) if op else -1
        fixes = [
            Fix(f"Enable it: `+{op}`", (TextEdit(at, at, "+"),), safe=False, preferred=True),
            Fix(f"Disable it: `-{op}`", (TextEdit(at, at, "-"),), safe=False),
        ]
        fixes = fixes if at != -1 else []
        yield finding(
            CODE,
            Severity.ERROR,
            (item.start, item.end),
            f"Invalid syntax '{op}' for custom op, must be 'all', 'none', '+op' or '-op' "
            "(where 'op' is the registered op name): prefix the op with `+` to enable it or "
            "`-` to disable it.",
            source=VLLM_SOURCE,
            fixes=fixes,
        )
        return
    bases = [item for item in items if item.value in BASES]
    if len(bases) > 1:
        yield finding(
            CODE,
            Severity.ERROR,
            (bases[1].start, bases[1].end),
            "custom_ops can contain only one base mode: 'all' or 'none'. Keep one of "
            f"{', '.join(repr(b.value) for b in bases)}.",
            source=ONE_BASE_SOURCE,
        )
        return
    enabled = {item.value[1:] for item in items if item.value.startswith("+")}
    disabled = [item for item in items if item.value.startswith("-")]
    conflicting = sorted({item.value[1:] for item in disabled} & enabled)
    if conflicting:
        first = next(item for item in disabled if item.value[1:] in conflicting)
        yield finding(
            CODE,
            Severity.ERROR,
            (first.start, first.end),
            "custom_ops cannot both enable and disable the same operation(s): "
            f"{', '.join(conflicting)}. Remove either the '+' or '-' directive",
            source=CONFLICT_SOURCE,
        )
