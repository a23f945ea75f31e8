"""`model-class-overrides` replaces vLLM's model classes: a development hook.

## What vLLM does
When `model-class-overrides` maps an architecture to another class, `ModelConfig` registers
it the first time the model registry is asked (vllm/config/model.py:1186) and warns:
"Applying model_class_overrides {…}. This is intended for development/debugging." The
override applies as written, so this is information.

## Example
```yaml
model: Qwen/Qwen2.5-0.5B-Instruct
model-class-overrides: '{"Qwen2ForCausalLM": "my_pkg.models:MyQwen2"}'
```

## Fixed
```yaml
model: Qwen/Qwen2.5-0.5B-Instruct
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import given_field
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC642"
NAME = "model-class-overrides"
VLLM_SOURCE = "vllm/config/model.py:1186"
CATALOGUE = ("warn.model.class_overrides",)


def check(model: ConfigModel) -> Iterator[Finding]:
    overrides = given_field(model, "ModelConfig", "model_class_overrides")
    if overrides is None or not isinstance(overrides.value, dict) or not overrides.value:
        return
    yield finding(
        CODE,
        Severity.INFO,
        overrides.where,
        f"Applying model_class_overrides {overrides.value}. This is intended for "
        "development/debugging. Serve the registered class in production.",
        source=VLLM_SOURCE,
    )
