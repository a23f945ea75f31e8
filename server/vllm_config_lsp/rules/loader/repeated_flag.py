"""The same flag is set twice (two spellings, or a mapping plus dotted keys); only the last
one counts.

## What vLLM does
argparse keeps the last value of a repeated option. `max_model_len` and `max-model-len` are
the same flag; dotted keys (`compilation-config.mode: 3`) are gathered into one JSON argument
appended *after* everything else, which replaces a `compilation-config:` mapping entirely
instead of merging with it.

## Example
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  cudagraph_mode: FULL
compilation-config.mode: 3
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  cudagraph_mode: FULL
  mode: 3
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, site_of
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC108"
NAME = "repeated-flag"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:500"
CATALOGUE = ("warn.argparse.duplicate_keys",)


def check(model: ConfigModel) -> Iterator[Finding]:
    last_by_dest = model.final
    for value in model.values:
        winner = last_by_dest.get(value.spec.dest)
        if winner is None or winner is value:
            continue
        site, winner_site = site_of(model, value.use.token), site_of(model, winner.use.token)
        if site is None or winner_site is None or winner_site.span == site.span:
            continue
        line = model.index.line_col(winner_site.span[0])[0] + 1
        how = (
            "the dotted keys are gathered into one JSON argument placed last, which replaces "
            "this one entirely"
            if winner.use.token.dotted and not value.use.token.dotted
            else "argparse keeps the last value"
        )
        yield finding(
            CODE,
            Severity.WARNING,
            site.span,
            f"{value.spec.options[0]} is set again on line {line} (`{winner_site.key}`): {how}, "
            f"so this `{site.key}` has no effect",
            source=VLLM_SOURCE,
        )
