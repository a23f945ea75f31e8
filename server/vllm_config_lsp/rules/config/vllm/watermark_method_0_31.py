"""Watermarking with a speculative method that is not model-based, which vLLM 0.30.0 and
0.31.0 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC825`),
`VllmConfig._check_watermarking_unsupported`, run from `__post_init__` when the engine
config is built, refuses `watermark-config` next to a speculative method other than
`dspark`, `eagle`, `eagle3` or `mtp`: "Watermarking supports only autoregressive
model-based speculative decoding." (vllm/config/vllm.py:1322-1326 in 0.31.0). Draft tokens
must be sampled with the target's keyed randomness, which only those drafters do; n-gram,
suffix, draft-model and Medusa drafting cannot. Later releases accept `dflash` too
(VC330). A method left unset is detected from the draft checkpoint, so only a method the
file names is checked, as the method `SpeculativeConfig` settles on (`draft_model` with an
EAGLE-3 draft becomes `eagle3`; a draft whose architecture decides gets no error), and only
once the sampling checks before it pass (`draft_sample_method: probabilistic`,
`rejection_sample_method: standard`, no `parallel_drafting` outside DSpark): those refuse
first, in their own words.

## Example
```yaml
# vllm-config: version=0.31.0
model: meta-llama/Llama-3.1-8B-Instruct
watermark-config: '{"key": 42}'
speculative-config: '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3,
  "draft_sample_method": "probabilistic"}'
```

## Fixed
```yaml
# vllm-config: version=0.31.0
model: meta-llama/Llama-3.1-8B-Instruct
watermark-config: '{"key": 42}'
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given, json_given, removal
from vllm_config_lsp.rules.config.vllm.watermark_speculative import (
    settled_method,
    speculative_anchor,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC825"
NAME = "watermark-method-0-31"
#: Gone from the release the other rules transcribe: read from 0.31.0, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.31.0"
VLLM_SOURCE = "vllm/config/vllm.py:1323"
#: The methods whose drafts these releases can watermark.
METHODS = ("dspark", "eagle", "eagle3", "mtp")


def method_refused(model: ConfigModel, code: str, source: str) -> Iterator[Finding]:
    """The check as 0.30.0-0.32.0 have it (the function was renamed in 0.32.0)."""
    watermark = given(model, "watermark-config")
    if watermark is None or not isinstance(watermark.value, dict):
        return
    if speculative_anchor(model) is None:
        return
    if (
        model.flag("speculative-config") is not None
        and model.json_tree("speculative-config") is None
    ):
        return  # the speculative config itself is refused first
    draft = json_given(model, "speculative-config", "draft_sample_method")
    rejection = json_given(model, "speculative-config", "rejection_sample_method")
    if draft is None or draft.value != "probabilistic":
        return  # refused first: draft tokens must be sampled probabilistically
    if rejection is not None and rejection.value != "standard":
        return  # refused first: rejection sampling must be standard
    method, settled = settled_method(model)
    if method is None or settled is None or settled in METHODS:
        return
    parallel = json_given(model, "speculative-config", "parallel_drafting")
    if parallel is not None and parallel.value is True and settled != "dspark":
        return  # refused first: parallel drafting
    yield error(
        code,
        method,
        "Watermarking supports only autoregressive model-based speculative decoding. "
        f"vLLM {model.version} watermarks drafts of {', '.join(METHODS)} only (got "
        f"`{settled}`): use one of them, or remove `watermark-config`.",
        source,
        [removal(model, watermark, "Remove `watermark-config`")],
    )


def check(model: ConfigModel) -> Iterator[Finding]:
    yield from method_refused(model, CODE, VLLM_SOURCE)
