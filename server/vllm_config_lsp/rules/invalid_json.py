"""A JSON-valued flag holds text that is not valid JSON.

## What vLLM does
Flags such as `compilation-config`, `limit-mm-per-prompt` or `hf-overrides` parse their
value as JSON (a YAML mapping is converted for you; a string must be JSON). Anything else
stops the start: `argument --limit-mm-per-prompt: Value image=5 cannot be converted to
<function loads …>` or, for config classes, pydantic's `Invalid JSON`. JSON-typed list flags
(`allowed-origins`, `allowed-methods`, `allowed-headers`) need a JSON string: a YAML list
gives one argument per item (`invalid loads value: '*'`).

## Example
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
limit-mm-per-prompt: image=5
allowed-origins: ["https://example.com"]
```

## Fixed
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
limit-mm-per-prompt:
  image: 5
allowed-origins: '["https://example.com"]'
```
"""

import json
from collections.abc import Iterator

from yaml.nodes import SequenceNode

from ..config_model import ConfigModel
from ..findings import Finding, Severity
from ..rule_support import argparse_prefix, finding, quote_fix, token_span

CODE = "VC205"
NAME = "invalid-json"
VLLM_SOURCE = "vllm/engine/arg_utils.py:369"


def check(model: ConfigModel) -> Iterator[Finding]:
    for value in model.values:
        if value.error is None or value.error_token is None or not value.spec.is_json:
            continue
        pair = value.use.token.pair
        advice = "; write the value as a YAML mapping, or as a JSON string" if pair else ""
        fixes = []
        if pair is not None and isinstance(pair.value_node, SequenceNode):
            # A YAML list becomes one argument per item; the flag wants one JSON text.
            text = json.dumps(pair.value)
            advice = f"; a YAML list gives one argument per item: write the JSON string '{text}'"
            fixes.append(quote_fix(model, pair.value_node, text, f"Write the JSON string '{text}'"))
        yield finding(
            CODE,
            Severity.ERROR,
            value.error_span or token_span(model, value.error_token),
            argparse_prefix(value.spec) + value.error + advice,
            source=value.spec.source or VLLM_SOURCE,
            fixes=fixes,
        )
