"""What the model-aware rules (VC600-VC699) share: the served model's config and where the
file names it.

Each of these rules mirrors a check vLLM runs only after it has resolved the model and read
its config.json (`ModelConfig`, `VllmConfig.__post_init__`, `SpeculativeConfig`). They run
only when model_files.py found the checkpoint's files; otherwise VC600 says why once and
every other model rule stays silent.
"""

from __future__ import annotations

from typing import Any

from ..config_model import ConfigModel
from ..model_files import HfConfig, Resolved, context, registry
from ._engine import Given
from .speculative_tokens_without_model import _effective

#: Draft architectures that make `SpeculativeConfig` pick DSpark/DFlash by itself
#: (vllm/config/speculative.py:1434-1470).
DSPARK_ARCHS = (
    "Qwen3DSparkModel",
    "Qwen3OmniDSparkModel",
    "MuseSparkDSparkModel",
    "Gemma4DSparkModel",
)


def checked_release(model: ConfigModel) -> bool:
    """Model rules mirror one release's code: they run for releases whose model registry
    was generated (schemas/vllm-<version>.models.json), and stay silent for the others."""
    return bool(registry(model.version))


def served(model: ConfigModel) -> HfConfig | None:
    """The served model's config.json (after `hf-overrides`), when it could be read."""
    return context(model).target.config if checked_release(model) else None


def draft(model: ConfigModel) -> Resolved | None:
    return context(model).draft if checked_release(model) else None


def model_given(model: ConfigModel) -> Given:
    """Where the file names the model: findings about the checkpoint itself land there."""
    target = context(model).target
    return Given(target.name, target.where, "model")


def int_value(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def pretty_float(value: float) -> str:
    """How Python prints vLLM's float-valued lengths (`32768.0`)."""
    return repr(float(value))


def speculative(model: ConfigModel) -> dict[str, tuple[Any, tuple[int, int], str]] | None:
    """`speculative-config` (with the `spec-*` shorthands folded in) as vLLM receives it."""
    return _effective(model)


def draft_method(model: ConfigModel, draft_config: HfConfig, name: str) -> str | None:
    """The method `SpeculativeConfig` settles on once it has read the draft's config.json:
    an explicit eagle/eagle3/dflash/dspark stays, otherwise the draft's name, architecture
    or model type decides (vllm/config/speculative.py:1427-1480); a plain checkpoint is
    `draft_model`. None when the file asks for something this does not follow."""
    config = speculative(model) or {}
    written = config.get("method", (None,))[0]
    if written in ("eagle", "eagle3", "dflash", "dspark"):
        return str(written)
    lower, archs = name.lower(), draft_config.architectures
    mtp_types = model.catalogue.value_sets.get("mtp_model_types")
    if "eagle-" in lower:
        return "eagle"
    if "eagle3" in lower:
        return "eagle3"
    if "dflash" in lower or "MuseGlimmerAssistantModel" in archs:
        return "dflash"
    if "dspark" in lower or any(a in archs for a in DSPARK_ARCHS):
        return "dspark"
    if "DSparkDraftModel" in archs and draft_config.model_type == "qwen3":
        return "dspark"
    if mtp_types is None or draft_config.model_type in mtp_types:
        return "mtp" if mtp_types is not None else None
    return "draft_model" if written in (None, "draft_model") else None
