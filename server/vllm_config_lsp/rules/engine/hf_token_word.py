"""`hf-token` given a word that looks like a switch: vLLM sends the word itself as the token.

## What vLLM does
`--hf-token` is an optional-value flag: bare, it means "use the token of `hf auth login`";
with a value, the value is taken as text (`type=str`, vllm/engine/arg_utils.py:381) and
sent as the HTTP bearer token. Nothing maps `false`, `None` or `""` back to "no token":
`hf-token:` with no value (YAML null, written as `None` by `load_config_file`),
`hf-token: "false"` and `--hf-token false` on a command line send `None`/`false` as the
token, which the Hub refuses as invalid credentials (401). To use the login's token write
`hf-token: true` (a bare `--hf-token`); to send none, leave the key out and set
`HF_HUB_DISABLE_IMPLICIT_TOKEN=1` in the environment.

## Example
```yaml
model: Qwen/Qwen3-8B
hf-token:
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, site_of
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC116"
NAME = "hf-token-word"
VLLM_SOURCE = "vllm/engine/arg_utils.py:381"
#: Texts that read as a switch, not as a token.
SWITCH_WORDS = frozenset({"", "none", "null", "false", "true", "no", "yes", "off", "on", "0", "1"})


def check(model: ConfigModel) -> Iterator[Finding]:
    value = model.final.get("hf_token")
    if value is None or value.unresolved or not isinstance(value.value, str):
        return
    if value.value.strip().lower() not in SWITCH_WORDS:
        return
    site = site_of(model, value.use.token)
    if site is None:
        return
    where = value.value_span()
    if where[0] == where[1]:
        where = site.span
    message = (
        f"`{site.key}` sends the text {value.value!r} as the Hugging Face token: `--hf-token` "
        "takes its value as text, so the Hub refuses the requests as invalid credentials "
        "(401). For the token of `hf auth login` give no value (`hf-token: true`, a "
        "bare `--hf-token`); to send none, remove it and set HF_HUB_DISABLE_IMPLICIT_TOKEN=1"
    )
    removal = site.remove(f"Remove `{site.key}` (the login's token, if any, is sent)")
    fixes = [removal] if removal is not None else []
    yield finding(CODE, Severity.WARNING, where, message, source=VLLM_SOURCE, fixes=fixes)
