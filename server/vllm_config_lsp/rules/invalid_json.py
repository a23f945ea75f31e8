"""A JSON-valued flag holds text that is not valid JSON.

## What vLLM does
Flags such as `compilation-config`, `limit-mm-per-prompt` or `hf-overrides` parse their
value as JSON (a YAML mapping is converted for you; a string must be JSON). Anything else
stops the start: `argument --limit-mm-per-prompt: Value image=5 cannot be converted to
<function loads …>` or, for config classes, pydantic's `Invalid JSON`.

## Example
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
limit-mm-per-prompt: image=5
```

## Fixed
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
limit-mm-per-prompt:
  image: 5
```
"""

from collections.abc import Iterator

from ..config_model import ConfigModel
from ..findings import Finding, Severity
from ..rule_support import argparse_prefix, finding, token_span

CODE = "VC205"
NAME = "invalid-json"
VLLM_SOURCE = "vllm/engine/arg_utils.py:369"


def check(model: ConfigModel) -> Iterator[Finding]:
    for value in model.values:
        if value.error is None or value.error_token is None or not value.spec.is_json:
            continue
        advice = (
            "; write the value as a YAML mapping, or as a JSON string"
            if value.use.token.pair is not None
            else ""
        )
        yield finding(
            CODE,
            Severity.ERROR,
            value.error_span or token_span(model, value.error_token),
            argparse_prefix(value.spec) + value.error + advice,
            source=value.spec.source or VLLM_SOURCE,
        )
