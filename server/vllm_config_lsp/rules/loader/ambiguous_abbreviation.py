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

import difflib
from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import (
    finding,
    remove_pair_fix,
    rename_pair_fix,
    spell_like,
    token_span,
)
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.flag_history import removed_flag

CODE = "VC102"
NAME = "ambiguous-abbreviation"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:521"

#: argparse lists every match; a prefix like `n` matches a hundred options.
SHOWN = 6


def check(model: ConfigModel) -> Iterator[Finding]:
    for error in model.result.errors:
        if not error.message.startswith("ambiguous option") or error.token is None:
            continue
        pair = error.token.pair
        head, _, matches = error.message.partition(" could match ")
        candidates = matches.split(", ")
        shown = ", ".join(candidates[:SHOWN])
        more = f" (and {len(candidates) - SHOWN} more)" if len(candidates) > SHOWN else ""
        message = f"{head} could match {shown}{more}"
        fixes = []
        if pair is not None and error.token.is_key:
            history = removed_flag(pair.key.replace("_", "-"), model.catalogue.version)
            if history is not None:
                message += f": `{pair.key}` was {history.message}"
            written = "--" + pair.key.replace("_", "-")
            close = difflib.get_close_matches(written, candidates, n=3, cutoff=0.0)
            for option in close if history is None else []:
                new_key = spell_like(pair.key, option[2:])
                fixes.append(rename_pair_fix(model, pair, new_key, preferred=False, safe=False))
            fixes.append(remove_pair_fix(model, pair))
        where = token_span(model, error.token)
        fixed = [fix for fix in fixes if fix is not None]
        yield finding(CODE, Severity.ERROR, where, message, source=VLLM_SOURCE, fixes=fixed)
