"""A dots3 draft whose `mtp_layer_types` does not list one entry per MTP layer.

## What vLLM does
Every draft config goes through `SpeculativeConfig.hf_config_override` while vLLM loads it.
For a `dots3_note` checkpoint it appends the MTP layers' attention types to `layer_types`:
`mtp_layer_types` (default: `sliding_attention` for each layer) must have exactly
`num_nextn_predict_layers` (default 1) entries, or the start ends with `mtp_layer_types must
have one entry per MTP layer: got 1 for 2 layers` (vllm/config/speculative.py:734-745).

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  model: synthetic/dots3-note-mtp-mismatch
  num_speculative_tokens: 2
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  model: synthetic/dots3-note-mtp
  num_speculative_tokens: 2
```
"""

from __future__ import annotations

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._checkpoint import draft, int_value, served
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC626"
NAME = "dots3-mtp-layer-types"
VLLM_SOURCE = "vllm/config/speculative.py:740"
CATALOGUE = ("spec.dots3_mtp_layers",)


def check(model: ConfigModel) -> Iterator[Finding]:
    proposer = draft(model)
    if served(model) is None or proposer is None or proposer.config is None:
        return
    config = proposer.config
    if config.model_type != "dots3_note" or not config.architectures:
        return
    if config.architectures[0] == "RadioMBartPrefixForCausalLM":
        return  # rewritten into a Parse MTP draft before the dots3 branch
    n_predict = int_value(config.raw.get("num_nextn_predict_layers", 1))
    layer_types = config.raw.get("mtp_layer_types")
    if n_predict is None or not isinstance(layer_types, list) or len(layer_types) == n_predict:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        proposer.where,
        "mtp_layer_types must have one entry per MTP layer: got "
        f"{len(layer_types)} for {n_predict} layers (the draft's config.json lists "
        f"{layer_types} with num_nextn_predict_layers={n_predict}).",
        source=VLLM_SOURCE,
    )
