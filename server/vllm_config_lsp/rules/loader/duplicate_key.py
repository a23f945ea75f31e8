"""A top-level key appears twice; vLLM silently keeps the last value.

## What vLLM does
`yaml.safe_load` builds a dict, so a repeated key replaces the earlier value without a word
(the first occurrence keeps its place in the argument order). Only the last one counts. The
same holds inside JSON-valued flags, for YAML mappings and JSON strings alike.

## Example
```yaml
model: Qwen/Qwen3-8B
max-model-len: 8192
max-model-len: 32768
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
max-model-len: 32768
```
"""

from collections.abc import Iterator

from vllm_config_lsp.document.value_tree import Entry, ValueNode
from vllm_config_lsp.document.yaml_edits import content_end, remove_entry, remove_lines
from vllm_config_lsp.document.yaml_incremental import may_have_duplicate_keys
from vllm_config_lsp.findings import Finding, Fix, Severity
from vllm_config_lsp.rules.support import finding, span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC004"
NAME = "duplicate-key"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:646"


def check(model: ConfigModel) -> Iterator[Finding]:
    if model.origin is None:  # a host's command line: no YAML entries
        return
    for pair in model.origin.pairs:
        line = model.index.line_col(pair.key_node.start_mark.index)[0] + 1
        for key_node, value_node in pair.shadowed:
            edit = remove_lines(
                model.text, key_node.start_mark.index, content_end(model.text, value_node)
            )
            fixes = (
                [Fix(f"Remove the ignored `{pair.key}`", (edit,), preferred=True)] if edit else []
            )
            yield finding(
                CODE,
                Severity.WARNING,
                span(key_node),
                f"duplicate key `{pair.key}`: YAML keeps only the last value (line {line}), "
                "so vLLM ignores this one",
                source=VLLM_SOURCE,
                fixes=fixes,
            )
    for value in model.values:
        # the walk below would visit every piece of a large tree on each keystroke
        if value.tree is not None and may_have_duplicate_keys(value.tree):
            yield from _nested(model, value.spec.name, value.tree)


def _nested(model: ConfigModel, where: str, node: ValueNode) -> Iterator[Finding]:
    """Inside JSON-valued flags: YAML mappings and JSON objects both keep the last key."""
    entries = node.entries or []
    following = _next_same_key(entries)
    for index, entry in enumerate(entries):
        later = following.get(index)
        if later is not None:
            line = model.index.line_col(later.key_start)[0] + 1
            removal = remove_entry(model.text, node, entry)
            title = f"Remove the ignored `{entry.key}`"
            fixes = [Fix(title, (removal,), preferred=True)] if removal else []
            yield finding(
                CODE,
                Severity.WARNING,
                (entry.key_start, entry.key_end),
                f"duplicate key `{entry.key}` in `{where}`: only the last value counts "
                f"(line {line}), so vLLM ignores this one",
                source=VLLM_SOURCE,
                fixes=fixes,
            )
    for entry in entries:
        yield from _nested(model, f"{where}.{entry.key}", entry.value)
    for item in node.items or []:
        yield from _nested(model, where, item)


def _next_same_key(entries: list[Entry]) -> dict[int, Entry]:
    """Index of an entry → the next entry with the same key (one pass: objects of thousands
    of keys are checked on every keystroke)."""
    out: dict[int, Entry] = {}
    last: dict[str, int] = {}
    for index in range(len(entries) - 1, -1, -1):
        later = last.get(entries[index].key)
        if later is not None:
            out[index] = entries[later]
        last[entries[index].key] = index
    return out
