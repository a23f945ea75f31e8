"""`flag: false` on a flag that takes a value is silently ignored: the default applies.

## What vLLM does
For `false`, `load_config_file` emits `--no-<key>` only if the parser doing the loading has
that option (vllm/utils/argparse_utils.py:657); a flag that takes a value has no `--no-`
form at all, so `false` never reaches argparse and vLLM uses the flag's default, whatever
"off" the file meant. `hf-token: false` reads as "send no Hugging Face token", but the
default None lets huggingface_hub send the token of `hf auth login` or `HF_TOKEN`
(security: a credential the file means to withhold is sent). No value of `--hf-token` says
"no token" (a text is sent as the token itself); set `HF_HUB_DISABLE_IMPLICIT_TOKEN=1` in
the environment instead. The fix removes the key, so the file says what vLLM does.

## Example
```yaml
model: Qwen/Qwen3-8B
reasoning-parser: false
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import dropped_pairs, finding, remove_pair_fix, shown, span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC115"
NAME = "false-dropped-value"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:657"
#: What a dropped `false` leaves in force where the default is more than "unset".
CONSEQUENCES = {
    "hf_token": (
        ": huggingface_hub then sends the token of `hf auth login` or `HF_TOKEN` (security: "
        "the token `false` means to withhold is sent); to send none, remove the key and set "
        "HF_HUB_DISABLE_IMPLICIT_TOKEN=1 in the environment"
    ),
}


def check(model: ConfigModel) -> Iterator[Finding]:
    for pair, spec in dropped_pairs(model, "false-dropped"):
        if spec.action != "store":
            continue  # on/off flags: VC104 (store_true's default is already off)
        if spec.dest == "model" and not model.model_on_cli:
            continue  # no model at all: VC124 (vLLM refuses)
        default = "unset" if spec.default is None else shown(spec.default)
        message = (
            f"`{pair.key}: false` is ignored: `vllm serve --config` drops `false` and "
            f"`{spec.options[0]}` has no `--no-` form, so vLLM uses the default ({default})"
        )
        message += CONSEQUENCES.get(spec.dest, "")
        fix = remove_pair_fix(
            model, pair, f"Remove `{pair.key}: false` (the default applies)", safe=False
        )
        yield finding(
            CODE,
            Severity.WARNING,
            span(pair.value_node),
            message,
            source=VLLM_SOURCE,
            fixes=[fix] if fix else [],
        )
