"""A value inside a mapping-valued flag cannot be turned into JSON (e.g. a YAML date).

## What vLLM does
A mapping value is passed to argparse as `json.dumps(value)`. YAML reads an unquoted
`2024-05-01` as a date, which `json.dumps` refuses with a `TypeError`: vLLM does not start.

## Example
```yaml
model: Qwen/Qwen3-8B
override-generation-config:
  release: 2024-05-01
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
override-generation-config:
  release: "2024-05-01"
```
"""

from collections.abc import Iterator

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..config_model import ConfigModel
from ..findings import Finding, Severity
from ..rule_support import finding, quote_fix, span

CODE = "VC007"
NAME = "not-json-serializable"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:667"

#: Tags SafeLoader turns into Python objects that `json.dumps` refuses.
_NON_JSON_TAGS = ("timestamp", "binary", "set")


def _offenders(node: Node) -> Iterator[ScalarNode]:
    if isinstance(node, ScalarNode):
        if node.tag.rsplit(":", 1)[-1] in _NON_JSON_TAGS:
            yield node
    elif isinstance(node, SequenceNode):
        for item in node.value:
            yield from _offenders(item)
    elif isinstance(node, MappingNode):
        for key, value in node.value:
            yield from _offenders(key)
            yield from _offenders(value)


def check(model: ConfigModel) -> Iterator[Finding]:
    for event in model.events:
        if event.kind != "not-serializable" or event.pair is None:
            continue
        for node in _offenders(event.pair.value_node):
            start, end = span(node)
            yield finding(
                CODE,
                Severity.ERROR,
                (start, end),
                f"{event.detail}: YAML reads `{model.text[start:end]}` as a "
                f"{node.tag.rsplit(':', 1)[-1]}; quote it so it stays text",
                source=VLLM_SOURCE,
                fixes=[quote_fix(model, node, model.text[start:end], "Quote the value")],
            )
