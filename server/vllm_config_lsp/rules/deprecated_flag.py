"""A flag that vLLM has deprecated (it still starts, with a warning, or ignores it).

## What vLLM does
Deprecated options are still accepted but log vLLM's deprecation message at start; several
no longer have any effect (e.g. `mamba-cache-mode`, `disable-cascade-attn`).

## Example
```yaml
model: Qwen/Qwen3-8B
disable-cascade-attn: true
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
```
"""

from collections.abc import Iterator

from ..config_model import ConfigModel
from ..findings import Finding, Severity
from ..rule_support import finding, remove_pair_fix, span

CODE = "VC110"
NAME = "deprecated-flag"
VLLM_SOURCE = "vllm/engine/arg_utils.py:456"


def check(model: ConfigModel) -> Iterator[Finding]:
    for use in model.result.uses:
        pair = use.token.pair
        if not use.spec.deprecated or pair is None or not use.token.is_key:
            continue
        fix = remove_pair_fix(model, pair, safe=False)
        yield finding(
            CODE,
            Severity.WARNING,
            span(pair.key_node),
            use.spec.deprecated,
            source=use.spec.source or VLLM_SOURCE,
            fixes=[fix] if fix else [],
        )
