"""A `compilation-config.inductor_passes` entry that names no module: `auto`, `my_pass`, ``.

## What vLLM does
`inductor_passes` maps a pass name to the qualified name of a function, `module.function`.
`CompilationConfig.__post_init__` resolves each text value by splitting it on `.`: all but
the last part are the module, the last the function, and it calls `__import__(module)`
(vllm/config/compilation.py:955-958). A value without a module part (no `.`, or only a
leading one) makes that `__import__("")`, which raises `ValueError: Empty module name`;
as the option is parsed with the class (`TypeAdapter(CompilationConfig)`), `vllm serve`
stops at argparse: `argument --compilation-config/-cc: 1 validation error for
CompilationConfig / Value error, Empty module name`. Whether a dotted name imports depends
on the serving host's Python path, so only the missing module is checked here.

## Example
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  inductor_passes:
    my_fusion: my_fusion_pass
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  inductor_passes:
    my_fusion: my_package.passes.my_fusion_pass
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import json_given
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC483"
NAME = "inductor-pass-qualname"
VLLM_SOURCE = "vllm/config/compilation.py:958"


def check(model: ConfigModel) -> Iterator[Finding]:
    given = json_given(model, "compilation-config", "inductor_passes")
    if given is None or given.node is None or given.node.entries is None:
        return
    last = {entry.key: entry for entry in given.node.entries}  # a repeated key: the last wins
    for entry in last.values():
        value = entry.value
        if not isinstance(value.value, str):
            continue
        names = value.value.split(".")
        if ".".join(names[:-1]):
            continue
        yield finding(
            CODE,
            Severity.ERROR,
            (value.start, value.end),
            f"Empty module name: inductor pass `{entry.key}` is {value.value!r}, which vLLM "
            "splits into a module and a function and imports (`__import__('')` fails), so "
            "`--compilation-config` is refused at argparse. Write the function's qualified "
            "name, `package.module.function`.",
            source=VLLM_SOURCE,
        )
        return
