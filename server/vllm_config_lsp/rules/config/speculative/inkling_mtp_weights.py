"""An Inkling checkpoint used as a speculative draft without MTP layers.

## What vLLM does
Every draft `ModelConfig` passes its config through `SpeculativeConfig.hf_config_override`,
which turns an Inkling checkpoint (`inkling_model` / `inkling_mm_model`) into its MTP head.
It reads the depth from `mtp_config.num_nextn_predict_layers` in config.json and, when that
is missing or below 1, stops the start with `The Inkling checkpoint does not contain MTP
weights` (vllm/config/speculative.py:1087-1092). `method: mtp` without a draft `model` loads
the target checkpoint again, so an Inkling target without `mtp_config` cannot use it;
`hf-overrides` does not reach the draft.

## Example
```yaml
model: synthetic/inkling-no-mtp
speculative-config:
  method: mtp
  num_speculative_tokens: 1
```

## Fixed
```yaml
model: synthetic/inkling
speculative-config:
  method: mtp
  num_speculative_tokens: 1
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._checkpoint import draft_checkpoint
from vllm_config_lsp.rules._model_config import spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC636"
NAME = "inkling-mtp-weights"
VLLM_SOURCE = "vllm/config/speculative.py:1092"
CATALOGUE = ("spec.inkling_mtp",)

INKLING_TYPES = ("inkling_mm_model", "inkling_model")


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or not config.uses_draft:
        return
    found = draft_checkpoint(model, config.method)
    if found is None or found.config.model_type not in INKLING_TYPES:
        return
    mtp = found.config.raw.get("mtp_config") or {}
    depth = mtp.get("num_nextn_predict_layers", 0) if isinstance(mtp, dict) else None
    if not isinstance(depth, int) or depth >= 1:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        found.where,
        "The Inkling checkpoint does not contain MTP weights: the config.json of "
        f"{found.label} has no `mtp_config.num_nextn_predict_layers` of 1 or more. Use a "
        "checkpoint published with its MTP layers, or another speculative method.",
        source=VLLM_SOURCE,
    )
