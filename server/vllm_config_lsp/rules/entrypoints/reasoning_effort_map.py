"""`reasoning-effort-map` is not an object of effort names to strings.

## What vLLM does
`validate_reasoning_effort_map` runs right after argparse
(vllm/entrypoints/common/cli_args.py:513-528). It refuses anything but a JSON object whose
values are strings (`Error: --reasoning-effort-map must be a JSON object mapping
reasoning efforts to strings.`), then any key that is not a reasoning effort vLLM knows
(`none`, `minimal`, `low`, `medium`, `high`, `xhigh`, `max`): `Error:
--reasoning-effort-map has unknown efforts [...]; keys must be one of [...]`. The map
rewrites a request's effort into one the chat template understands, so a key that no
request can carry would never apply.

## Example
```yaml
model: openai/gpt-oss-20b
reasoning-effort-map:
  extreme: high
```

## Fixed
```yaml
model: openai/gpt-oss-20b
reasoning-effort-map:
  xhigh: high
```
"""

from collections.abc import Iterator

from vllm_config_lsp.document.value_tree import ValueNode
from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules.support import closest, finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC507"
NAME = "reasoning-effort-map"
VLLM_SOURCE = "vllm/entrypoints/common/cli_args.py:520"
CATALOGUE = ("serve.effort_map.shape", "serve.effort_map.keys")

KEYS_SOURCE = "vllm/entrypoints/common/cli_args.py:525"
FLAG = "reasoning-effort-map"


def _shape_problem(tree: ValueNode) -> ValueNode | None:
    """The node that breaks "an object of strings", or None."""
    if not tree.is_object:
        return tree
    for entry in tree.entries or ():
        if not isinstance(entry.value.value, str):
            return entry.value
    return None


def check(model: ConfigModel) -> Iterator[Finding]:
    value = model.flag(FLAG)
    efforts = model.catalogue.value_sets.get("reasoning_efforts")
    if value is None or value.error is not None or value.value is None or efforts is None:
        return
    known = [str(e) for e in efforts.values]
    tree = value.tree
    if tree is None:
        return
    bad = _shape_problem(tree)
    if bad is not None:
        yield finding(
            CODE,
            Severity.ERROR,
            (bad.start, bad.end),
            "Error: --reasoning-effort-map must be a JSON object mapping reasoning efforts "
            "to strings. Write it as `{effort: replacement}` with string values, e.g. "
            "`{xhigh: high}`.",
            source=VLLM_SOURCE,
        )
        return
    entries = [e for e in tree.entries or () if e.key not in known]
    unknown = sorted({e.key for e in entries})
    if not unknown:
        return
    first = entries[0]
    fixes = []
    suggestion = closest(first.key, known, cutoff=0.6)
    hint = ""
    if suggestion is not None and tree.origin == "yaml":
        hint = f" Did you mean `{suggestion}`?"
        fixes.append(
            Fix(
                f"Rename `{first.key}` to `{suggestion}`",
                (TextEdit(first.key_start, first.key_end, suggestion),),
                safe=False,
                preferred=True,
            )
        )
    yield finding(
        CODE,
        Severity.ERROR,
        (first.key_start, first.key_end),
        f"Error: --reasoning-effort-map has unknown efforts {unknown}; keys must be one of "
        f"{known}.{hint}",
        source=KEYS_SOURCE,
        fixes=fixes,
    )
