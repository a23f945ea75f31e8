"""`speculative-config.max_model_len` is longer than the draft checkpoint's own context.

## What vLLM does
For a method that loads a draft checkpoint, `SpeculativeConfig.__post_init__` builds the
draft's `ModelConfig` with `max_model_len=speculative max_model_len`
(vllm/config/speculative.py:1406-1430), so the draft's length goes through the same
`_get_and_verify_max_len` as the target's: derived from the *draft's* config.json
(`max_position_embeddings` and its aliases, times a RoPE scaling factor where one applies;
the draft never has `disable-sliding-window`, and `hf-overrides` mappings stay on the
target). With `method: mtp` or `dspark` and no draft `model`, the draft is the target's
own checkpoint read again, so its config.json as written is the limit. A longer
`max_model_len` stops the start with `User-specified max_model_len (8192) is greater than
the derived max_model_len (max_position_embeddings=4096.0 or model_max_length=None in
model's config.json).` (vllm/config/model.py:2680), unless `VLLM_ALLOW_LONG_MAX_MODEL_LEN=1`
is set (then vLLM only warns, and so does this rule).

That refusal is the one users see: the later check this rule is catalogued under,
`speculative_max_model_len=… cannot be larger than draft_max_model_len=…`
(`_maybe_override_draft_max_model_len`, vllm/config/speculative.py:1781), compares the value
with the draft length it has just produced and cannot fail (checked with the real vLLM
0.33.0, with and without the escape). Raising a short draft's `max_position_embeddings` to
the target's length (`_maybe_override_draft_max_position_embeddings`, speculative.py:1807)
happens after the draft's length was derived, so it never lifts this limit. Without
`max_model_len` vLLM takes the smaller of the draft's and the target's lengths by itself.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  model: local/qwen2.5-0.5b-draft-4k
  num_speculative_tokens: 3
  max_model_len: 8192
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  model: local/qwen2.5-0.5b-draft-4k
  num_speculative_tokens: 3
  max_model_len: 4096
```
"""

from __future__ import annotations

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import draft_checkpoint
from vllm_config_lsp.rules._engine import given, is_int, json_given
from vllm_config_lsp.rules._model_config import spec
from vllm_config_lsp.rules.config.model.max_model_len_derived import over_limit
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC632"
NAME = "spec-max-model-len-over-draft"
VLLM_SOURCE = "vllm/config/model.py:2680"
CATALOGUE = ("spec.max_len.draft",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or not config.uses_draft:
        return
    wanted = json_given(model, "speculative-config", "max_model_len")
    if wanted is None or not is_int(wanted.value) or wanted.value < 1:
        return
    found = draft_checkpoint(model, config.method)
    limit = found.config.derived_max_len() if found is not None else None
    if found is None or limit is None:
        return
    target = given(model, "max-model-len")  # the fix must not trip VC470 instead
    cap = target.value if target is not None and is_int(target.value) else None
    finding = over_limit(
        CODE,
        model,
        wanted,
        found.config,
        limit,
        f"That is the config.json of {found.label}; its limit is "
        "{limit}: lower `max_model_len` to it, or remove it and vLLM takes the shorter of "
        "the draft's and the target's lengths.",
        cap,
    )
    if finding is not None:
        yield finding
