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

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, quote_fix, span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC007"
NAME = "not-json-serializable"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:667"

#: Tags SafeLoader turns into Python objects that `json.dumps` refuses.
_NON_JSON_TAGS = ("timestamp", "binary", "set")


def _offenders(root: Node) -> list[Node]:
    """Scalars json.dumps refuses; for a self-referencing alias, the alias's anchor node."""
    found: list[Node] = []
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            if not isinstance(node, ScalarNode) and node not in found:
                found.append(node)  # only collections can refer back to themselves
            continue
        seen.add(id(node))
        if isinstance(node, ScalarNode):
            if node.tag.rsplit(":", 1)[-1] in _NON_JSON_TAGS:
                found.append(node)
        elif isinstance(node, SequenceNode):
            stack.extend(reversed(node.value))
        elif isinstance(node, MappingNode):
            for key, value in reversed(node.value):
                stack.extend((value, key))
    return found


def check(model: ConfigModel) -> Iterator[Finding]:
    for event in model.events:
        if event.kind != "not-serializable" or event.pair is None:
            continue
        for node in _offenders(event.pair.value_node):
            start, end = span(node)
            if not isinstance(node, ScalarNode):
                yield finding(
                    CODE,
                    Severity.ERROR,
                    (
                        start,
                        max(start, min(end, model.index.line_end(model.index.line_col(start)[0]))),
                    ),
                    f"{event.detail}: this value contains itself through a YAML alias",
                    source=VLLM_SOURCE,
                )
                continue
            yield finding(
                CODE,
                Severity.ERROR,
                (start, end),
                f"{event.detail}: YAML reads `{model.text[start:end]}` as a "
                f"{node.tag.rsplit(':', 1)[-1]}; quote it so it stays text",
                source=VLLM_SOURCE,
                fixes=[quote_fix(model, node, model.text[start:end], "Quote the value")],
            )
