"""Speculative decoding with a plain draft model, which older vLLM releases refuse.

## What vLLM does
Up to the releases this rule names (`vllm-config-lsp rules VC471`), vLLM has no proposer
for a separate small draft model. `EngineArgs._check_feature_supported`, the first check of
`create_engine_config`, refuses `method: draft_model` as written: "Draft model speculative
decoding is not supported yet. Please consider using other speculative decoding methods
such as ngram, medusa, eagle, or mtp." (vllm/engine/arg_utils.py:1812-1818 in 0.11.2).
Without that method, `SpeculativeConfig.__post_init__` reads the draft's config.json (for
`method: mtp` without a `model`, the target's own, rewritten into its MTP head where vLLM
knows one) and settles the method: an EAGLE head by its name (`eagle-`, `eagle3`), a
Medusa, MLP-speculator or MTP checkpoint by its `model_type`. Any other checkpoint is a
plain draft model and the start stops: "Speculative decoding with draft model is not
supported yet. Please consider using other speculative decoding methods such as ngram,
medusa, eagle, or mtp." (vllm/config/speculative.py:378-385 in 0.11.2). The draft's
tensor-parallel size and context length are checked after that, so VC463 and VC470 stay
silent where this rule speaks. The rule reads the draft's config.json when the file's
folder, the model folders or the Hugging Face cache hold it, and says nothing otherwise.

## Example
```yaml
# vllm-config: version=0.11.2
model: Qwen/Qwen2.5-7B-Instruct
speculative-config: '{"model": "Qwen/Qwen2.5-0.5B-Instruct", "num_speculative_tokens": 5}'
```

## Fixed
```yaml
# vllm-config: version=0.11.2
model: Qwen/Qwen2.5-7B-Instruct
speculative-config: '{"method": "ngram", "num_speculative_tokens": 5, "prompt_lookup_max": 5}'
```
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import Span, spec
from vllm_config_lsp.rules.releases import has_check
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.model_files import CONFIG_JSON, context

CODE = "VC471"
NAME = "spec-draft-model-unsupported"
#: The checks are gone from the release the other rules transcribe: this one is read from
#: 0.11.2, and runs for the releases whose wheel has the same checks.
TRANSCRIBES = "0.11.2"
#: `method: draft_model` as written (`_check_feature_supported`).
VLLM_SOURCE = "vllm/engine/arg_utils.py:1814"
#: A draft that `__post_init__` settles as a plain draft model.
DETECTED_SOURCE = "vllm/config/speculative.py:380"

ADVICE = (
    "Please consider using other speculative decoding methods such as ngram, medusa, eagle, or mtp."
)
#: The methods `__post_init__` re-detects from the draft's config.json: the others keep
#: their own proposer (eagle, eagle3), or load no draft (ngram, suffix).
DETECTED = ("draft_model", "medusa", "mlp_speculator", "mtp")
#: Model types the detection keeps (`medusa`, `mlp_speculator`, the MTP heads: the
#: release's `mtp_model_types` are added), and the types and architectures that
#: `SpeculativeConfig.hf_config_override` rewrites into an MTP head first, in any release
#: that has the check (0.11.2 to 0.14.1): such a draft is no plain draft model.
KEPT_TYPES = frozenset(
    {
        "medusa",
        "mlp_speculator",
        "longcat_flash_mtp",
        "deepseek_v3",
        "deepseek_v32",
        "pangu_ultra_moe",
        "ernie4_5_moe",
        "qwen3_next",
        "longcat_flash",
        "exaone_moe",
    }
)
KEPT_ARCHITECTURES = frozenset(
    {"MiMoForCausalLM", "Glm4MoeForCausalLM", "MistralLarge3ForCausalLM"}
)


@dataclass(frozen=True)
class Refusal:
    """The check the release stops at, and where the file asks for it."""

    source: str
    where: Span
    #: The draft as a message names it, with its model type (None for `draft_model`).
    draft: str | None = None
    #: True for `method: mtp` without a draft: the target read again.
    of_target: bool = False


def refusal(model: ConfigModel) -> Refusal | None:
    """Why the model's release refuses the file's draft model, when it does: the
    speculative checks that come after it in vLLM are then never reached."""
    config = spec(model)
    if config is None:
        return None
    if config.given.get("method", (None,))[0] == "draft_model":
        if has_check(model.catalogue, CODE, VLLM_SOURCE):
            return Refusal(VLLM_SOURCE, config.span("method"))
        return None
    if config.method not in DETECTED or not has_check(model.catalogue, CODE, DETECTED_SOURCE):
        return None
    mtp_of_target = config.method == "mtp" and config.has("num_speculative_tokens")
    found = _draft_config(model, config.has("model"), mtp_of_target)
    if found is None:
        return None
    name, raw = found
    model_type = raw.get("model_type")
    architectures = raw.get("architectures") or [None]
    mtp_types = model.catalogue.value_sets.get("mtp_model_types")
    if mtp_types is None or not isinstance(model_type, str) or not isinstance(architectures, list):
        return None
    lower = name.lower()
    if "eagle-" in lower or "eagle3" in lower or architectures[0] in KEPT_ARCHITECTURES:
        return None  # an EAGLE head by its name, or a checkpoint rewritten into an MTP head
    if model_type in KEPT_TYPES or model_type in mtp_types:
        return None
    where = config.span("model") if config.has("model") else config.span("method")
    label = f"`{name}` (model type `{model_type}`)"
    return Refusal(DETECTED_SOURCE, where, label, not config.has("model"))


def _draft_config(
    model: ConfigModel, named: bool, mtp_of_target: bool
) -> tuple[str, dict[str, Any]] | None:
    """The draft's name and config.json: the named draft, or for MTP without one the
    target's folder read again (without the target's `hf-overrides`). None when vLLM
    loads no draft (it stops earlier without a `model`) or its config.json is not here."""
    found = context(model)
    if named:
        draft = found.draft
        if draft is None or draft.config is None or draft.name is None:
            return None
        return draft.name, draft.config.raw
    target = found.target
    raw = target.folder.file(CONFIG_JSON) if target.folder is not None else None
    if not mtp_of_target or target.name is None or not isinstance(raw, dict):
        return None
    return target.name, raw


def check(model: ConfigModel) -> Iterator[Finding]:
    found = refusal(model)
    if found is None:
        return
    if found.draft is None:
        message = (
            f"Draft model speculative decoding is not supported yet. {ADVICE} vLLM "
            f"{model.version} has no proposer for `method: draft_model`: choose a method "
            "with its own draft (an EAGLE or Medusa head, the model's MTP layers) or "
            "`ngram`, which needs none."
        )
    elif found.of_target:
        message = (
            f"Speculative decoding with draft model is not supported yet. {ADVICE} "
            f"`method: mtp` loads {found.draft} again as the draft, and vLLM "
            f"{model.version} knows no MTP layers for that model type, so it is a plain "
            "draft model: serve a model with MTP layers, or choose another method."
        )
    else:
        message = (
            f"Speculative decoding with draft model is not supported yet. {ADVICE} vLLM "
            f"{model.version} reads {found.draft} as a plain draft model, not an EAGLE, "
            "Medusa, MLP-speculator or MTP head: use such a head as the draft, or "
            "`method: ngram` without one."
        )
    yield finding(CODE, Severity.ERROR, found.where, message, source=found.source)
