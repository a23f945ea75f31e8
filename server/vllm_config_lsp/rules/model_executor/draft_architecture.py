"""An EAGLE, EAGLE-3 or DFlash draft whose architecture vLLM has no draft class for.

## What vLLM does
For `method: eagle`, `eagle3` or `dflash` (written, or detected from a draft name with
`eagle-`, `eagle3` or `dflash`), `SpeculativeConfig` wraps the draft's config.json in
`EAGLEConfig`, which renames each architecture (vllm/transformers_utils/configs/eagle.py:
44-75): `LlamaForCausalLM` becomes `Eagle3LlamaForCausalLM` for EAGLE-3, `EagleLlamaForCausalLM`
for EAGLE, `DFlashLlamaForCausalLM` for DFlash (names that already carry the prefix or
suffix stay). It then looks the new names up in the model registry (`update_arch_`,
vllm/config/speculative.py:1882) and, when none is there, stops the start with `Model
architectures ['Eagle3Qwen2ForCausalLM'] are not supported for now. Supported
architectures: …` (vllm/model_executor/models/registry.py:1250). So an EAGLE-3 head must be
trained on one of the families vLLM ships a head class for (Llama, Qwen3, DeepSeek, …);
a plain small model cannot be used as an EAGLE draft. Drafts whose config.json is already
an EAGLE or speculators config, or that bring remote code (`auto_map`), are left alone.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  method: eagle3
  model: local/qwen2.5-0.5b-draft-4k
  num_speculative_tokens: 2
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  method: eagle3
  model: local/eagle3-qwen2.5-7b
  num_speculative_tokens: 2
```
"""

from __future__ import annotations

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._checkpoint import draft_checkpoint
from vllm_config_lsp.rules._model_config import spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.model_files import registry

CODE = "VC634"
NAME = "draft-architecture"
VLLM_SOURCE = "vllm/model_executor/models/registry.py:1250"

#: `EAGLEConfig`'s renaming: the prefix it adds, and the names it leaves as they are.
RENAMES = {
    "eagle": ("Eagle", ("Eagle",), ()),
    "eagle3": ("Eagle3", ("Eagle3",), ("Eagle3",)),
    "dflash": ("DFlash", ("DFlash",), ("DFlash", "LiLiCorrDraftModel")),
}
NAMES = {"eagle": "EAGLE", "eagle3": "EAGLE-3", "dflash": "DFlash"}


def renamed(method: str, arch: str) -> str:
    prefix, starts, ends = RENAMES[method]
    return arch if arch.startswith(starts) or arch.endswith(ends) else prefix + arch


def head_for(method: str, arch: str) -> bool:
    """A registered draft class made for `method` (EAGLE's prefix also matches EAGLE-3's)."""
    if method == "eagle" and arch.startswith("Eagle3"):
        return False
    return renamed(method, arch) == arch


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or not config.uses_draft or not config.has("model"):
        return
    found = draft_checkpoint(model, config.method)
    if found is None or found.method not in RENAMES or not found.config.architectures:
        return
    raw = found.config.raw
    if found.config.model_type in ("eagle", "speculators") or "speculators_config" in raw:
        return  # already an EAGLE/speculators config: vLLM does not rename it
    if "auto_map" in raw:
        return  # remote code may provide the class
    table = registry(model.version)
    written = found.config.architectures
    archs = [renamed(found.method, a) for a in written]
    if any(a in table for a in archs):
        return
    heads = sorted(
        n for n, e in table.items() if "speculative" in e.roles and head_for(found.method, n)
    )
    kind = NAMES[found.method]
    yield finding(
        CODE,
        Severity.ERROR,
        found.where,
        f"Model architectures {archs} are not supported for now. For `method: {found.method}` "
        f"vLLM renames the draft's {', '.join(written)} to {', '.join(archs)}, and has no "
        f"such class. Its {kind} draft classes are: {', '.join(heads)}; the draft's "
        "config.json must name one of them (or a name vLLM renames to one).",
        source=VLLM_SOURCE,
    )
