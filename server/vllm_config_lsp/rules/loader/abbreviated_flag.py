"""A key is only the beginning of a flag name; argparse silently expands it.

## What vLLM does
argparse's `allow_abbrev` is on, so `tensor-parallel: 2` is taken as
`--tensor-parallel-size 2`. It works today, but a future flag with the same prefix makes it
ambiguous and the start fails; write the full name.

## Example
```yaml
model: Qwen/Qwen3-8B
tensor-parallel: 2
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
tensor-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import Site, finding, site_of
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.flag_history import Change, removed_flag

CODE = "VC103"
NAME = "abbreviated-flag"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:156"


def check(model: ConfigModel) -> Iterator[Finding]:
    for use in model.result.uses:
        site = site_of(model, use.token)
        if not use.abbreviated or site is None:
            continue
        full = use.option_string[2:]
        history = removed_flag(site.key.replace("_", "-"), model.catalogue.version)
        if history is not None:
            # A flag of another release that this one reads as a different flag.
            yield _other_release(model, site, use.option_string, history)
            continue
        yield finding(
            CODE,
            Severity.WARNING,
            site.span,
            f"`{site.key}` is not a flag name; argparse takes it as the abbreviation of "
            f"{use.option_string}. Write the full name: a new flag with the same prefix "
            "would make it ambiguous",
            source=VLLM_SOURCE,
            fixes=[fix for fix in (site.rename(full),) if fix is not None],
        )


def _other_release(model: ConfigModel, site: Site, option: str, history: Change) -> Finding:
    message = (
        f"vLLM {model.catalogue.version} takes `{site.key}` as the abbreviation of {option}, "
        f"a different flag: `--{site.key.replace('_', '-')}` was {history.message}"
    )
    fixes = [site.rename(history.rename_to)] if history.rename_to else []
    fixes.append(site.remove())
    return finding(
        CODE,
        Severity.WARNING,
        site.span,
        message,
        source=VLLM_SOURCE,
        fixes=[fix for fix in fixes if fix is not None],
    )
