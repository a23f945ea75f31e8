"""What the model-aware rules (VC600-VC699) share: the served model's config and where the
file names it.

Each of these rules mirrors a check vLLM runs only after it has resolved the model and read
its config.json (`ModelConfig`, `VllmConfig.__post_init__`, `SpeculativeConfig`). They run
only when model_files.py found the checkpoint's files; otherwise VC600 says why once and
every other model rule stays silent.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vllm_config_lsp.rules._engine import Given, field_value, given_field, json_given
from vllm_config_lsp.rules._model_config import NO_DRAFT
from vllm_config_lsp.rules.config.speculative.speculative_tokens_without_model import _effective
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.model_files import (
    CONFIG_JSON,
    Arch,
    HfConfig,
    ModelFolder,
    Resolved,
    context,
    draft_rewrites,
    registry,
)

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


def speculative(model: ConfigModel) -> dict[str, tuple[Any, tuple[int, int], str]] | None:
    """`speculative-config` (with the `spec-*` shorthands folded in) as vLLM receives it."""
    return _effective(model)


def draft_method(model: ConfigModel, draft_config: HfConfig, name: str) -> str | None:
    """The method `SpeculativeConfig` settles on once it has read the draft's config.json:
    an explicit eagle/eagle3/dflash/dspark stays, otherwise the draft's name, architecture
    or model type decides (vllm/config/speculative.py:1427-1480); a plain checkpoint is
    `draft_model`. None when the file asks for something this does not follow, or for a
    method that never loads the draft (ngram, suffix, …: the name alone decides nothing)."""
    config = speculative(model) or {}
    written = config.get("method", (None,))[0]
    if written in NO_DRAFT or written == "[ngram]":
        return None
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
    if draft_config.model_type in draft_rewrites(model.version):
        return None  # vLLM reshapes this draft first (e.g. dots3_note → an MTP head)
    return "draft_model" if written in (None, "draft_model") else None


@dataclass(frozen=True)
class DraftCheckpoint:
    """The config.json `SpeculativeConfig` builds the draft's `ModelConfig` from."""

    config: HfConfig
    #: How a message names it: "the draft `X`", or the target read again.
    label: str
    #: The method vLLM settles on for it (None when this does not follow it).
    method: str | None
    #: True for MTP/DSpark without a draft `model`: the target's folder read again.
    reuses_target: bool
    #: Where the file asks for it: the draft's name, or the `method` that reuses the target.
    where: tuple[int, int]


def draft_checkpoint(model: ConfigModel, method: str | None) -> DraftCheckpoint | None:
    """The named draft, or for MTP/DSpark without one the target's own folder again
    (vllm/config/speculative.py:1251-1270), read as written: `hf-config-path` and
    `hf-overrides` mappings are the target's only (speculative.py:1398-1402). `method` is
    the one the file asks for; the caller has checked that vLLM loads a draft at all."""
    given = speculative(model) or {}
    if given.get("model", (None,))[0] is not None:
        proposer = draft(model)
        if proposer is None or proposer.config is None or proposer.name is None:
            return None
        found = proposer.config
        final = draft_method(model, found, proposer.name)
        label = f"the draft `{found.where.name}`"
        return DraftCheckpoint(found, label, final, False, proposer.where)
    target = context(model).target
    folder = target.folder if checked_release(model) else None
    raw = folder.file(CONFIG_JSON) if folder is not None else None
    if folder is None or raw is None:
        return None
    found = HfConfig(raw, folder, model.version)
    how = f"the target `{folder.name}`, which `method: {method}` loads again as the draft"
    mtp_types = model.catalogue.value_sets.get("mtp_model_types")
    becomes_mtp = found.model_type in draft_rewrites(model.version) or (
        mtp_types is not None and found.model_type in mtp_types
    )
    final = method if method == "dspark" or becomes_mtp else None
    where = given["method"][1] if "method" in given else target.where
    return DraftCheckpoint(found, how, final, True, where)


# --------------------------------------------------------------------------- runner


