"""A ROCm-only fusion pass turned on for an NVIDIA GPU: vLLM turns it off again.

## What vLLM does
`PassConfig.__post_init__` (vllm/config/compilation.py:270-293) checks four fusion passes
against `current_platform.is_rocm()` and, on any other platform, warns and sets them back
to false: `fuse_act_padding` ("Padding fusion enabled but the current platform is not
ROCm. The fusion will be disabled."), `fuse_mla_dual_rms_norm` ("MLA dual RMS norm fusion
requires ROCm/AITER."), `fuse_rope_kvcache` ("KV cache fusion currently only enabled on
ROCm.") and `fuse_qk_norm_rope_kvcache` ("QK-Norm+RoPE+KVCache fusion requires ROCm with
AITER."). The server starts without the fusion the file asks for. On an NVIDIA target
this is a warning (an AMD target keeps them); when nothing says what the file runs on, it
is information: the pass runs only on ROCm, and any other platform turns it off with that
warning.

## Example
```yaml
# vllm-config: gpu=H100
model: Qwen/Qwen3-8B
compilation-config:
  pass_config:
    fuse_rope_kvcache: true
```

## Fixed
```yaml
# vllm-config: gpu=H100
model: Qwen/Qwen3-8B
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import json_true, warning
from vllm_config_lsp.rules._platform import on_target, vendor
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC714"
NAME = "rocm-only-fusion"
VLLM_SOURCE = "vllm/config/compilation.py:271"
#: The pass → vLLM's words and its line (vllm/config/compilation.py).
PASSES = {
    "fuse_act_padding": (
        "Padding fusion enabled but the current platform is not ROCm. The fusion will be disabled.",
        271,
    ),
    "fuse_mla_dual_rms_norm": (
        "MLA dual RMS norm fusion requires ROCm/AITER. The fusion will be disabled.",
        277,
    ),
    "fuse_rope_kvcache": (
        "KV cache fusion currently only enabled on ROCm. The fusion will be disabled.",
        283,
    ),
    "fuse_qk_norm_rope_kvcache": (
        "QK-Norm+RoPE+KVCache fusion requires ROCm with AITER. The fusion will be disabled.",
        289,
    ),
}
CATALOGUE = tuple(f"warn.compilation.{name}.platform" for name in PASSES)


def check(model: ConfigModel) -> Iterator[Finding]:
    platform = vendor(model)
    if platform == "amd":
        return
    for name, (words, line) in PASSES.items():
        fused = json_true(model, "compilation-config", "pass_config", name)
        if fused is None:
            continue
        if platform is None:  # the target is not known: most deployments are not ROCm
            yield finding(
                CODE,
                Severity.INFO,
                fused.where,
                f"`{fused.label}` runs only on ROCm: on any other platform vLLM says "
                f'"{words}" and starts without it.',
                source=f"vllm/config/compilation.py:{line}",
            )
            continue
        yield warning(
            CODE,
            fused,
            f"{words}{on_target(model)}",
            f"vllm/config/compilation.py:{line}",
        )
