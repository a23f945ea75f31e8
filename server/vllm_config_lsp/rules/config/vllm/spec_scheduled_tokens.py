"""Speculative decoding with a per-step token budget below 8192: vLLM cautions.

## What vLLM does
With a speculative config, `VllmConfig._set_max_num_scheduled_tokens` takes
`max-num-scheduled-tokens` (or, unset, `max-num-batched-tokens`) as the tokens one step
may schedule, and below 8192 it cautions "max_num_scheduled_tokens is set to 2048 based on
the speculative decoding settings. This may lead to suboptimal performance. Consider
increasing max_num_batched_tokens to accommodate the additional draft token slots, or
decrease num_speculative_tokens." (vllm/config/vllm.py:2359-2367). The setting applies as
written: information. Without either setting the budget is the platform's default
(not decided here).

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
max-num-batched-tokens: 2048
speculative-config:
  method: ngram
  num_speculative_tokens: 4
  prompt_lookup_max: 4
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
max-num-batched-tokens: 8192
speculative-config:
  method: ngram
  num_speculative_tokens: 4
  prompt_lookup_max: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import given_field, is_int
from vllm_config_lsp.rules._model_config import spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC386"
NAME = "spec-scheduled-tokens"
VLLM_SOURCE = "vllm/config/vllm.py:2360"
CATALOGUE = ("warn.vllm.spec.scheduled_tokens",)
#: Below this many tokens per step vLLM cautions (vllm/config/vllm.py:2359).
ADVISED = 8192


def check(model: ConfigModel) -> Iterator[Finding]:
    if spec(model) is None:
        return
    budget = given_field(model, "SchedulerConfig", "max_num_scheduled_tokens") or given_field(
        model, "SchedulerConfig", "max_num_batched_tokens"
    )
    if budget is None or not is_int(budget.value) or not 0 < budget.value < ADVISED:
        return
    yield finding(
        CODE,
        Severity.INFO,
        budget.where,
        f"max_num_scheduled_tokens is set to {budget.value} based on the speculative "
        "decoding settings. This may lead to suboptimal performance. Consider increasing "
        "max_num_batched_tokens to accommodate the additional draft token slots, or "
        f"decrease num_speculative_tokens (`{budget.label}` below {ADVISED}).",
        source=VLLM_SOURCE,
    )
