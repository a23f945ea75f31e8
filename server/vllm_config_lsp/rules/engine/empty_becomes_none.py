"""An empty value (`""`) of a flag whose default is not None gives None, not the default.

## What vLLM does
Flags whose field may be None read their text with `optional_type`
(vllm/engine/arg_utils.py:173): `""` and `None` become Python's None. Where the flag's own
default is something else, an empty value does not mean "the default": vLLM starts with
None, which these fields read as a setting of its own. `prefix-cache-retention-interval: ""`
retains prefix-cache checkpoints densely, where the default 0 keeps only the semantic ones.
To keep the default, leave the key out; to ask for None, write `null`.

## Example
```yaml
model: Qwen/Qwen3-8B
prefix-cache-retention-interval: ""
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, remove_pair_fix, token_span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC210"
NAME = "empty-becomes-none"
VLLM_SOURCE = "vllm/engine/arg_utils.py:173"


def check(model: ConfigModel) -> Iterator[Finding]:
    for value in model.values:
        spec = value.spec
        if not spec.optional or spec.default is None or spec.is_json or len(value.use.values) != 1:
            continue
        [token] = value.use.values
        if token.text != "" or value.value is not None or model.final.get(spec.dest) is not value:
            continue
        pair = token.pair
        fixes = []
        if pair is not None:
            removal = remove_pair_fix(
                model, pair, f"Remove `{pair.key}` (vLLM's default {spec.default})"
            )
            if removal is not None:
                fixes.append(removal)
        yield finding(
            CODE,
            Severity.WARNING,
            token_span(model, token),
            f'`""` for {spec.options[0]} becomes None (argparse reads `""` as no value), not '
            f"its default {spec.default}: vLLM starts with None. Leave the key out for the "
            "default, or write `null` if None is meant",
            source=VLLM_SOURCE,
            fixes=fixes,
        )
