"""A quant/norm fusion pass turned on while `eliminate_noops` is turned off.

## What vLLM does
`PassConfig.__post_init__` warns "Fusion enabled but reshape elimination disabled.
RMSNorm/SiluMul + quant (fp8) fusion might not work" (and the same for attention + quant,
allreduce + RMSNorm and RMSNorm + padding; vllm/config/compilation.py:243-258): the fusion
passes match patterns that exist only after no-op reshapes are eliminated, so with
`eliminate_noops: false` they usually find nothing to fuse.

## Example
```yaml
model: Qwen/Qwen3-8B-FP8
compilation-config:
  pass_config:
    eliminate_noops: false
    fuse_norm_quant: true
```

## Fixed
```yaml
model: Qwen/Qwen3-8B-FP8
compilation-config:
  pass_config:
    fuse_norm_quant: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import json_given, json_true, warning
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC375"
NAME = "fusion-without-noop-elimination"
VLLM_SOURCE = "vllm/config/compilation.py:241"
CATALOGUE = tuple(
    f"warn.compilation.eliminate_noops.{name}"
    for name in ("fuse_norm_quant", "fuse_attn_quant", "fuse_allreduce_rms", "fuse_act_padding")
)
#: The fusion each pass names in vLLM's message.
FUSIONS = {
    "fuse_norm_quant": "RMSNorm/SiluMul + quant (fp8)",
    "fuse_act_quant": "RMSNorm/SiluMul + quant (fp8)",
    "fuse_attn_quant": "Attention + quant (fp8)",
    "fuse_allreduce_rms": "Allreduce + rms norm + quant (fp8)",
    "fuse_act_padding": "RMSNorm + padding",
}


def check(model: ConfigModel) -> Iterator[Finding]:
    noops = json_given(model, "compilation-config", "pass_config", "eliminate_noops")
    if noops is None or noops.value is not False:
        return
    for name, fusion in FUSIONS.items():
        fused = json_true(model, "compilation-config", "pass_config", name)
        if fused is None:
            continue
        yield warning(
            CODE,
            fused,
            f"Fusion enabled but reshape elimination disabled. {fusion} fusion might not "
            f"work: `{fused.label}` needs `eliminate_noops` (remove `eliminate_noops: "
            "false`).",
            VLLM_SOURCE,
            related=[noops],
        )
