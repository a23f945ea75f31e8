"""A `model-class-overrides` target that is not `<module>:<class>`.

## What vLLM does
`ModelConfig.model_class_overrides` maps an architecture to the class that should serve it.
Every entry is registered (`ModelRegistry.register_model(arch, target)`) the first time
the model registry is asked anything, which `ModelConfig.__post_init__` does for every
start; a string target is split at `:` and anything but exactly two parts stops vLLM with
`Expected a string in the format `<module>:<class>`` (vllm/model_executor/models/
registry.py:1206), whether or not the architecture is the model's.

## Example
```yaml
model: Qwen/Qwen3-8B
model-class-overrides:
  Qwen3ForCausalLM: my_models.Qwen3
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
model-class-overrides:
  Qwen3ForCausalLM: my_models:Qwen3
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC353"
NAME = "model-class-target"
VLLM_SOURCE = "vllm/model_executor/models/registry.py:1206"

FLAG = "model-class-overrides"


def check(model: ConfigModel) -> Iterator[Finding]:
    value = model.flag(FLAG)
    # a tree that failed ModelConfig's `dict[str, str]` is VC206's
    if value is None or value.tree is None or model.field_issues.get(id(value)):
        return
    for entry in value.tree.entries or ():
        target = entry.value.value
        if isinstance(target, str) and len(target.split(":")) != 2:
            yield finding(
                CODE,
                Severity.ERROR,
                (entry.value.start, entry.value.end),
                f"Expected a string in the format `<module>:<class>` (`{FLAG}` maps "
                f"`{entry.key}` to {target!r})",
                source=VLLM_SOURCE,
            )
