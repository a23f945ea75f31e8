"""A flag that vLLM has deprecated (it still starts, with a warning, or ignores it).

## What vLLM does
Deprecated options are still accepted but log vLLM's deprecation message at start; several
no longer have any effect (e.g. `mamba-cache-mode`, `disable-cascade-attn`). The message is
the deprecation text of the release the file is checked against (where vLLM only says
"deprecated", the flag and release are named), with the release that removes the flag and
what to write instead. Renamed flags are reported by VC121, which offers the rename.

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

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, site_of
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.flag_history import (
    ADVICE,
    is_bare,
    minor,
    newer_change_flag,
    renamed_flag,
)

CODE = "VC110"
NAME = "deprecated-flag"
VLLM_SOURCE = "vllm/engine/arg_utils.py:456"
CATALOGUE = (
    "warn.argparse.deprecated_argument",
    "warn.cli.log_config_file.deprecated",
    "warn.cli.disable_cascade_attn.deprecated",
    "warn.cli.mamba_cache_mode.deprecated",
    "warn.cli.ir_op_priority.deprecated",
)


def check(model: ConfigModel) -> Iterator[Finding]:
    release = model.catalogue.version
    for use in model.result.uses:
        site = site_of(model, use.token)
        if not use.spec.deprecated or site is None:
            continue
        option = use.option_string[2:] if use.option_string.startswith("--") else use.spec.name
        if renamed_flag(option, release) is not None:
            continue  # VC121 offers the rename
        fix = site.remove()
        yield finding(
            CODE,
            Severity.WARNING,
            site.span,
            _message(use.spec.deprecated, option, release),
            source=use.spec.source or VLLM_SOURCE,
            fixes=[fix] if fix else [],
        )


def _message(text: str, option: str, release: str) -> str:
    """vLLM's text of this release; a bare "deprecated" (argparse's `deprecated=True`) is
    spelled out, and the release that removes the flag, with what to write instead."""
    message = f"`--{option}` is deprecated in vLLM {release}" if is_bare(text) else text
    removal = newer_change_flag(option, release)
    if removal is not None:
        message += f" (vLLM {minor(removal.release)} removes it"
        advice = ADVICE.get(option)
        message += f"; {advice.text})" if advice is not None else ")"
    return message
