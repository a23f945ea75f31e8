"""`additional-config` sets a key the platform plugin does not read, or a value of another type.

## What vLLM does
vLLM hands `--additional-config` to the platform plugin untouched. vllm-ascend's
`AscendConfig` reads the keys it knows with `additional_config.get("key", default)`
(vllm_ascend/ascend_config.py:36) and never looks at the others: vLLM starts, and a
misspelt key is silently ignored (a warning here). A value of another type than the
default's is used as written (`"false"` is a true string): a warning too. Some sections
refuse keys they do not know: `eplb_config` raises `Config has no attribute 'X'` on start
(vllm_ascend/ascend_config.py:856), an error. The keys, their defaults and what each
section does with others are read from the plugin's wheel (`schemas/plugins/`). Only
checked on a start that runs with the plugin (its image, the marker comment, the setting).

## Example
```yaml
# vllm-config: plugin=vllm-ascend@0.23.0
model: Qwen/Qwen3-8B
additional-config: '{"enable_cpu_bindng": true}'
```

## Fixed
```yaml
# vllm-config: plugin=vllm-ascend@0.23.0
model: Qwen/Qwen3-8B
additional-config: '{"enable_cpu_binding": true}'
```
"""

from collections.abc import Iterator, Mapping
from typing import Any

from vllm_config_lsp.document.value_tree import Entry, ValueNode
from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules.support import closest, finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC250"
NAME = "plugin-additional-config-key"
VLLM_SOURCE = "vllm_ascend/ascend_config.py:36"

FLAG = "additional-config"
_TYPES = {bool: "boolean", int: "integer", float: "number", str: "string"}
_TYPES.update({dict: "object", list: "array"})


def check(model: ConfigModel) -> Iterator[Finding]:
    plugin = model.plugin
    tree = model.json_tree(FLAG)
    if plugin is None or tree is None or not tree.is_object:
        return
    schema = plugin.additional_config
    keys = schema.get("keys") or {}
    if not keys:
        return
    yield from _entries(plugin.label, tree, keys, schema, "additional_config")


def _entries(
    label: str, tree: ValueNode, keys: Mapping[str, Any], schema: Mapping[str, Any], where: str
) -> Iterator[Finding]:
    for entry in tree.entries or ():
        known = keys.get(entry.key)
        if known is None:
            yield _unknown(label, entry, keys, schema, where)
            continue
        wrong = _wrong_type(entry.value, known.get("type"))
        if wrong is not None:
            default = f" (default {known['default']!r})" if "default" in known else ""
            yield finding(
                CODE,
                Severity.WARNING,
                (entry.value.start, entry.value.end),
                f"{label} reads `{where}.{entry.key}` as a {known['type']}{default}; this "
                f"is a {wrong}: vLLM starts, and the plugin uses the value as written.",
                source=known.get("source"),
            )
        section = known.get("keys")
        if section and entry.value.is_object:
            yield from _entries(label, entry.value, section, known, f"{where}.{entry.key}")


def _unknown(
    label: str, entry: Entry, keys: Mapping[str, Any], schema: Mapping[str, Any], where: str
) -> Finding:
    refused = schema.get("unknown") == "refused"
    message = f"{label} reads no `{where}` key `{entry.key}`"
    if refused:
        message += f": it refuses the key on start (`Config has no attribute '{entry.key}'`)."
    else:
        message += ": vLLM starts but the setting is ignored."
    fixes = []
    suggestion = closest(entry.key, list(keys), cutoff=0.75)
    if suggestion is not None:
        message += f" Did you mean `{suggestion}`?"
        edit = TextEdit(entry.key_start, entry.key_end, f'"{suggestion}"')
        if entry.key_end - entry.key_start == len(entry.key):  # a bare YAML key
            edit = TextEdit(entry.key_start, entry.key_end, suggestion)
        fixes.append(Fix(f"Use `{suggestion}`", (edit,), safe=False, preferred=True))
    severity = Severity.ERROR if refused else Severity.WARNING
    source = schema.get("refusal") if refused else schema.get("source", VLLM_SOURCE)
    return finding(
        CODE, severity, (entry.key_start, entry.key_end), message, source=source, fixes=fixes
    )


def _wrong_type(node: ValueNode, expected: str | None) -> str | None:
    """The JSON type written, when it is not `expected` (an integer is a number too)."""
    if expected is None:
        return None
    got = _TYPES.get(type(node.value)) if not (node.is_object or node.is_array) else None
    got = "object" if node.is_object else "array" if node.is_array else got
    if got is None or got == expected or (expected == "number" and got == "integer"):
        return None
    return got
