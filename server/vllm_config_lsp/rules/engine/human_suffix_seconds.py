"""A time in seconds written `10m` inside a JSON value: vLLM reads `m` as million.

## What vLLM does
Before a JSON-valued flag is parsed, vLLM expands bare numbers with a size suffix
(`_expand_json_human_readable_numbers`): `k`, `m`, `g`, `t` are powers of 1000, `K`, `M`,
`G`, `T` powers of 1024. There are no time units, so `{"timeout": 10m}` is a timeout of
10,000,000 seconds (about 116 days), and vLLM starts without a word. A field counts as a
time when vLLM's own documentation of it says seconds. In a YAML mapping the same `10m` is a
string, which the field refuses (VC206).

## Example
```yaml
model: Qwen/Qwen3-8B
watchdog-config: '{"timeout": 10m}'
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
watchdog-config: '{"timeout": 600}'
```
"""

import re
from collections.abc import Iterator

from vllm_config_lsp.document.value_tree import ValueNode
from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, replace_fix
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC208"
NAME = "human-suffix-seconds"
VLLM_SOURCE = "vllm/engine/arg_utils.py:302"

_MEGA = re.compile(r"(\d+(?:\.\d+)?)[mM]")
_SECONDS = re.compile(r"\bseconds?\b", re.IGNORECASE)


def check(model: ConfigModel) -> Iterator[Finding]:
    for value in model.values:
        name = value.spec.dataclass_name
        if value.tree is not None and name is not None:
            yield from _walk(model, value.spec.name, name, value.tree)


def _walk(model: ConfigModel, where: str, class_name: str, node: ValueNode) -> Iterator[Finding]:
    spec = model.catalogue.classes.get(class_name)
    if spec is None:
        return
    for entry in node.entries or []:
        field, child = spec.fields.get(entry.key), entry.value
        if field is None:
            continue
        if field.type.get("kind") == "class":
            yield from _walk(model, f"{where}.{entry.key}", field.type["name"], child)
            continue
        written = _MEGA.fullmatch(model.text[child.start : child.end])
        if written is None or child.origin != "json" or not _SECONDS.search(field.doc or ""):
            continue
        seconds = float(written.group(1)) * 60
        meant = str(int(seconds)) if seconds.is_integer() else None
        yield finding(
            CODE,
            Severity.WARNING,
            (child.start, child.end),
            f"`{written.group(0)}` is {child.value} to vLLM: inside JSON a suffix is a size "
            f"(`m` million, `M` 2^20), not minutes, and `{where}.{entry.key}` is in seconds. "
            + (f"Write {meant} for {written.group(1)} minutes" if meant else "Write seconds"),
            source=VLLM_SOURCE,
            fixes=[replace_fix((child.start, child.end), meant)] if meant else [],
        )
