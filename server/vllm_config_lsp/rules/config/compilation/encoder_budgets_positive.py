"""Every encoder CUDA-graph token budget must be positive.

## What vLLM does
`CompilationConfig.__post_init__` refuses any `encoder_cudagraph_token_budgets` entry `<= 0`
with `All encoder_cudagraph_token_budgets must be positive, got [...]`
(vllm/config/compilation.py:1072-1078). The check runs while arguments are parsed, before
any model or GPU work. Each budget is a token capacity for one captured encoder graph; `0`
captures nothing and is never a valid level.

## Example
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
compilation-config:
  cudagraph_mm_encoder: true
  encoder_cudagraph_token_budgets: [0, 2048, 4096]
```

## Fixed
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
compilation-config:
  cudagraph_mm_encoder: true
  encoder_cudagraph_token_budgets: [2048, 4096]
```
"""

from collections.abc import Iterator

from vllm_config_lsp.document.value_tree import ValueNode
from vllm_config_lsp.findings import Finding, Fix, Severity
from vllm_config_lsp.rules.support import entries, finding, remove_field_fix, remove_pair_fix
from vllm_config_lsp.sources.config_edits import remove_items, value_tree
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC301"
NAME = "encoder-budgets-positive"
VLLM_SOURCE = "vllm/config/compilation.py:1072"
CATALOGUE = ("compilation.encoder_cg.budgets",)

FIELD = "encoder_cudagraph_token_budgets"


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _budgets(model: ConfigModel) -> tuple[ValueNode, Fix | None] | None:
    """The budgets array as vLLM will see it, and the fix removing the option. A YAML list
    under a dotted key is first a type error (VC109), but the intent is clear and the same
    element is wrong, so it is checked here too."""
    tree = model.json_tree("compilation-config")
    if tree is not None:
        budgets = tree.get(FIELD)
        entry = tree.entry(FIELD)
        if budgets is not None and budgets.is_array and entry is not None:
            title = f"Remove `{FIELD}` (vLLM picks the budgets)"
            flag = model.flag("compilation-config")
            return budgets, remove_field_fix(model, flag, tree, entry, title)
    for pair in entries(model):
        head, _, rest = pair.key.partition(".")
        if rest == FIELD and head.replace("_", "-") == "compilation-config":
            node = value_tree(model.text, pair)
            if node.is_array:  # a YAML list: one item or more (a string stays a string)
                return node, remove_pair_fix(model, pair, f"Remove `{pair.key}`")
    return None


def check(model: ConfigModel) -> Iterator[Finding]:
    found = _budgets(model)
    if found is None:
        return
    budgets, removal = found
    items = budgets.items or []
    values = [item.value for item in items]
    if not all(_is_number(v) for v in values):
        return  # pydantic would have refused the types first
    bad = [index for index, value in enumerate(values) if value <= 0]
    if not bad:
        return
    fixes: list[Fix] = []
    edits = remove_items(model.text, budgets, set(bad))
    if edits is not None:
        kept = [v for i, v in enumerate(values) if i not in bad]
        fixes.append(
            Fix(
                f"Remove the non-positive budget{'s' if len(bad) > 1 else ''} (keep {kept})",
                tuple(edits),
                preferred=True,
            )
        )
    if removal is not None:
        fixes.append(removal)
    first = items[bad[0]]
    yield finding(
        CODE,
        Severity.ERROR,
        (first.start, first.end),
        f"All encoder_cudagraph_token_budgets must be positive, got {values}: remove the "
        "non-positive budget(s), or remove the option to let vLLM choose",
        source=VLLM_SOURCE,
        fixes=fixes,
    )
