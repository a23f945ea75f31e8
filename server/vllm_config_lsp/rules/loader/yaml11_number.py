"""A value YAML 1.1 reads as a number that is not the number written: `0123` is octal.

## What vLLM does
PyYAML follows YAML 1.1 for numbers too: a leading `0` makes an integer octal (`0123` is 83,
`0123456` is 42798), `1:30` is sexagesimal (90), `_` is dropped (`1_000` is 1000), and a
decimal loses its trailing zeros (`0.30` is 0.3). vLLM then passes `str(value)` to the flag,
without a word: `port: 0123` listens on port 83, `api-key: 0123456` expects the key `42798`,
`tokenizer-revision: 0.30` asks for revision `0.3`. Only values whose flag reads the two
texts differently are reported (`1_000` for an integer flag is fine).

## Example
```yaml
model: Qwen/Qwen3-8B
api-key: 0123456
tokenizer-revision: 0.30
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
api-key: '0123456'
tokenizer-revision: '0.30'
```
"""

import re
from collections.abc import Iterator

from vllm_config_lsp.document.yaml_tree import construct_scalar
from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.loader._scalars import plain_scalars
from vllm_config_lsp.rules.support import (
    finding,
    flag_by_key,
    quote_fix,
    span,
)
from vllm_config_lsp.vllm.catalogue import FlagSpec
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.flag_values import convert_values

CODE = "VC112"
NAME = "yaml11-number"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:671"

_OCTAL = re.compile(r"[-+]?0[0-7_]+")


def _why(text: str) -> str:
    if _OCTAL.fullmatch(text):
        return " (a leading 0 makes it octal)"
    if ":" in text:
        return " (`:` makes it sexagesimal, base 60)"
    if "_" in text:
        return " (YAML drops the `_`)"
    return ""


def _misread(spec: FlagSpec, text: str, received: str) -> bool:
    """Whether the flag makes something else of the text vLLM receives than of the text
    written; a written text the flag refuses has no clear meaning and is left alone."""
    written, passed = convert_values(spec, [text, received])
    if written.error is not None or written.unknown:
        return False
    return passed.error is not None or passed.value != written.value


def check(model: ConfigModel) -> Iterator[Finding]:
    if model.origin is None:  # a host's command line: no YAML entries
        return
    for pair in model.origin.pairs:
        spec = flag_by_key(model, pair.key)
        if spec is None or not spec.takes_value or spec.is_json:
            continue
        for node in plain_scalars(pair.value_node, "int", "float"):
            text, received = node.value, str(construct_scalar(node))
            if not _misread(spec, text, received):
                continue
            yield finding(
                CODE,
                Severity.WARNING,
                span(node),
                f"YAML reads `{text}` as the number {received}{_why(text)}, so vLLM passes "
                f"`--{spec.name} {received}`, not `{text}`. Quote it to pass it as written",
                source=VLLM_SOURCE,
                fixes=[quote_fix(model, node, text, f'Quote "{text}"')],
            )
