"""`max-model-len` is 0.

## What vLLM does
`ModelConfig.validate_model_config_after` requires `max_model_len` to be a positive
integer once it is resolved and stops the start with `max_model_len must be a positive
integer, got int: 0. Example: max_model_len=2048` (vllm/config/model.py:1062-1075).
Negative values other than `-1` are refused earlier by the field bound (`ge=-1`); `-1`
and `auto` mean "fit to the available memory" and `null`/unset means the model's length.

## Example
```yaml
model: Qwen/Qwen3-8B
max-model-len: 0
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
max-model-len: 8192
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import plain, removal_fix
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC420"
NAME = "max-model-len-positive"
VLLM_SOURCE = "vllm/config/model.py:1071"
CATALOGUE = ("model.max_model_len.positive",)


def check(model: ConfigModel) -> Iterator[Finding]:
    given = plain(model, "max-model-len")
    if given is None or given.value != 0 or isinstance(given.value, bool):
        return
    removal = removal_fix(model, given, "Remove `max-model-len` (use the model's length)")
    yield finding(
        CODE,
        Severity.ERROR,
        given.span,
        "max_model_len must be a positive integer, got int: 0. Example: max_model_len=2048. "
        "Give the context length in tokens, `-1`/`auto` to fit the available memory, or "
        "remove the option to use the model's own length.",
        source=VLLM_SOURCE,
        fixes=[removal] if removal else [],
    )
