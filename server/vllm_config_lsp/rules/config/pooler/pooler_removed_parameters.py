"""`pooler-config` uses a parameter or task that vLLM removed.

## What vLLM does
`PoolerConfig.reject_removed_parameters` runs before the fields are read and stops the
start, while the arguments are parsed, with `Parameter `normalize` was removed; use
`use_activation` instead.` for a `normalize` key, and with `` `score` task was removed; use
`classify` instead.`` or `` `encode` task was removed; use `token_embed` or `token_classify`
instead.`` for those tasks (vllm/config/pooler.py:126-134, vllm/tasks.py:20-31).

## Example
```yaml
model: BAAI/bge-m3
pooler-config:
  task: score
```

## Fixed
```yaml
model: BAAI/bge-m3
pooler-config:
  task: classify
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._model_config import raw_node
from vllm_config_lsp.rules.support import finding, rename_entry_fix
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC425"
NAME = "pooler-removed-parameters"
VLLM_SOURCE = "vllm/config/pooler.py:133"
CATALOGUE = ("pooler.normalize_removed", "pooler.task_removed")
NORMALIZE_SOURCE = "vllm/config/pooler.py:131"
TASKS = {
    "score": ("`score` task was removed; use `classify` instead.", ("classify",)),
    "encode": (
        "`encode` task was removed; use `token_embed` or `token_classify` instead.",
        ("token_embed", "token_classify"),
    ),
}


def check(model: ConfigModel) -> Iterator[Finding]:
    flag = model.flag("pooler-config")
    tree = flag.tree if flag is not None else None
    if tree is None or not tree.is_object:
        return
    entry = tree.entry("normalize")
    if entry is not None:
        title = "Rename to `use_activation`"
        fix = rename_entry_fix(model, tree, entry, "use_activation", title=title)
        yield finding(
            CODE,
            Severity.ERROR,
            (entry.key_start, entry.key_end),
            "Parameter `normalize` was removed; use `use_activation` instead.",
            source=NORMALIZE_SOURCE,
            fixes=[fix] if fix is not None else [],
        )
        return
    task = raw_node(model, "pooler-config", "task")
    if task is None or not isinstance(task.value, str) or task.value not in TASKS:
        return
    message, replacements = TASKS[task.value]
    at = model.text.find(task.value, task.start, task.end)
    fixes = [
        Fix(
            f"Use `{new}`",
            (TextEdit(at, at + len(task.value), new),),
            safe=False,
            preferred=index == 0,
        )
        for index, new in enumerate(replacements)
        if at != -1
    ]
    yield finding(
        CODE, Severity.ERROR, (task.start, task.end), message, source=VLLM_SOURCE, fixes=fixes
    )
