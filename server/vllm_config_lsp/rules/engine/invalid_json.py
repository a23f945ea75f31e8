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

from vllm_config_lsp.findings import Finding, Fix, Severity
from vllm_config_lsp.rules.support import argparse_prefix, finding, quote_fix, token_span
from vllm_config_lsp.sources import config_edits
from vllm_config_lsp.sources.yaml_origin import Pair
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.flag_history import loader_since

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
        python_text = _python_text_advice(model, pair) if pair is not None else None
        if python_text is not None:
            advice, fix = python_text
            fixes.extend([fix] if fix is not None else [])
        elif pair is not None and pair.is_list:
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


def _python_text_advice(model: ConfigModel, pair: Pair) -> tuple[str, Fix | None] | None:
    """Before 0.16 a YAML mapping (before 0.10 also a list) reaches argparse as its Python
    text (`{'a': 1}`), which is not JSON: only a JSON string works in those releases."""
    loader, release = model.catalogue.loader, model.catalogue.version
    if pair.is_mapping and loader.dict == "str":
        shape, since = "mapping", loader_since("dict", "json", release)
    elif pair.is_list:
        if loader.list != "str":
            return None  # one argument per item: the caller's advice
        shape, since = "list", None
    elif loader.dict == "str":
        return "; write the value as a JSON string", None
    else:
        return None
    advice = f"; vLLM {release} passes a YAML {shape} as Python text, not JSON"
    if since is not None:
        advice += f" (YAML mappings work from vLLM {since} on)"
    try:
        text = json.dumps(pair.value, ensure_ascii=False)
    except (TypeError, ValueError):
        return advice + ": write the value as a JSON string", None
    advice += f": write the JSON string '{text}'"
    # Replace everything after the key's colon, so a block mapping becomes one line.
    written = config_edits.replace_after_key(model.text, pair, text)
    if written is None:
        return advice, None
    edit, replaced = written
    title = f"Write the JSON string '{text}'"
    return advice, Fix(title, (edit,), safe="#" not in replaced, preferred=True)
