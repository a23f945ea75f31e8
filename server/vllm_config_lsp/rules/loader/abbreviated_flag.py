"""A key is only the beginning of a flag name; argparse silently expands it.

## What vLLM does
argparse's `allow_abbrev` is on, so `tensor-parallel: 2` is taken as
`--tensor-parallel-size 2`. It works today, but a future flag with the same prefix makes it
ambiguous and the start fails; write the full name.

## Example
```yaml
model: Qwen/Qwen3-8B
tensor-parallel: 2
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
tensor-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, remove_pair_fix, rename_key_fix, span, spell_like
from vllm_config_lsp.sources.config_file import Pair
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.flag_history import Change, removed_flag

CODE = "VC103"
NAME = "abbreviated-flag"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:156"


def check(model: ConfigModel) -> Iterator[Finding]:
    for use in model.result.uses:
        pair = use.token.pair
        if not use.abbreviated or pair is None or not use.token.is_key:
            continue
        full = use.option_string[2:]
        new_key = spell_like(pair.key, full)
        history = removed_flag(pair.key.replace("_", "-"), model.catalogue.version)
        if history is not None:
            # A flag of another release that this one reads as a different flag.
            yield _other_release(model, pair, use.option_string, history)
            continue
        yield finding(
            CODE,
            Severity.WARNING,
            span(pair.key_node),
            f"`{pair.key}` is not a flag name; argparse takes it as the abbreviation of "
            f"{use.option_string}. Write the full name: a new flag with the same prefix "
            "would make it ambiguous",
            source=VLLM_SOURCE,
            fixes=[rename_key_fix(model, pair, new_key)],
        )


def _other_release(model: ConfigModel, pair: Pair, option: str, history: Change) -> Finding:
    message = (
        f"vLLM {model.catalogue.version} takes `{pair.key}` as the abbreviation of {option}, "
        f"a different flag: `--{pair.key.replace('_', '-')}` was {history.message}"
    )
    fixes = []
    if history.rename_to:
        fixes.append(rename_key_fix(model, pair, spell_like(pair.key, history.rename_to)))
    removal = remove_pair_fix(model, pair)
    if removal is not None:
        fixes.append(removal)
    return finding(
        CODE, Severity.WARNING, span(pair.key_node), message, source=VLLM_SOURCE, fixes=fixes
    )
