"""Chunked prefill or prefix caching set against what the model officially supports.

## What vLLM does
`EngineArgs._set_default_chunked_prefill_and_prefix_caching_args` (vllm/engine/arg_utils.py:3041)
takes the model's own answers (`ModelConfig.is_chunked_prefill_supported` and
`is_prefix_caching_supported`, vllm/config/model.py:2193 and 2239) as the defaults. A value the
file sets is kept, and vLLM only cautions when it goes against them: chunked prefill turned
off on a generative model that supports it ("This model does not officially support disabling
chunked prefill. Disabling this manually may cause the engine to crash or produce incorrect
outputs.", arg_utils.py:3059), or chunked prefill or prefix caching turned on for a pooling
model whose pooler needs whole prompts (MEAN or CLS sequence pooling, STEP token pooling:
"This model does not officially support chunked prefill.", :3069; "This model does not
officially support prefix caching.", :3087). Information: the settings apply as written. A
generative model is assumed when the model's files are not known and the runner is not
`pooling`; encoder-decoder checkpoints, whose default is off already, are skipped.

## Example
```yaml
model: Qwen/Qwen2.5-0.5B-Instruct
no-enable-chunked-prefill: true
```

## Fixed
```yaml
model: Qwen/Qwen2.5-0.5B-Instruct
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._checkpoint import pooling_turns_chunked_off, resolve_runner, served
from vllm_config_lsp.rules._engine import Given, field_value, given_field, removal
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC396"
NAME = "chunked-prefill-support"
VLLM_SOURCE = "vllm/engine/arg_utils.py:3059"
CATALOGUE = (
    "warn.cli.chunked_prefill.disabled",
    "warn.cli.chunked_prefill.pooling",
    "warn.cli.prefix_caching.pooling",
)
CLASS = "SchedulerConfig"
CRASH = "manually may cause the engine to crash or produce incorrect outputs."


def _runner(model: ConfigModel) -> str | None:
    resolved = resolve_runner(model)
    return resolved.runner if resolved is not None else field_value(model, "ModelConfig", "runner")


def check(model: ConfigModel) -> Iterator[Finding]:
    chunked = given_field(model, CLASS, "enable_chunked_prefill")
    runner = _runner(model)
    if chunked is not None and chunked.value is False and runner in ("generate", "auto"):
        config = served(model)
        if config is None or not config.is_encoder_decoder:
            yield _caution(
                model,
                chunked,
                "This model does not officially support disabling chunked prefill. Disabling "
                f"this {CRASH} Leave chunked prefill on unless the "
                "model's documentation asks otherwise.",
            )
    pooler = pooling_turns_chunked_off(model)
    if pooler is None:
        return
    caching = given_field(model, "CacheConfig", "enable_prefix_caching")
    for setting, what in ((chunked, "chunked prefill"), (caching, "prefix caching")):
        if setting is not None and setting.value is True:
            yield _caution(
                model,
                setting,
                f"This model does not officially support {what}. Enabling this {CRASH} "
                f"(`{pooler.label}` pools over whole prompts.) Leave `{setting.label}` "
                "to vLLM, which turns it off for this pooler.",
            )


def _caution(model: ConfigModel, setting: Given, message: str) -> Finding:
    """Information with the removal that gives the setting back to the model's default."""
    fix = removal(model, setting, "Leave it to vLLM (the model's default)")
    return finding(
        CODE, Severity.INFO, setting.where, message, source=VLLM_SOURCE, fixes=[fix] if fix else []
    )
