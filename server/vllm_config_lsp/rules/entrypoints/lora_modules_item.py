"""A `lora-modules` item is neither `name=path` nor a JSON object of LoRAModulePath's fields.

## What vLLM does
`LoRAParserAction` reads each item of `--lora-modules` (vllm/entrypoints/common/cli_args.py:
52-68): an empty one is skipped, `name=path` (with no comma) is the old form, anything else
must be JSON for `LoRAModulePath(**item)`, whose fields are `name`, `path` (both required),
`base_model_name` and `is_3d_lora_weight`. Otherwise argparse stops vLLM: `Invalid JSON
format for --lora-modules` or `Invalid fields for --lora-modules`. A YAML mapping under the
key is one JSON item (`{name: a, path: /x}` works; `{a: /x}` does not), and a mapping inside
a YAML list reaches vLLM as its Python repr, which is no JSON.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
enable-lora: true
lora-modules:
  sql-lora: /adapters/sql
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
enable-lora: true
lora-modules:
  name: sql-lora
  path: /adapters/sql
```
"""

import json
from collections.abc import Iterator
from typing import Any

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, token_span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC528"
NAME = "lora-modules-item"
VLLM_SOURCE = "vllm/entrypoints/common/cli_args.py:59"

#: `LoRAModulePath` (vllm/entrypoints/openai/models/protocol.py:15-19), in order.
FIELDS = ("name", "path", "base_model_name", "is_3d_lora_weight")
REQUIRED = ("name", "path")
CLASS = "vllm.entrypoints.openai.models.protocol.LoRAModulePath"


def check(model: ConfigModel) -> Iterator[Finding]:
    for value in model.values:
        if value.spec.dest != "lora_modules" or value.unresolved:
            continue
        for token in value.use.values:
            problem = _problem(token.text)
            if problem is not None:
                yield finding(
                    CODE, Severity.ERROR, token_span(model, token), problem, source=VLLM_SOURCE
                )


def _problem(item: str) -> str | None:
    """vLLM's parser error for one item, or None when it reads it."""
    if item in ("", "None") or ("=" in item and "," not in item):
        return None  # skipped (optional_type made it None), or the `name=path` form
    try:
        loaded = json.loads(item)
    except json.JSONDecodeError:
        return (
            f"Invalid JSON format for --lora-modules: {item}. Write `name=path`, or a mapping "
            "with `name` and `path`"
        )
    error = _init_error(loaded)
    if error is None:
        return None
    return f"Invalid fields for --lora-modules: {item} - {error}"


def _init_error(loaded: Any) -> str | None:
    """The TypeError `LoRAModulePath(**loaded)` raises (keywords are checked first)."""
    if not isinstance(loaded, dict):
        return f"{CLASS}() argument after ** must be a mapping, not {type(loaded).__name__}"
    unexpected = next((key for key in loaded if key not in FIELDS), None)
    if unexpected is not None:
        return f"LoRAModulePath.__init__() got an unexpected keyword argument {unexpected!r}"
    missing = [repr(field) for field in REQUIRED if field not in loaded]
    if not missing:
        return None
    names = " and ".join(missing)
    plural = "s" if len(missing) > 1 else ""
    return (
        f"LoRAModulePath.__init__() missing {len(missing)} required positional "
        f"argument{plural}: {names}"
    )
