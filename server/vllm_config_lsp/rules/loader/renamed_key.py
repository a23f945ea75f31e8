"""A flag or config field is written under its old name although this release has the new one.

## What vLLM does
vLLM renames options in two steps: for a few releases both names are accepted (the old one
often with a deprecation warning), then the old name is removed and the same file stops
the start with `unrecognized arguments` or `Unexpected keyword argument`. Examples:
`compilation-config.level` became `mode` (0.11; `level` removed in 0.18), the
`pass_config` switches `enable_noop`, `enable_attn_fusion`, `enable_fi_allreduce_fusion`,
`enable_sequence_parallelism`, `enable_async_tp` became `eliminate_noops`,
`fuse_attn_quant`, `fuse_allreduce_rms`, `enable_sp`, `fuse_gemm_comms` (0.12; the old ones
removed in 0.13), `cuda-graph-sizes` became `cudagraph-capture-sizes` and
`override-pooler-config` became `pooler-config`. The rename is only offered (as a safe fix)
when the new name exists in the release the file is checked against, so the fixed file
works there and after the upgrade.

## Example
```yaml
# vllm-config: version=0.17
model: Qwen/Qwen3-8B
compilation-config:
  level: 3
```

## Fixed
```yaml
# vllm-config: version=0.17
model: Qwen/Qwen3-8B
compilation-config:
  mode: 3
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._versioned import field_uses
from vllm_config_lsp.rules.support import finding, rename_entry_fix, site_of
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.flag_history import Rename, is_bare, renamed_field, renamed_flag

CODE = "VC121"
NAME = "renamed-key"
#: About the releases' history (schemas/), not one line of one release.
VLLM_SOURCE = None


def _message(where: str, rename: Rename, release: str) -> str:
    message = (
        f"`{where}` was renamed `{rename.new}` in vLLM {rename.since}; vLLM {release} still "
        "accepts the old name"
    )
    if rename.removed is not None:
        message += f", vLLM {rename.removed} refuses it"
    if rename.deprecation and not is_bare(rename.deprecation):
        message += f" (vLLM {release} says: {rename.deprecation})"
    return message


def check(model: ConfigModel) -> Iterator[Finding]:
    release = model.catalogue.version
    for use in model.result.uses:
        site = site_of(model, use.token)
        if site is None or not use.option_string.startswith("--"):
            continue
        rename = renamed_flag(use.option_string[2:], release)
        if rename is None:
            continue
        _head, dot, tail = site.key.partition(".")
        fix = site.rename(rename.new + dot + tail)
        yield finding(
            CODE,
            Severity.WARNING,
            site.span,
            _message(site.key, rename, release),
            source=None,
            fixes=[fix] if fix is not None else [],
        )
    for field in field_uses(model):
        rename = renamed_field(field.class_name, field.name, release)
        if rename is None:
            continue
        entry = field.entry
        fix = rename_entry_fix(model, field.container, entry, rename.new)
        yield finding(
            CODE,
            Severity.WARNING,
            (entry.key_start, entry.key_end),
            _message(field.where, rename, release),
            source=None,
            fixes=[fix] if fix is not None else [],
        )
