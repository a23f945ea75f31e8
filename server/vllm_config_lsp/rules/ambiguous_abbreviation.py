"""A key is the beginning of several flag names, so argparse cannot tell which one.

## What vLLM does
argparse accepts unique prefixes of option names (`allow_abbrev`), but a prefix shared by
several options stops the start with `ambiguous option: --device could match --device-ids,
--device-memory-utilization`. This often happens with flags that were removed.

## Example
```yaml
model: Qwen/Qwen3-8B
max-num: 256
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
max-num-seqs: 256
```
"""

from collections.abc import Iterator

from ..config_model import ConfigModel
from ..findings import Finding, Severity
from ..flag_history import removed_flag
from ..rule_support import finding, remove_pair_fix, rename_key_fix, spell_like, token_span

CODE = "VC102"
NAME = "ambiguous-abbreviation"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:521"


def check(model: ConfigModel) -> Iterator[Finding]:
    for error in model.result.errors:
        if not error.message.startswith("ambiguous option") or error.token is None:
            continue
        pair = error.token.pair
        message = error.message
        fixes = []
        if pair is not None and error.token.is_key:
            history = removed_flag(pair.key.replace("_", "-"))
            if history is not None:
                message += f": `{pair.key}` was {history.message}"
            candidates = message.split(" could match ", 1)[1].split(": ", 1)[0].split(", ")
            for option in candidates[:5]:
                if option.startswith("--"):
                    fixes.append(
                        rename_key_fix(
                            model,
                            pair,
                            spell_like(pair.key, option[2:]),
                            preferred=False,
                            safe=False,
                        )
                    )
            removal = remove_pair_fix(model, pair)
            if removal:
                fixes.append(removal)
        yield finding(
            CODE,
            Severity.ERROR,
            token_span(model, error.token),
            message,
            source=VLLM_SOURCE,
            fixes=fixes,
        )
