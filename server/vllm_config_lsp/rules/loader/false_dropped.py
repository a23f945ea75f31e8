"""`flag: false` is silently ignored by `vllm serve --config`.

## What vLLM does
For `false`, `load_config_file` emits `--no-<key>` only if the parser doing the loading has
that option; under `vllm serve` the loading is done by the top-level `vllm` parser, which has
none, so every `false` is dropped and vLLM uses its default. For flags whose default is
"decided by vLLM" (prefix caching, chunked prefill, async scheduling, …) or `true`, the file
does not get what it says. `no-<flag>: true` (or `disable-<x>: true`) does work.

## Example
```yaml
model: Qwen/Qwen3-8B
enable-prefix-caching: false
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
no-enable-prefix-caching: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules.support import dropped_pairs, finding, span, spell_like
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC104"
NAME = "false-dropped"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:656"


def check(model: ConfigModel) -> Iterator[Finding]:
    for pair, spec in dropped_pairs(model, "false-dropped"):
        if spec.action != "boolean_optional" or spec.default is False:
            continue
        negative = next((n for n in spec.negatives if n.startswith("--no-")), None)
        default = "decided by vLLM" if spec.default is None else repr(spec.default)
        message = (
            f"`{pair.key}: false` is ignored: `vllm serve --config` drops `false` values "
            f"(vLLM only emits `--no-<key>` when the root parser has it), so vLLM uses the "
            f"default ({default})"
        )
        fixes = []
        if negative:
            new_key = spell_like(pair.key, negative[2:])
            message += f"; write `{new_key}: true`"
            key_start, key_end = span(pair.key_node)
            value_start, value_end = span(pair.value_node)
            fixes.append(
                Fix(
                    f"Replace with `{new_key}: true`",
                    (
                        TextEdit(key_start, key_end, new_key),
                        TextEdit(value_start, value_end, "true"),
                    ),
                    preferred=True,
                )
            )
        yield finding(
            CODE, Severity.WARNING, span(pair.value_node), message, source=VLLM_SOURCE, fixes=fixes
        )
