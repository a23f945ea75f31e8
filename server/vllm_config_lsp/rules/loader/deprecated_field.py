"""A config field that this vLLM release has deprecated (it warns, or ignores the value).

## What vLLM does
Fields inside config values (`compilation-config`, `pooler-config`, `attention-config`, …)
are deprecated in the field's own documentation before they are removed: the release
still accepts them, usually logs a warning, and sometimes ignores the value entirely
(`disable_cascade_attn` after cascade attention was removed). The message quotes the
deprecation text of the release the file is checked against, and names the release that
removes the field when a newer one does. Renamed fields are reported by VC121 instead.

## Example
```yaml
# vllm-config: version=0.21
model: BAAI/bge-reranker-v2-m3
pooler-config:
  logit_bias: 0.5
```

## Fixed
```yaml
# vllm-config: version=0.21
model: BAAI/bge-reranker-v2-m3
pooler-config:
  logit_mean: 0.5
```
"""

from collections.abc import Iterator

from vllm_config_lsp.document.yaml_edits import remove_entry
from vllm_config_lsp.findings import Finding, Fix, Severity
from vllm_config_lsp.rules._versioned import field_uses
from vllm_config_lsp.rules.support import finding, rename_entry_fix
from vllm_config_lsp.vllm.catalogue import ClassSpec
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.flag_history import (
    deprecated_field,
    is_bare,
    named_replacement,
    newer_change_field,
)
from vllm_config_lsp.vllm.flag_history import renamed_field as renamed

CODE = "VC122"
NAME = "deprecated-field"
#: The `deprecated` text of each field comes from its release's source (schemas/).
VLLM_SOURCE = None
CATALOGUE = ("warn.cli.ir_op_priority.deprecated",)


def check(model: ConfigModel) -> Iterator[Finding]:
    release = model.catalogue.version
    for field in field_uses(model):
        text = deprecated_field(field.class_name, field.name, release)
        if text is None or renamed(field.class_name, field.name, release) is not None:
            continue
        if is_bare(text):
            message = f"`{field.where}` is deprecated in vLLM {release}"
        else:
            message = f"`{field.where}` is deprecated in vLLM {release}: {text}"
        removal = newer_change_field(field.class_name, field.name, release)
        if removal is not None:
            message += f" (vLLM {removal.release.rsplit('.', 1)[0]} removes it)"
        entry = field.entry
        fixes: list[Fix] = []
        cls = model.catalogue.classes.get(field.class_name)
        names = {n for n, spec in cls.fields.items() if spec.init} if cls is not None else set()
        replacement = None if is_bare(text) else named_replacement(text, field.name, names)
        if replacement is not None and cls is not None and _same_type(cls, field.name, replacement):
            fix = rename_entry_fix(model, field.container, entry, replacement, safe=False)
            fixes.extend([fix] if fix is not None else [])
        removal_edit = remove_entry(model.text, field.container, entry)
        if removal_edit is not None:
            fixes.append(Fix(f"Remove `{field.name}`", (removal_edit,), safe=False))
        yield finding(
            CODE,
            Severity.WARNING,
            (entry.key_start, entry.key_end),
            message,
            source=None,
            fixes=fixes,
        )


def _same_type(cls: ClassSpec, old: str, new: str) -> bool:
    """A named replacement is offered as a rename only when the value fits it as is."""
    before, after = cls.fields.get(old), cls.fields.get(new)
    return before is not None and after is not None and before.type == after.type
