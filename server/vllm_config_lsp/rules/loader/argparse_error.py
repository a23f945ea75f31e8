"""A flag is missing its value, or got a value it cannot take.

## What vLLM does
argparse stops the start when an option that needs a value gets none
(`argument --max-model-len: expected one argument`) — e.g. `true` for a flag that takes a
number, a value starting with `-` that looks like another option, or `--opt=value` on an
on/off flag (`ignored explicit argument`).

## Example
```yaml
model: Qwen/Qwen3-8B
max-model-len: true
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
max-model-len: 32768
```
"""

from collections.abc import Iterator

from yaml.nodes import ScalarNode

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, quote_fix, span, token_span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC111"
NAME = "argparse-error"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:521"


def check(model: ConfigModel) -> Iterator[Finding]:
    for error in model.result.errors:
        if error.message.startswith("ambiguous option") or error.token is None:
            continue
        pair = error.token.pair
        message = error.message
        fixes = []
        where = token_span(model, error.token)
        node = pair.value_node if pair is not None else None
        if isinstance(node, ScalarNode) and node.tag.endswith(":bool") and pair is not None:
            where = span(node)
            if node.style is None and node.value.lower() not in ("true", "false"):
                message += f": YAML reads `{node.value}` as a boolean, so vLLM passes the bare flag"
                fixes.append(quote_fix(model, node, node.value, f'Quote "{node.value}"'))
            else:
                message += f": `true` passes the bare flag; `{pair.key}` needs a value"
        yield finding(CODE, Severity.ERROR, where, message, source=VLLM_SOURCE, fixes=fixes)
