"""A key inside a JSON-valued config (e.g. `compilation-config`) is not a field of it.

## What vLLM does
Every vLLM config class forbids extra keys (`extra='forbid'`, vllm/config/utils.py:71):
an unknown or renamed key stops the start with pydantic's `Unexpected keyword argument`.
Keys inside these configs keep vLLM's underscore field names.

Older releases did not forbid them: before 0.13 (compilation classes) and 0.16 (the others)
the config classes were pydantic dataclasses with the default `extra='ignore'`, so vLLM
drops the key silently and starts without the setting. For those releases (read from each
release's catalogue) the finding is a warning.

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

from vllm_config_lsp.document.entry_merge import copy_after
from vllm_config_lsp.document.value_tree import Entry, ValueNode
from vllm_config_lsp.findings import Finding, Fix, Severity
from vllm_config_lsp.rules.support import (
    closest,
    entry_named,
    field_issues,
    field_path,
    finding,
    remove_field_fix,
    rename_entry_fix,
    rename_in_place,
)
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.flag_history import removed_field
from vllm_config_lsp.vllm.pydantic_lax import UNEXPECTED_KEY, UNKNOWN_KEY_KINDS

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


def _split_fix(text: str, container: ValueNode, entry: Entry, names: tuple[str, ...]) -> Fix | None:
    """A field vLLM split in several (`enable_fusion` → `fuse_norm_quant` and
    `fuse_act_quant`): each new one takes the old value. Not when one of them is set
    already (which value should win is the user's call)."""
    if any(entry_named(container, name) is not None for name in names):
        return None
    edits = [rename_in_place(text, entry.key_start, entry.key_end, entry.key, names[0])]
    edits += [copy_after(text, container, entry, name) for name in reversed(names[1:])]
    if any(edit is None for edit in edits):
        return None
    shown = " and ".join(f"`{name}`" for name in names)
    title = f"Split `{entry.key}` into {shown}"
    return Fix(title, tuple(edit for edit in edits if edit is not None), preferred=True)


def check(model: ConfigModel) -> Iterator[Finding]:
    for value, issue in field_issues(model, UNKNOWN_KEY_KINDS):
        entry = issue.entry
        if entry is None or value.tree is None:
            continue
        name = issue.path[-1]
        cls = model.catalogue.classes.get(issue.class_name)
        where = field_path(value.spec.name, issue.path)
        refused = issue.kind == UNEXPECTED_KEY
        if refused:
            message = f"Unexpected keyword argument: `{where}` is not a field of {issue.class_name}"
        else:
            message = (
                f"vLLM {model.catalogue.version} ignores `{where}`: {issue.class_name} has no "
                "such field and that release drops unknown keys silently"
            )
        fixes: list[Fix | None] = []
        history = removed_field(issue.class_name, name, model.catalogue.version)
        container = _container(value.tree, issue.path)
        replacement = None
        if history is not None:
            message += f": {history.message}"
            replacement = history.rename_to or history.suggested
            if history.split_into and container is not None:
                fixes.append(_split_fix(model.text, container, entry, history.split_into))
        elif cls is not None:
            replacement = closest(
                name.replace("-", "_"), [f for f, spec in cls.fields.items() if spec.init]
            )
            if replacement:
                message += f": did you mean `{replacement}`?"
        if replacement and container is not None:
            safe = history is not None and history.rename_to is not None
            fixes.append(rename_entry_fix(model, container, entry, replacement, safe=safe))
        if container is not None:
            fixes.append(remove_field_fix(model, value, container, entry, f"Remove `{name}`"))
        yield finding(
            CODE,
            Severity.ERROR if refused else Severity.WARNING,
            (entry.key_start, entry.key_end),
            message,
            source=VLLM_SOURCE if refused or cls is None else cls.source,
            fixes=[fix for fix in fixes if fix is not None],
        )
