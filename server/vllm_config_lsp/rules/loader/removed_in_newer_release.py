"""A flag this release accepts but a newer vLLM release removes: the config breaks on upgrade.

## What vLLM does
Each release refuses the options earlier ones removed (`unrecognized arguments: --swap-space`)
and the config fields they dropped (`Unexpected keyword argument`). A config checked against
an older release (by its `# vllm-config: version=` comment, the installed vLLM or the image
tag) is fine today, but an upgrade to a release that refuses the key will stop it at start.
The message names every known release that refuses it (a key can come back: vLLM 0.33
accepts `disable-log-requests` again, which 0.17 to 0.32 refuse) and what to write instead;
`vllm-config-lsp check --migrate-to X` (or the editor's "Migrate this config to vLLM X")
applies the known renames and removals.

## Example
```yaml
# vllm-config: version=0.17
model: Qwen/Qwen3-8B
swap-space: 4
```

## Fixed
```yaml
# vllm-config: version=0.17
model: Qwen/Qwen3-8B
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._versioned import (
    field_reported_elsewhere,
    field_uses,
    flag_reported_elsewhere,
)
from vllm_config_lsp.rules.support import finding, site_of
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.flag_history import (
    Change,
    newer_change_field,
    newer_change_flag,
    refusing_field,
    refusing_flag,
    release_spans,
)

CODE = "VC120"
NAME = "removed-in-newer-release"
#: About the releases' history (schemas/), not one line of one release.
VLLM_SOURCE = None


def _message(key: str, change: Change, release: str, refusing: list[str]) -> str:
    """Names every known release that refuses the key: one that comes back later
    (`disable-log-requests` in 0.33) breaks an upgrade to some releases only."""
    return (
        f"`{key}` is refused at start by {release_spans(refusing)}: {change.message}. "
        f"This file is checked against vLLM {release}, which accepts it"
    )


def check(model: ConfigModel) -> Iterator[Finding]:
    release = model.catalogue.version
    for use in model.result.uses:
        site = site_of(model, use.token)
        if site is None:
            continue
        option = use.option_string[2:] if use.option_string.startswith("--") else None
        change = newer_change_flag(option, release) if option else None
        if change is None or flag_reported_elsewhere(model, option or "", use.spec.deprecated):
            continue  # VC121 (renamed) or VC110 (deprecated) names the removal too
        message = _message(site.key, change, release, refusing_flag(option or "", release))
        yield finding(CODE, Severity.INFO, site.span, message, source=None)
    for field in field_uses(model):  # nested classes too (`pass_config` fields)
        field_change = newer_change_field(field.class_name, field.name, release)
        if field_change is None or field_reported_elsewhere(model, field.class_name, field.name):
            continue  # VC121 (renamed) or VC122 (deprecated) names the removal too
        where = (field.entry.key_start, field.entry.key_end)
        refusing = refusing_field(field.class_name, field.name, release)
        message = _message(field.where, field_change, release, refusing)
        yield finding(CODE, Severity.INFO, where, message, source=None)
