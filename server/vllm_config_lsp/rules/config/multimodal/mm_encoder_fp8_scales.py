"""FP8 scale files for the multimodal encoder without `mm-encoder-attn-dtype: fp8`, or
both the load and the save path.

## What vLLM does
`MultiModalConfig._validate_multimodal_config` stops the start of a multimodal model with
`'mm_encoder_fp8_scale_path' and 'mm_encoder_fp8_scale_save_path' require
'mm_encoder_attn_dtype' to be 'fp8'.` when either path is set without FP8 encoder
attention, and with `'mm_encoder_fp8_scale_save_path' cannot be used with
'mm_encoder_fp8_scale_path' (saving requires dynamic scaling).` when both are set
(vllm/config/multimodal.py:525-542). A text-only model ignores these options.

## Example
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
mm-encoder-fp8-scale-path: /data/vit_scales.json
```

## Fixed
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
mm-encoder-attn-dtype: fp8
mm-encoder-fp8-scale-path: /data/vit_scales.json
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import MULTIMODAL_GATE, plain
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC441"
NAME = "mm-encoder-fp8-scales"
VLLM_SOURCE = "vllm/config/multimodal.py:530"
CATALOGUE = ("mm.fp8_scale.dtype", "mm.fp8_scale.both")
BOTH_SOURCE = "vllm/config/multimodal.py:539"


def check(model: ConfigModel) -> Iterator[Finding]:
    load = plain(model, "mm-encoder-fp8-scale-path")
    save = plain(model, "mm-encoder-fp8-scale-save-path")
    paths = [p for p in (load, save) if p is not None and p.value is not None]
    if not paths:
        return
    dtype = plain(model, "mm-encoder-attn-dtype")
    if dtype is None or dtype.value != "fp8":
        yield finding(
            CODE,
            Severity.WARNING,
            paths[0].span,
            "'mm_encoder_fp8_scale_path' and 'mm_encoder_fp8_scale_save_path' require "
            f"'mm_encoder_attn_dtype' to be 'fp8'. Add `mm-encoder-attn-dtype: fp8`. "
            f"{MULTIMODAL_GATE}",
            source=VLLM_SOURCE,
        )
        return
    if len(paths) == 2:
        yield finding(
            CODE,
            Severity.WARNING,
            paths[1].span,
            "'mm_encoder_fp8_scale_save_path' cannot be used with 'mm_encoder_fp8_scale_path' "
            "(saving requires dynamic scaling): keep one of them. "
            f"{MULTIMODAL_GATE}",
            source=BOTH_SOURCE,
        )
