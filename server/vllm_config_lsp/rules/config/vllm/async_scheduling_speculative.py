"""Async scheduling with a speculative method or setting that vLLM 0.11.2-0.32.0 refuse.

## What vLLM does
With `async-scheduling: true`, `VllmConfig.__post_init__` of the releases this rule names
(`vllm-config-lsp rules VC800`) refuses a speculative method outside those it schedules
asynchronously ("Currently, async scheduling is only supported with EAGLE/MTP/Draft
Model/NGram GPU/DSpark/DFlash kind of speculative decoding", vllm/config/vllm.py:1571 in
0.32.0), then `disable_padded_drafter_batch: true` ("Async scheduling is not compatible with
disable_padded_drafter_batch=True.", vllm.py:1577). The methods grew release by release, each
release's message naming its own: EAGLE/MTP (`EagleModelTypes`) up to 0.15.1, Draft Model
from 0.16.0, NGram GPU from 0.18.1, DSpark and DFlash as they arrived; `ngram`, `suffix`,
`medusa` and `mlp_speculator` never (`rules/_model_config.ASYNC_METHODS`). 0.33.0 lets Model
Runner V2 run them all and moved the refusal to the V1 runner. The method is the one vLLM
settles on: a `draft_model` whose draft's name says nothing is left to its architecture
(it may become MTP) and is only refused where every outcome is. Only an explicit
`async-scheduling: true` is refused: left unset, vLLM turns async scheduling off with a
warning instead. Up to 0.14.1, pipeline parallelism is refused before (VC801).

## Example
```yaml
# vllm-config: version=0.28.0
model: meta-llama/Llama-3.1-8B-Instruct
async-scheduling: true
speculative-config:
  method: ngram
  num_speculative_tokens: 3
  prompt_lookup_max: 3
```

## Fixed
```yaml
# vllm-config: version=0.28.0
model: meta-llama/Llama-3.1-8B-Instruct
async-scheduling: true
speculative-config:
  method: ngram_gpu
  num_speculative_tokens: 3
  prompt_lookup_max: 3
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._async_scheduling import speculative_refusal
from vllm_config_lsp.rules.config.vllm.async_scheduling_v0_11 import pipeline_refused
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC800"
NAME = "async-scheduling-speculative"
#: Gone from the release the other rules transcribe (0.33.0 decides by model runner): read
#: from 0.32.0, whose method test holds every older release's clauses and more, so each
#: older check is found in its wheel and the method table says what it accepts.
TRANSCRIBES = "0.32.0"
VLLM_SOURCE = "vllm/config/vllm.py:1571"
PADDED_SOURCE = "vllm/config/vllm.py:1577"


def check(model: ConfigModel) -> Iterator[Finding]:
    refusal = speculative_refusal(model)
    if refusal is None or pipeline_refused(model) is not None:
        return
    if refusal.kind == "method":
        yield finding(
            CODE,
            Severity.ERROR,
            refusal.where,
            "Currently, async scheduling is only supported with EAGLE/MTP/Draft Model/NGram "
            "GPU/DSpark/DFlash kind of speculative decoding (method "
            f"`{refusal.method}`). vLLM {model.version} refuses to start: remove "
            "`async-scheduling` (vLLM then runs without it) or use a method it supports.",
            source=VLLM_SOURCE,
        )
        return
    yield finding(
        CODE,
        Severity.ERROR,
        refusal.where,
        "Async scheduling is not compatible with disable_padded_drafter_batch=True. "
        f"vLLM {model.version} refuses to start: remove `disable_padded_drafter_batch` or "
        "`async-scheduling`.",
        source=PADDED_SOURCE,
    )
