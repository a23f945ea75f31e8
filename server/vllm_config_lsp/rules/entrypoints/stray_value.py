"""A value ends up as a positional argument: it replaces the model or is refused.

## What vLLM does
Values that no option consumes are positional arguments. The first becomes `model_tag`,
which `vllm serve` uses instead of the file's `model:` (vllm/entrypoints/cli/serve.py:56);
any further one (or the first, when the model is given on the command line) stops the start
with `unrecognized arguments`. A stray word that cannot name a model (a number, `None`,
`true`/`false`) then stops the start too: no repository or folder is called that, and
loading it fails with `Invalid repository ID or local directory specified`
(vllm/transformers_utils/config.py:911). Any other word is a warning: it may name a model.
Typical causes: a value for an on/off flag (`enable-chunked-prefill: 'false'`), or a list
given to a flag that takes one value.

## Example
```yaml
model: Qwen/Qwen3-8B
enable-chunked-prefill: "false"
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
no-enable-chunked-prefill: true
```
"""

import re
from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, token_span
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.parse_args import Token

CODE = "VC106"
NAME = "stray-value"
VLLM_SOURCE = "vllm/entrypoints/cli/serve.py:56"
#: Words no Hugging Face repository or model folder is named: what YAML's null, booleans
#: and numbers become as argv words.
_NO_MODEL = re.compile(r"(?i)none|null|true|false|[+-]?(\d[\d_]*\.?\d*|\.\d+)(e[+-]?\d+)?")


def _cause(model: ConfigModel, token: Token) -> str:
    pair = token.pair
    if pair is None:
        return ""
    use = next((u for u in model.result.uses if u.token.pair is pair), None)
    if use is not None and not use.spec.takes_value:
        return f"`{pair.key}` is an on/off flag and takes no value"
    if use is not None:
        return f"{use.spec.options[0]} takes one value and a YAML list gives one argument per item"
    return f"`{pair.key}` did not take it"


def check(model: ConfigModel) -> Iterator[Finding]:
    # The value of an unrecognized or ambiguous key is reported with the key (VC101, VC102).
    unknown = {id(t.pair) for t in model.result.extras if t.is_key}
    unknown |= {id(e.token.pair) for e in model.result.errors if e.token and e.token.is_key}
    tag = model.result.model_tag
    if tag is not None and tag.pair is not None and id(tag.pair) not in unknown:
        message = (
            f"vLLM takes `{tag.text}` as the model (the positional `model_tag`), replacing "
            f"`model:`: {_cause(model, tag)}"
        )
        if _NO_MODEL.fullmatch(tag.text):
            yield finding(
                CODE,
                Severity.ERROR,
                token_span(model, tag),
                f"{message}; loading it stops the start: Invalid repository ID or local "
                f"directory specified: '{tag.text}'",
                source="vllm/transformers_utils/config.py:911",
            )
        else:
            yield finding(
                CODE, Severity.WARNING, token_span(model, tag), message, source=VLLM_SOURCE
            )
    for token in model.result.extras:
        if token.is_key or token.pair is None or id(token.pair) in unknown:
            continue
        yield finding(
            CODE,
            Severity.ERROR,
            token_span(model, token),
            f"unrecognized arguments: {token.text}: {_cause(model, token)}",
            source="vllm/utils/argparse_utils.py:182",
        )
