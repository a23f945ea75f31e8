"""YAML aliases expand to an enormous value (an "alias bomb").

## What vLLM does
`yaml.safe_load` shares aliased nodes, but vLLM then turns every value into argument text
(`str()`, `json.dumps`), which expands each alias again: a few lines can demand gigabytes and
the start never finishes. This file is not checked further.

## Example
```yaml
a: &a [x, x, x, x, x, x, x, x, x, x]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
f: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
```
"""

from collections.abc import Iterator

from vllm_config_lsp.document.yaml_tree import EXPANSION_LIMIT
from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC006"
NAME = "alias-expansion"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:659"


def check(model: ConfigModel) -> Iterator[Finding]:
    if model.origin is None or model.origin.too_large is None:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        (0, min(len(model.text), model.index.line_end(0))),
        f"YAML aliases in this file expand to more than {EXPANSION_LIMIT:,} values; vLLM "
        "would expand them all while building its arguments. Write the values out.",
        source=VLLM_SOURCE,
    )