#: `_SUFFIX_TO_DEFAULTS` (vllm/config/model.py:2340): architecture-name suffix → the runner
#: and convert it defaults to; the first match wins.
SUFFIX_DEFAULTS: tuple[tuple[str, str, str], ...] = (
    ("ForCausalLM", "generate", "none"),
    ("ForConditionalGeneration", "generate", "none"),
    ("ChatModel", "generate", "none"),
    ("LMHeadModel", "generate", "none"),
    ("ForTextEncoding", "pooling", "embed"),
    ("EmbeddingModel", "pooling", "embed"),
    ("ForSequenceClassification", "pooling", "classify"),
    ("ForTokenClassification", "pooling", "classify"),
    ("ForAudioClassification", "pooling", "classify"),
    ("ForImageClassification", "pooling", "classify"),
    ("ForVideoClassification", "pooling", "classify"),
    ("ClassificationModel", "pooling", "classify"),
    ("ForRewardModeling", "pooling", "embed"),
    ("RewardModel", "pooling", "embed"),
    ("Model", "pooling", "embed"),
)
#: `_RUNNER_CONVERTS["pooling"]` (model.py:124): the adapters that make a pooling model.
POOLING_CONVERTS = ("embed", "classify")


def match_defaults(
    arch: str, runner: str | None = None, convert: str | None = None
) -> tuple[str, str, str] | None:
    """`try_match_architecture_defaults` (model.py:2364): (suffix, runner, convert)."""
    for suffix, default_runner, default_convert in SUFFIX_DEFAULTS:
        if (
            (runner is None or runner == default_runner)
            and (convert is None or convert == default_convert)
            and arch.endswith(suffix)
        ):
            return suffix, default_runner, default_convert
    return None


def normalize_arch(
    arch: str, table: dict[str, Arch], runner: str | None = None, convert: str | None = None
) -> str:
    """`_ModelRegistry._normalize_arch` (registry.py:1341): an unregistered name whose
    suffix has a default is read as the registered class with another suffix."""
    if arch in table:
        return arch
    match = match_defaults(arch, runner, convert)
    if match is not None:
        for other, _, _ in SUFFIX_DEFAULTS:
            base = arch.replace(match[0], other)
            if base in table:
                return base
    return arch


@dataclass(frozen=True)
class RunnerResolution:
    """What `ModelConfig.__post_init__` settles before it builds the model config
    (vllm/config/model.py:704-738). `generative`/`pooling` are the registry's answers for
    the architectures as written; `runner`/`convert` are None when they depend on files
    that may exist remotely (a sentence-transformers `modules.json`)."""

    arch: str
    generative: bool
    pooling: bool
    runner: str | None
    convert: str | None
    runner_given: Given | None
    convert_given: Given | None


def _default_runner(
    config: HfConfig, folder: ModelFolder, table: dict[str, Arch], generative: bool, pooling: bool
) -> str | None:
    """`_get_default_runner_type` (model.py:1283)."""
    if folder.has("modules.json"):
        return "pooling"  # a sentence-transformers checkpoint (get_pooling_config)
    if not folder.origin.startswith(("local folder", "model folder")):
        return None  # a cached snapshot may lack a modules.json the repository has
    for arch in config.architectures:
        if arch in table:
            if pooling:
                return "pooling"
            if generative:
                return "generate"
        match = match_defaults(arch)
        if match is not None:
            return match[1]
    return "generate"


def _default_convert(
    config: HfConfig, table: dict[str, Arch], runner: str, generative: bool, pooling: bool
) -> str:
    """`_get_default_convert_type` (model.py:1331)."""
    for arch in config.architectures:
        if arch in table:
            if runner == "generate" and generative:
                return "none"
            if runner == "pooling" and pooling:
                return "none"
        match = match_defaults(arch, runner=runner)
        if match is not None:
            return match[2]
    return "embed" if runner == "pooling" else "none"


