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

from ..config_model import ConfigModel
from ..findings import Finding, Severity
from ..rule_support import finding, rename_key_fix, span, spell_like

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
