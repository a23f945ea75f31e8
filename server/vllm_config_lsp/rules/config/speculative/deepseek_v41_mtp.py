"""Classic MTP speculative decoding on a DeepSeek V4.1 model.

## What vLLM does
DeepSeek V4.1 checkpoints ship DSpark stages under `mtp.*`, not the classic MTP head.
When the draft settles on MTP (`method: mtp` with the target's own layers, or a DeepSeek
draft vLLM rewrites into `deepseek_mtp`) and the served model's config.json says
`model_type: deepseek_v41`, `SpeculativeConfig.__post_init__` refuses: `DeepSeek V4.1 has
no classic-MTP draft … Use speculative method 'dspark' instead of 'mtp'.`
(vllm/config/speculative.py:1470-1484).

## Example
```yaml
model: synthetic/deepseek-v41
speculative-config:
  method: mtp
  num_speculative_tokens: 1
```

## Fixed
```yaml
model: synthetic/deepseek-v41
speculative-config:
  method: dspark
  num_speculative_tokens: 1
```
"""

from __future__ import annotations

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._checkpoint import DSPARK_ARCHS, served, speculative
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.model_files import HfConfig, context

CODE = "VC627"
NAME = "deepseek-v41-mtp"
VLLM_SOURCE = "vllm/config/speculative.py:1479"
CATALOGUE = ("spec.dsv41_no_mtp",)

#: Model types `hf_config_override` turns into `deepseek_mtp` (speculative.py:746-775).
DEEPSEEK_MTP_SOURCES = frozenset(
    {"deepseek_v3", "deepseek_v32", "glm_moe_dsa", "deepseek_v4", "deepseek_v41", "deepseek_mtp"}
)


def _named_otherwise(name: str, config: HfConfig) -> bool:
    """The draft's name or architecture makes vLLM pick EAGLE/DFlash/DSpark first."""
    lower = name.lower()
    if any(mark in lower for mark in ("eagle-", "eagle3", "dflash", "dspark")):
        return True
    archs = config.architectures
    return "MuseGlimmerAssistantModel" in archs or any(a in archs for a in DSPARK_ARCHS)


def check(model: ConfigModel) -> Iterator[Finding]:
    target, config = served(model), speculative(model)
    if target is None or not config or target.model_type != "deepseek_v41":
        return
    method, method_where, _ = config.get("method", (None, None, ""))
    if method in ("eagle", "eagle3", "dflash", "dspark"):
        return
    if config.get("num_speculative_tokens", (None,))[0] is None:
        return
    ctx = context(model)
    if "model" in config or ctx.draft is not None:
        proposer = ctx.draft
        if proposer is None or proposer.config is None or proposer.name is None:
            return
        draft_config, name = proposer.config, proposer.name
        where: tuple[int, int] | None = proposer.where
        if not draft_config.architectures or draft_config.model_type not in DEEPSEEK_MTP_SOURCES:
            return
    else:
        mtp_types = model.catalogue.value_sets.get("mtp_model_types")
        if method is None or mtp_types is None or method not in mtp_types:
            return  # without a model only MTP spellings (and dspark) use the target's layers
        draft_config, name, where = target, ctx.target.name or "", method_where
    if _named_otherwise(name, draft_config) or where is None:
        return
    yield finding(
        CODE,
        Severity.ERROR,
        where,
        "DeepSeek V4.1 has no classic-MTP draft: its checkpoints ship DSpark stages under "
        "mtp.* (main_proj/markov_head/confidence_head) and carry no "
        "e_proj/h_proj/enorm/hnorm/hc_head weights. Use speculative method 'dspark' instead "
        "of 'mtp'.",
        source=VLLM_SOURCE,
    )