def model_kind(config: HfConfig, impl: object = "auto") -> tuple[Arch, bool, bool] | None:
    """The registry class vLLM inspects for `config`'s architectures before it settles the
    runner (`registry.is_text_generation_model`/`is_pooling_model`, registry.py:1367), with
    those two answers; None when the Transformers modeling backend could be chosen instead
    (`model-impl: transformers`, or `auto` with no architecture vLLM registers) or the
    generator could not follow the class's interfaces."""
    if impl not in ("auto", "vllm"):
        return None
    table = registry(config.version)
    archs = config.architectures
    if not archs or (impl == "auto" and all(a not in table for a in archs)):
        return None
    entry = next((table[n] for a in archs if (n := normalize_arch(a, table)) in table), None)
    if entry is None:
        return None
    generative = entry.flag("is_text_generation_model")
    pooling = entry.flag("is_pooling_model")
    if generative is None or pooling is None:
        return None
    return entry, generative, pooling


def registry_flag(model: ConfigModel, arch: str, flag: str) -> bool | None:
    """A flag of a registered architecture (None: unknown, or not registered)."""
    entry = registry(model.version).get(arch)
    return entry.flag(flag) if entry is not None else None


def written_arch(config: HfConfig, arch: str) -> str:
    """The name in config.json that vLLM resolved to the registered `arch` (what
    `ModelConfig.architecture` reports)."""
    table = registry(config.version)
    return next((a for a in config.architectures if normalize_arch(a, table) == arch), arch)


def resolve_runner(model: ConfigModel) -> RunnerResolution | None:
    """The served model's runner and convert types (model.py:704-713), or None when
    `model_kind` cannot tell."""
    config = served(model)
    if config is None:
        return None
    kind = model_kind(config, field_value(model, "ModelConfig", "model_impl"))
    if kind is None:
        return None
    entry, generative, pooling = kind
    table = registry(model.version)
    runner_given = given_field(model, "ModelConfig", "runner")
    convert_given = given_field(model, "ModelConfig", "convert")
    runner = runner_given.value if runner_given is not None else "auto"
    convert = convert_given.value if convert_given is not None else "auto"
    if runner == "auto":
        if convert in ("auto", "none"):
            runner = _default_runner(config, config.where, table, generative, pooling)
        else:
            runner = "pooling"
    if runner is not None and convert == "auto":
        convert = _default_convert(config, table, runner, generative, pooling)
    return RunnerResolution(
        entry.name,
        generative,
        pooling,
        runner,
        convert if runner is not None else None,
        runner_given,
        convert_given,
    )


#: Pooler settings with which a pooling model cannot chunk its prefill.
UNCHUNKED = {"seq_pooling_type": ("MEAN", "CLS"), "tok_pooling_type": ("STEP",)}


def pooling_turns_chunked_off(model: ConfigModel) -> Given | None:
    """The `pooler-config` key that makes vLLM default chunked prefill and prefix
    caching to off (`ModelConfig.is_chunked_prefill_supported`/`is_prefix_caching_supported`,
    vllm/config/model.py:2193-2228 and 2239-2272, read by arg_utils.py:3044-3045): MEAN/CLS
    sequence pooling or STEP token pooling. vLLM reads the file's `pooler-config` whatever
    the runner (only a pooling runner fills in the model's own pooler defaults,
    model.py:776-806): a generative model given one loses chunked prefill too (seed 23's
    fuzz cases). Encoder-only pooling models are off whatever the pooler; attention-free
    and hybrid ones chunk (model.py:2176-2229: their attention type is kept). A model whose
    files are not known is taken as a decoder, as the caution for chunked prefill does.
    None when the file does not decide it."""
    resolved = resolve_runner(model)
    if field_value(model, "ModelConfig", "model_impl") not in ("auto", "vllm"):
        return None
    if resolved is not None and any(
        registry_flag(model, resolved.arch, flag) is not False
        for flag in ("is_attention_free", "is_hybrid")
    ):
        return None
    for key in ("seq_pooling_type", "tok_pooling_type", "pooling_type"):
        found = json_given(model, "pooler-config", key)
        kinds = UNCHUNKED.get(key) or UNCHUNKED["seq_pooling_type"] + UNCHUNKED["tok_pooling_type"]
        if found is not None and found.value in kinds:
            return Given(False, found.where, f"{found.label}: {found.value}", found.pair)
    return None
