"""A key inside a JSON-valued config (e.g. `compilation-config`) is not a field of it.

## What vLLM does
Every vLLM config class forbids extra keys (`extra='forbid'`, vllm/config/utils.py:71):
an unknown or renamed key stops the start with pydantic's `Unexpected keyword argument`.
Keys inside these configs keep vLLM's underscore field names.

## Example
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  level: 3
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  mode: 3
```
"""

from collections.abc import Iterator

from vllm_config_lsp.document.value_tree import ValueNode
from vllm_config_lsp.document.yaml_edits import remove_entry
from vllm_config_lsp.findings import Finding, Fix, Severity
from vllm_config_lsp.rules.support import (
    closest,
    field_issues,
    field_path,
    finding,
    rename_in_place,
)
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.flag_history import removed_field

CODE = "VC204"
NAME = "unknown-field"
VLLM_SOURCE = "vllm/config/utils.py:71"


def _container(value_tree: ValueNode, path: list[str]) -> ValueNode | None:
    """The object holding the last key of `path`."""
    node: ValueNode | None = value_tree
    for key in path[:-1]:
        node = node.get(key) if node is not None and node.is_object else None
        if node is None:
            return None
    return node


def check(model: ConfigModel) -> Iterator[Finding]:
    for value, issue in field_issues(model, {"unexpected_keyword_argument"}):
        entry = issue.entry
        if entry is None or value.tree is None:
            continue
        name = issue.path[-1]
        cls = model.catalogue.classes.get(issue.class_name)
        message = (
            f"Unexpected keyword argument: `{field_path(value.spec.name, issue.path)}` is not "
            f"a field of {issue.class_name}"
        )
        fixes: list[Fix] = []
        history = removed_field(issue.class_name, name, model.catalogue.version)
        replacement = None
        if history is not None:
            message += f": {history.message}"
            replacement = history.rename_to or history.suggested
        elif cls is not None:
            replacement = closest(
                name.replace("-", "_"), [f for f, spec in cls.fields.items() if spec.init]
            )
            if replacement:
                message += f": did you mean `{replacement}`?"
        if replacement:
            edit = rename_in_place(model.text, entry.key_start, entry.key_end, name, replacement)
            if edit is not None:
                fixes.append(
                    Fix(
                        f"Rename `{name}` to `{replacement}`",
                        (edit,),
                        safe=history is not None and history.rename_to is not None,
                        preferred=True,
                    )
                )
        container = _container(value.tree, issue.path)
        if container is not None:
            removal = remove_entry(model.text, container, entry)
            if removal is not None:
                fixes.append(Fix(f"Remove `{name}`", (removal,), safe=False))
        yield finding(
            CODE,
            Severity.ERROR,
            (entry.key_start, entry.key_end),
            message,
            source=VLLM_SOURCE,
            fixes=fixes,
        )
