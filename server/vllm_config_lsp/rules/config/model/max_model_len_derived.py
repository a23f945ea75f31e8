"""`max-model-len` is longer than the context the model's config.json allows.

## What vLLM does
`_get_and_verify_max_len` (vllm/config/model.py:2545-2690) derives the model's maximum
context from config.json: the smallest of `max_position_embeddings`, `n_positions`,
`max_seq_len`, `seq_length`, `max_target_positions`, … (`model_max_length` wins when set),
capped at `sliding_window` with `disable-sliding-window`, for a pooling model with absolute
position embeddings also at the tokenizer's `model_max_length` (tokenizer_config.json of
`tokenizer`, else the model), times the RoPE scaling `factor` (except for `llama3`, `yarn`,
`longrope` and other types whose positions are already scaled, and for Gemma 3); a
sentence-transformers `max_seq_length` (sentence_bert_config.json, …) replaces the result,
for any runner. A larger `max-model-len` stops the start with `User-specified
max_model_len (65536) is greater than the derived max_model_len
(max_position_embeddings=32768.0 or model_max_length=None in model's config.json).` unless
the environment sets `VLLM_ALLOW_LONG_MAX_MODEL_LEN=1`: then vLLM only warns that
positions past the trained length give NaNs or out-of-bounds errors. When this linter runs
with that variable set, the finding is a warning too. Human-readable values count like
vLLM: `64k` is 64000, `64K` is 65536.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
max-model-len: 64K
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
max-model-len: 32768
```
"""

import dataclasses
import os
from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import resolve_runner, served
from vllm_config_lsp.rules._engine import (
    Given,
    error,
    field_value,
    given_field,
    is_int,
    removal,
    replace,
    warning,
)
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.model_files import HfConfig, MaxLen, tokenizer_max_length

CODE = "VC604"
NAME = "max-model-len-over-derived"
VLLM_SOURCE = "vllm/config/model.py:2680"
CATALOGUE = ("model.max_model_len.derived",)

ESCAPE = "VLLM_ALLOW_LONG_MAX_MODEL_LEN"


def allows_long() -> bool:
    """vllm/envs.py reads the variable as `1`/`true` (any case)."""
    return os.environ.get(ESCAPE, "0").strip().lower() in ("1", "true")


def served_limit(model: ConfigModel, config: HfConfig, *, at_most: bool = False) -> MaxLen | None:
    """The served model's limit under this file's `disable-sliding-window`; a pooling model
    with absolute position embeddings is also capped by its tokenizer's `model_max_length`
    (model.py:2150-2159). When that cap cannot be known here (no tokenizer_config.json in a
    cached snapshot, an unknown runner), None, or with `at_most` the uncapped limit: the cap
    only ever lowers it, so a value above it is refused either way."""
    disabled = field_value(model, "ModelConfig", "disable_sliding_window") is True
    limit = config.derived_max_len(disable_sliding_window=disabled)
    if limit is None or config.raw.get("position_embedding_type") != "absolute":
        return limit
    known, tokenizer_max = tokenizer_max_length(model)
    capped = config.derived_max_len(disable_sliding_window=disabled, tokenizer_max=tokenizer_max)
    if known and capped == limit:
        return limit
    runner = resolve_runner(model)
    if not known or runner is None or runner.runner is None:
        note = "the tokenizer's model_max_length may lower it further"
        return dataclasses.replace(limit, notes=(*limit.notes, note)) if at_most else None
    return capped if runner.runner == "pooling" else limit


def over_limit(
    code: str,
    model: ConfigModel,
    wanted: Given,
    config: HfConfig,
    limit: MaxLen,
    advice: str,
    cap: int | None = None,
) -> Finding | None:
    """`_get_and_verify_max_len`'s refusal (or, with the escape set, its warning) when
    `wanted` exceeds `limit`; `advice` says whose limit it is and what to change, `cap` an
    upper bound the fixed value must also respect."""
    if wanted.value <= limit.value:
        return None
    if limit.model_max_length is not None and wanted.value <= limit.model_max_length:
        return None
    model_max = config.text.get("model_max_length")
    how = f" ({'; '.join(limit.notes)})" if limit.notes else ""
    message = (
        f"User-specified max_model_len ({wanted.value}) is greater than the derived "
        f"max_model_len ({limit.key}={limit.shown} or "
        f"model_max_length={model_max} in model's config.json)."
    )
    value = limit.as_int if cap is None else min(limit.as_int, cap)
    fixes = [
        replace(model, wanted, value, f"Set {wanted.written} to {value}"),
        removal(model, wanted, f"Remove `{wanted.written}` (vLLM derives it)"),
    ]
    if allows_long():
        return warning(
            code,
            wanted,
            f"{message} {ESCAPE} is set in this environment, so vLLM only warns: positions "
            f"past {limit.as_int}{how} give NaNs (RoPE) or out-of-bounds errors.",
            VLLM_SOURCE,
            fixes,
        )
    return error(
        code,
        wanted,
        f"{message} {advice.format(limit=f'{limit.as_int}{how}')} To allow overriding this "
        f"maximum, set the env var {ESCAPE}=1 (with extreme caution).",
        VLLM_SOURCE,
        fixes,
    )


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    wanted = given_field(model, "ModelConfig", "max_model_len")
    if config is None or wanted is None or not is_int(wanted.value) or wanted.value < 1:
        return
    limit = served_limit(model, config, at_most=True)
    if limit is not None:
        found = over_limit(CODE, model, wanted, config, limit, "The model's limit is {limit}.")
        if found is not None:
            yield found
