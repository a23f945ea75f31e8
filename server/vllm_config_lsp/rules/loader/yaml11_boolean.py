"""A word like `yes`, `no`, `on` or `off` is read by YAML as a boolean, not as text.

## What vLLM does
PyYAML follows YAML 1.1: unquoted `yes/no/on/off` (also `Yes`, `ON`, …) are booleans. In a list,
vLLM passes `str(True)`, so `served-model-name: [yes]` serves the model as `True`; as the
value of a flag that takes text, `no`/`off` is a `false`, which vLLM drops without a word
(`yes`/`on` becomes the bare flag, an argparse error, see VC111).

## Example
```yaml
model: Qwen/Qwen3-8B
served-model-name: [yes]
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
served-model-name: ["yes"]
```
"""

from collections.abc import Iterator

from yaml.nodes import Node, ScalarNode, SequenceNode

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.loader._scalars import plain_scalars
from vllm_config_lsp.rules.support import (
    finding,
    flag_by_key,
    quote_fix,
    span,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC105"
NAME = "yaml11-boolean"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:671"


def _yaml11_booleans(node: Node) -> Iterator[ScalarNode]:
    for item in plain_scalars(node, "bool"):
        if item.value.lower() not in ("true", "false"):
            yield item


def check(model: ConfigModel) -> Iterator[Finding]:
    if model.origin is None:  # a host's command line: no YAML entries
        return
    for pair in model.origin.pairs:
        spec = flag_by_key(model, pair.key)
        if spec is None or not spec.takes_value or spec.is_json:
            continue
        in_list = isinstance(pair.value_node, SequenceNode)
        for node in _yaml11_booleans(pair.value_node):
            word = node.value
            truth = word.lower() in ("yes", "on")
            if in_list:
                effect = f"vLLM passes `{'True' if truth else 'False'}`, not `{word}`"
            elif truth:
                continue  # a bare flag without its value: an argparse error (VC111)
            else:
                effect = f"vLLM drops `{pair.key}` like any `false` value"
            yield finding(
                CODE,
                Severity.WARNING,
                span(node),
                f"YAML reads `{word}` as a boolean: {effect}. Quote it to pass the word",
                source=VLLM_SOURCE,
                fixes=[quote_fix(model, node, word, f'Quote "{word}"')],
            )
