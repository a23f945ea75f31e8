"""`max-num-batched-tokens` leaves no room for the speculative lookahead slots.

## What vLLM does
With speculative decoding, `VllmConfig._set_max_num_scheduled_tokens`
(vllm/config/vllm.py:2341-2377) refuses `max-num-batched-tokens` at or below
`num_lookahead_tokens`, the KV slots the drafter writes past the scheduled tokens: no
target token could be scheduled. That is `num_speculative_tokens` for EAGLE, EAGLE3, MTP,
DSpark and draft-model methods, and one more for DFlash (vllm/config/vllm.py:626-652);
n-gram and suffix decoding need none. A method left to auto-detection is not checked.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
max-num-seqs: 2
max-model-len: 4
max-num-batched-tokens: 4
speculative-config:
  method: eagle
  model: yuhuili/EAGLE-LLaMA3.1-Instruct-8B
  num_speculative_tokens: 4
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
max-num-seqs: 2
max-model-len: 4
max-num-batched-tokens: 8
speculative-config:
  method: eagle
  model: yuhuili/EAGLE-LLaMA3.1-Instruct-8B
  num_speculative_tokens: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given_field, is_int, replace, speculative_tokens
from vllm_config_lsp.rules.config.vllm.watermark_speculative import written_method
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC340"
NAME = "spec-lookahead-slots"
VLLM_SOURCE = "vllm/config/vllm.py:2372"
CATALOGUE = ("vllm.spec.lookahead",)

#: Methods whose lookahead is num_speculative_tokens (use_eagle() or uses_draft_model()).
ONE_PER_TOKEN = ("eagle", "eagle3", "mtp", "dspark", "draft_model")


def check(model: ConfigModel) -> Iterator[Finding]:
    method = written_method(model)
    tokens = speculative_tokens(model)
    batched = given_field(model, "SchedulerConfig", "max_num_batched_tokens")
    if method is None or tokens is None or batched is None or not is_int(batched.value):
        return
    if method.value == "dflash":
        lookahead = tokens.value + 1
    elif method.value in ONE_PER_TOKEN:
        lookahead = tokens.value
    else:
        return
    if batched.value > lookahead:
        return
    yield error(
        CODE,
        batched,
        "VllmConfig does not have enough slots to schedule a token and support the "
        f"speculative decoding settings. Got max_num_batched_tokens={batched.value!r} and "
        f"num_lookahead_tokens={lookahead}. Raise `{batched.label}` above {lookahead}.",
        VLLM_SOURCE,
        [replace(model, batched, str(lookahead + 1), f"Use {lookahead + 1}")],
    )
