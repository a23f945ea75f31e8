"""A top-level key is not a string (a number, a YAML boolean, null, or a collection).

## What vLLM does
`load_config_file` builds `"--" + key`; a key that YAML reads as a number or boolean (`yes:`,
`on:`, `1:`) makes that a `TypeError`, and a list or mapping key is refused by `yaml.safe_load`
(`found unhashable key`). Either way vLLM does not start.

## Example
```yaml
model: Qwen/Qwen3-8B
on: true
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules.support import finding, span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC005"
NAME = "non-string-key"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:653"


def check(model: ConfigModel) -> Iterator[Finding]:
    if model.origin is None:
        return
    for node, kind in model.origin.bad_keys:
        start, end = span(node)
        if kind == "collection":
            message = "found unhashable key: a key must be a flag name"
            fixes: list[Fix] = []
        elif start == end:  # `? # comment`: an explicit key left empty
            start -= model.text[start - 1 : start] == "?"
            message = (
                f'can only concatenate str (not "{kind}") to str: the key is empty, which YAML '
                "reads as null; write a flag name"
            )
            fixes = []
        else:
            message = (
                f'can only concatenate str (not "{kind}") to str: YAML reads the key '
                f"`{model.text[start:end]}` as {kind}; quote it"
            )
            quoted = '"' + model.text[start:end].replace('"', '\\"') + '"'
            fixes = [Fix("Quote the key", (TextEdit(start, end, quoted),), preferred=True)]
        yield finding(CODE, Severity.ERROR, (start, end), message, source=VLLM_SOURCE, fixes=fixes)
