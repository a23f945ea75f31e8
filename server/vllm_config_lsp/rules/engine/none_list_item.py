"""An empty item (`""` or `None`) in a list flag becomes None, which the config refuses.

## What vLLM does
List flags whose field may be None get argparse's `optional_type` for each item
(vllm/engine/arg_utils.py:173): the text `""` or `None` becomes Python's None, not a text.
`served-model-name: ""` is then `[None]`, and building the config class fails with
`Input should be a valid string` (`ModelConfig.served_model_name`, likewise
`allowed-media-domains`, `logits-processors`, `numa-bind-cpus`, `numa-bind-nodes`,
`lora-target-modules` with LoRA on). A `type[X]` option of the item type
(`logits_processors: list[str | type[LogitsProcessor]]`) takes classes only, which a
config file cannot give, so it does not let the None through either
(`logits_processors.1.custom-error[is-instance[type]]`). To leave the setting at its
default, leave the key out.

## Example
```yaml
model: Qwen/Qwen3-8B
served-model-name: ""
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
served-model-name: qwen3
```
"""

from collections.abc import Iterator
from typing import Any

from vllm_config_lsp.document.value_tree import ValueNode
from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, token_span
from vllm_config_lsp.vllm.config_model import BUILT_ONLY_WITH, ConfigModel, FlagValue
from vllm_config_lsp.vllm.pydantic_lax import Validator

CODE = "VC209"
NAME = "none-list-item"
VLLM_SOURCE = "vllm/engine/arg_utils.py:173"
#: Fields whose own rule says it in its words (VC316: `numa-bind-cpus`).
OWN_RULE = frozenset({"ParallelConfig.numa_bind_cpus"})


def check(model: ConfigModel) -> Iterator[Finding]:
    switched_on = {value.spec.dest for value in model.values if value.value}
    for value in model.values:
        spec = value.spec
        items = value.value
        if spec.is_json or not spec.field or spec.field in OWN_RULE:
            continue
        if not isinstance(items, list) or None not in items:
            continue
        class_name, _, field_name = spec.field.partition(".")
        config = model.catalogue.classes.get(class_name)
        # only config classes are validated; FrontendArgs (`api-key: ""`) is argparse's
        if config is None or not (config.source or "").startswith("vllm/config/"):
            continue
        field = config.fields.get(field_name)
        gate = BUILT_ONLY_WITH.get(class_name)
        if field is None or (gate is not None and gate not in switched_on):
            continue
        message = _refusal(model, value, field.type, field_name)
        if message is None:
            continue
        for token, item in zip(value.use.values, items, strict=False):
            if item is None:
                shown = token.text or '""'
                yield finding(
                    CODE,
                    Severity.ERROR,
                    token_span(model, token),
                    f'`{shown}` in `{spec.name}` becomes None (argparse reads `""` and '
                    f"`None` as no value), and {class_name}.{field_name} refuses it: {message}. "
                    "Write the value, or leave the key out for the default",
                    source=VLLM_SOURCE,
                )


def _refusal(
    model: ConfigModel, value: FlagValue, tree: dict[str, Any], field_name: str
) -> str | None:
    """pydantic's first complaint about the list, as the config class validates it."""
    start, end = value.value_span()
    node = ValueNode(start, end, value.value, items=[ValueNode(start, end, v) for v in value.value])
    issues = Validator(model.catalogue).validate_type(_without_classes(tree), node, [field_name])
    return issues[0].message if issues else None


def _without_classes(tree: dict[str, Any]) -> dict[str, Any]:
    """The type with its `type[X]` options left out (pydantic's is-instance check of a
    class refuses None; the catalogue keeps such options as `unknown`, which accepts all)."""
    if tree.get("kind") == "union":
        options = [
            _without_classes(option)
            for option in tree.get("options") or ()
            if not (option.get("kind") == "unknown" and str(option.get("text")).startswith("type["))
        ]
        return {**tree, "options": options} if options else tree
    if tree.get("kind") == "list" and isinstance(tree.get("item"), dict):
        return {**tree, "item": _without_classes(tree["item"])}
    return tree
