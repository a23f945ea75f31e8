"""A `model-class-overrides` target that is not `<module>:<class>`.

## What vLLM does
`model-class-overrides` maps an architecture name to the model class that should serve it.
`ModelConfig` registers every pair the first time it looks at its model registry, while the
config is built (vllm/config/model.py:1170-1193), and `ModelRegistry.register_model` splits
a string target at `:`: anything but exactly one colon is refused with `Expected a string
in the format <module>:<class>` (vllm/model_executor/models/registry.py:1204-1207). A dotted
path alone (`my_pkg.models.MyModel`) is one of those.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
model-class-overrides:
  LlamaForCausalLM: my_models.llama.MyLlama
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
model-class-overrides:
  LlamaForCausalLM: my_models.llama:MyLlama
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC364"
NAME = "model-class-override-target"
VLLM_SOURCE = "vllm/model_executor/models/registry.py:1206"
CATALOGUE = ()

FLAG = "model-class-overrides"


def check(model: ConfigModel) -> Iterator[Finding]:
    tree = model.json_tree(FLAG)
    if tree is None or not tree.is_object:
        return
    for entry in tree.entries or ():
        target = entry.value
        if not isinstance(target.value, str) or target.value.count(":") == 1:
            continue
        fixes = []
        module, dot, name = target.value.rpartition(".")
        if dot and module and name and ":" not in target.value and target.origin == "yaml":
            fixes.append(
                Fix(
                    f"Write `{module}:{name}`",
                    (TextEdit(target.start, target.end, f"{module}:{name}"),),
                    safe=False,
                )
            )
        yield finding(
            CODE,
            Severity.ERROR,
            (target.start, target.end),
            f"Expected a string in the format `<module>:<class>` for `{entry.key}`, got "
            f"`{target.value}`: name the module, a colon, then the model class "
            "(`my_models.llama:MyLlama`).",
            source=VLLM_SOURCE,
            fixes=fixes,
        )
