"""A value inside a JSON-valued config has the wrong type or is not an allowed value.

## What vLLM does
vLLM validates JSON configs (and the text of a plain flag given to an enum field, such as
`--optimization-level`) with pydantic (lax mode: `"12"` is accepted for a number, `1` is
not accepted for text) and stops with pydantic's message, e.g. `Input should be a valid
integer` or `Input should be 'binary' or 'unpacked'`. A plain flag's value is validated
the same way by the config class `EngineArgs` builds with it: `hf-overrides: null` reaches
`ModelConfig(hf_overrides="None")`, which wants a dictionary or a callable
(vllm/engine/arg_utils.py:2010).

## Example
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  compile_cache_save_format: zip
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  compile_cache_save_format: binary
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.config.utils.out_of_range import BOUND_KINDS
from vllm_config_lsp.rules.support import field_issues, field_path, finding, shown
from vllm_config_lsp.vllm.catalogue import FlagSpec
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.pydantic_lax import UNKNOWN_KEY_KINDS, FieldIssue

CODE = "VC206"
NAME = "field-type"
VLLM_SOURCE = "vllm/engine/arg_utils.py:369"


def check(model: ConfigModel) -> Iterator[Finding]:
    other = BOUND_KINDS | UNKNOWN_KEY_KINDS | {"missing"}
    for value, issue in field_issues(model, other, exclude=True):
        node = issue.node
        if node is None or _none_item_of_a_list_flag(value.spec, issue):
            continue
        # a plain flag's path starts with the parameter it fills (`limit_mm_per_prompt`)
        inner = issue.path if value.spec.dataclass_name else issue.path[1:]
        location = field_path(value.spec.name, inner)
        yield finding(
            CODE,
            Severity.ERROR,
            (node.start, node.end),
            f"{issue.message} (`{location}`, got {shown(node.value)})",
            source=VLLM_SOURCE,
        )


def _none_item_of_a_list_flag(spec: FlagSpec, issue: FieldIssue) -> bool:
    """A plain list flag's `''`/`None` item: VC209 (none-list-item) reports it on the item
    itself, where this check only knows the whole value's span. A JSON flag's null is
    JSON's, not argparse's, and VC209 does not read it (`model-class-overrides: {video:
    [null]}` is refused as a list where a text is wanted)."""
    given = issue.node.value if issue.node is not None else None
    if spec.dataclass_name or spec.is_json:
        return False
    return (given is None and issue.path[-1].isdigit()) or (
        isinstance(given, list) and None in given
    )
