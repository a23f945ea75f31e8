"""Watermarking with a DFlash2 or LiLiCorr candidate-head draft.

## What vLLM does
Past the speculative prerequisites of VC330 (probabilistic draft sampling, standard
rejection sampling, a supported method), `VllmConfig._check_supports_watermarking` looks at
the DFlash draft's architectures and refuses `DFlash2DraftModel`, `DFlash2BeamDraftModel`
and `LiLiCorrDraftModel`: `Watermarking does not support DFlash2 and LiLiCorr candidate-head
drafters yet.` (vllm/config/vllm.py:769-784 and 1387-1391). Their candidate heads propose
tokens outside the keyed sampling the watermark relies on. vLLM's EAGLEConfig wrapper keeps
these names as they are, so the draft's config.json decides. Reported even while VC330
still has something to say: vLLM refuses either way.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
watermark-config:
  key: 42
  algorithm: dual_key_gumbel
speculative-config:
  method: dflash
  model: synthetic/dflash2-draft
  num_speculative_tokens: 7
  draft_sample_method: probabilistic
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
watermark-config:
  key: 42
  algorithm: dual_key_gumbel
speculative-config:
  method: eagle3
  model: local/eagle3-qwen2.5-7b
  num_speculative_tokens: 3
  draft_sample_method: probabilistic
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._checkpoint import draft_checkpoint
from vllm_config_lsp.rules._engine import given
from vllm_config_lsp.rules._model_config import spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC638"
NAME = "watermark-candidate-draft"
VLLM_SOURCE = "vllm/config/vllm.py:1389"
CATALOGUE = ("vllm.wm.candidate",)

CANDIDATE_HEADS = ("DFlash2DraftModel", "DFlash2BeamDraftModel", "LiLiCorrDraftModel")


def check(model: ConfigModel) -> Iterator[Finding]:
    watermark = given(model, "watermark-config")
    config = spec(model)
    if watermark is None or not isinstance(watermark.value, dict) or config is None:
        return
    if not config.uses_draft or not config.has("model"):
        return
    found = draft_checkpoint(model, config.method)
    if found is None or found.method != "dflash":
        return
    heads = [a for a in found.config.architectures if a in CANDIDATE_HEADS]
    if not heads:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        found.where,
        "Watermarking does not support DFlash2 and LiLiCorr candidate-head drafters yet. "
        f"{found.label[0].upper()}{found.label[1:]} is a {heads[0]}. Use another draft "
        "(EAGLE-3, MTP, or a DFlash draft without a candidate head), or serve without "
        "watermarking.",
        source=VLLM_SOURCE,
    )
