"""A DSpark draft that breaks the Qwen3-Omni DSpark checkpoint contract.

## What vLLM does
When the served model is Qwen3-Omni (`model_type: qwen3_omni_moe`, or a
`Qwen3OmniMoe…ForConditionalGeneration` architecture) and the speculative method settles
on DSpark, `_validate_qwen3_omni_dspark` (vllm/config/speculative.py:167-390) reads the
draft's config.json against the thinker's `text_config` and refuses the first mismatch:
the draft must be a converted `Qwen3OmniDSparkModel`; its `block_size` must be a positive
integer equal to `num_speculative_tokens`; `target_hidden_size` and `hidden_size` must equal
the thinker's hidden size, and the attention heads, KV heads and head size must match;
`target_layer_ids` must be a non-empty, strictly increasing list of integer thinker layers;
`use_aux_hidden_state` must be true, `markov_rank` a positive integer, `markov_head_type`
`vanilla`, `sample_from_anchor` true and `dspark_bonus_anchor` false; `vocab_size` must be
positive, `draft_vocab_size` no larger than the thinker's vocabulary, the mask/noise token id
inside the draft's vocabulary, and the draft must not define an `mrope_section`. Values are
read as vLLM reads them (`dflash_config`, then `eagle_config`, then the top level); a key
the draft's transformers class could default is judged only for `model_type: qwen3`
drafts, whose defaults are known.

## Example
```yaml
model: synthetic/qwen3-omni-thinker-text
speculative-config:
  model: synthetic/qwen3-omni-dspark
  num_speculative_tokens: 3
```

## Fixed
```yaml
model: synthetic/qwen3-omni-thinker-text
speculative-config:
  model: synthetic/qwen3-omni-dspark
  num_speculative_tokens: 7
```
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._checkpoint import served, speculative
from vllm_config_lsp.rules.config.speculative.dspark_draft_topk import (
    dspark_draft,
    spec_tokens_known,
    topk_problem,
)
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.model_files import HfConfig

CODE = "VC624"
NAME = "qwen3-omni-dspark-draft"
VLLM_SOURCE = "vllm/config/speculative.py:167"
CATALOGUE = (
    "spec.qwen3_omni_dspark.arch",
    "spec.qwen3_omni_dspark.block_size",
    "spec.qwen3_omni_dspark.tokens_eq_block",
    "spec.qwen3_omni_dspark.target_hidden",
    "spec.qwen3_omni_dspark.hidden",
    "spec.qwen3_omni_dspark.attn_positive",
    "spec.qwen3_omni_dspark.attn_match",
    "spec.qwen3_omni_dspark.layer_ids",
    "spec.qwen3_omni_dspark.layer_ids_int",
    "spec.qwen3_omni_dspark.layer_ids_sorted",
    "spec.qwen3_omni_dspark.layer_ids_range",
    "spec.qwen3_omni_dspark.aux_hidden",
    "spec.qwen3_omni_dspark.markov_rank",
    "spec.qwen3_omni_dspark.markov_head",
    "spec.qwen3_omni_dspark.anchor",
    "spec.qwen3_omni_dspark.input_vocab",
    "spec.qwen3_omni_dspark.draft_vocab",
    "spec.qwen3_omni_dspark.mask_token",
    "spec.qwen3_omni_dspark.mrope",
)

OMNI_ARCH = "Qwen3OmniDSparkModel"
OMNI_TARGET_ARCHS = (
    "Qwen3OmniMoeForConditionalGeneration",
    "Qwen3OmniMoeThinkerForConditionalGeneration",
)
#: transformers' `Qwen3Config()` values for the keys the check reads (checked against
#: transformers 5.20, the oracle's).
QWEN3_DEFAULTS: dict[str, Any] = {
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "num_key_value_heads": 32,
    "head_dim": 128,
    "vocab_size": 151936,
}
#: `Qwen3OmniMoeTextConfig()` values (it has no `head_dim` default: vLLM derives one).
OMNI_TEXT_DEFAULTS: dict[str, Any] = {
    "hidden_size": 2048,
    "num_attention_heads": 28,
    "num_key_value_heads": 4,
    "num_hidden_layers": 28,
    "vocab_size": 3584,
}


class _Unknown(Exception):
    """A value vLLM reads that this cannot know (a class default or a null)."""


def _attr(raw: Mapping[str, Any], name: str, defaults: Mapping[str, Any]) -> Any:
    """`getattr(config, name, None)` on the transformers config built from `raw`."""
    if name in raw:
        if raw[name] is None and name in defaults:
            raise _Unknown(name)  # the class may replace an explicit null
        return raw[name]
    return defaults.get(name)


def _nested(raw: Mapping[str, Any], section: str, name: str) -> Any:
    sub = raw.get(section)
    return sub.get(name) if isinstance(sub, Mapping) else None


def _dspark_value(raw: Mapping[str, Any], name: str) -> Any:
    """`_get_qwen3_dspark_value`: dflash_config, then eagle_config, then the top level."""
    value = _nested(raw, "dflash_config", name)
    if value is None:
        value = _nested(raw, "eagle_config", name)
    if value is None:
        value = raw.get(name)
    return value


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _head_dim(raw: Mapping[str, Any], defaults: Mapping[str, Any]) -> Any:
    """`_get_attention_head_dim`."""
    head_dim = _attr(raw, "head_dim", defaults)
    if head_dim is not None:
        return head_dim
    hidden = _attr(raw, "hidden_size", defaults)
    heads = _attr(raw, "num_attention_heads", defaults)
    if isinstance(hidden, int) and isinstance(heads, int) and heads > 0 and hidden % heads == 0:
        return hidden // heads
    return None


def _kv_heads(raw: Mapping[str, Any], defaults: Mapping[str, Any]) -> Any:
    if "num_key_value_heads" in raw or "num_key_value_heads" in defaults:
        return _attr(raw, "num_key_value_heads", defaults)
    return _attr(raw, "num_attention_heads", defaults)


def is_omni_target(config: HfConfig) -> bool:
    """`_is_qwen3_omni_target`."""
    return config.model_type == "qwen3_omni_moe" or any(
        a in OMNI_TARGET_ARCHS for a in config.architectures
    )


def first_problem(target: HfConfig, draft: HfConfig, tokens: int) -> str | None:
    """The first message `_validate_qwen3_omni_dspark` raises (None: the draft passes).
    Raises _Unknown where a value depends on a transformers default not modelled."""
    raw = draft.raw
    if OMNI_ARCH not in draft.architectures:
        return (
            "Qwen3-Omni DSpark requires a standalone draft checkpoint with "
            f"architectures=['{OMNI_ARCH}']; generic Qwen3DSparkModel checkpoints must be "
            f"converted first (the draft is {draft.architectures})."
        )
    if draft.model_type != "qwen3":
        raise _Unknown("model_type")
    defaults = QWEN3_DEFAULTS
    block_size = _dspark_value(raw, "block_size")
    if block_size is None:
        block_size = _dspark_value(raw, "dspark_block_size")
    if not _positive_int(block_size):
        return "Qwen3-Omni DSpark requires a positive integer block_size in the draft config."
    if tokens != block_size:
        return (
            "Qwen3-Omni DSpark requires num_speculative_tokens to match the trained "
            f"block_size ({block_size}); got {tokens}."
        )
    thinker = target.raw.get("thinker_config")
    text = thinker.get("text_config") if isinstance(thinker, Mapping) else None
    if target.model_type != "qwen3_omni_moe" or not isinstance(text, Mapping):
        raise _Unknown("text_config")
    hidden = _attr(text, "hidden_size", OMNI_TEXT_DEFAULTS)
    draft_target_hidden = raw.get("target_hidden_size")
    if draft_target_hidden != hidden:
        return (
            "Qwen3-Omni DSpark draft target_hidden_size must match the target text hidden "
            f"size ({hidden}); got {draft_target_hidden}."
        )
    draft_hidden = _attr(raw, "hidden_size", defaults)
    if draft_hidden != hidden:
        return (
            "Qwen3-Omni DSpark draft hidden_size must match the target thinker hidden size "
            f"({hidden}); got {draft_hidden}."
        )
    targets = {
        "num_attention_heads": _attr(text, "num_attention_heads", OMNI_TEXT_DEFAULTS),
        "num_key_value_heads": _kv_heads(text, OMNI_TEXT_DEFAULTS),
        "head_dim": _head_dim(text, OMNI_TEXT_DEFAULTS),
    }
    drafts = {
        "num_attention_heads": _attr(raw, "num_attention_heads", defaults),
        "num_key_value_heads": _kv_heads(raw, defaults),
        "head_dim": _head_dim(raw, defaults),
    }
    for name, value in targets.items():
        if not _positive_int(value):
            return (
                f"Qwen3-Omni DSpark requires a positive integer {name} in the target thinker "
                f"text_config; got {value}."
            )
        if drafts[name] != value:
            return (
                f"Qwen3-Omni DSpark draft {name} must match the target thinker value "
                f"({value}); got {drafts[name]}."
            )
    layer_ids = _nested(raw, "dflash_config", "target_layer_ids")
    if layer_ids is None:
        layer_ids = raw.get("dspark_target_layer_ids")
    if layer_ids is None:
        layer_ids = raw.get("target_layer_ids")
    if not isinstance(layer_ids, list) or not layer_ids:
        return "Qwen3-Omni DSpark requires a non-empty target_layer_ids list in the draft config."
    if any(not isinstance(i, int) or isinstance(i, bool) for i in layer_ids):
        return "Qwen3-Omni DSpark target_layer_ids must contain only integers."
    if layer_ids != sorted(set(layer_ids)):
        return "Qwen3-Omni DSpark target_layer_ids must be unique and strictly increasing."
    layers = _attr(text, "num_hidden_layers", OMNI_TEXT_DEFAULTS)
    if not isinstance(layers, int):
        raise _Unknown("num_hidden_layers")
    if layer_ids[0] < 0 or layer_ids[-1] >= layers:
        return (
            "Qwen3-Omni DSpark target_layer_ids must be zero-based text-layer indices in "
            f"[0, {layers - 1}]; got {layer_ids}."
        )
    if _dspark_value(raw, "use_aux_hidden_state") is not True:
        return (
            "Qwen3-Omni DSpark requires use_aux_hidden_state=true because Omni conditioning "
            "is supplied through thinker hidden states."
        )
    if not _positive_int(raw.get("markov_rank")):
        return "Qwen3-Omni DSpark requires a positive integer markov_rank in the draft config."
    head_type = raw.get("markov_head_type")
    if head_type != "vanilla":
        return (
            f"Qwen3-Omni DSpark currently requires markov_head_type='vanilla'; got {head_type!r}."
        )
    if raw.get("sample_from_anchor", True) is not True:
        return "Qwen3-Omni DSpark requires sample_from_anchor=true and dspark_bonus_anchor=false."
    if raw.get("dspark_bonus_anchor", False) is not False:
        return "Qwen3-Omni DSpark requires sample_from_anchor=true and dspark_bonus_anchor=false."
    target_vocab = _attr(text, "vocab_size", OMNI_TEXT_DEFAULTS)
    input_vocab = _attr(raw, "vocab_size", defaults)
    if not _positive_int(input_vocab):
        return f"Qwen3-Omni DSpark input vocab_size must be a positive integer; got {input_vocab}."
    output_vocab = raw.get("draft_vocab_size")
    if output_vocab is None:
        output_vocab = input_vocab
    if not isinstance(target_vocab, (int, float)) or isinstance(target_vocab, bool):
        raise _Unknown("vocab_size")
    if not _positive_int(output_vocab) or not output_vocab <= target_vocab:
        return (
            "Qwen3-Omni DSpark draft_vocab_size must be a positive integer no larger than "
            f"target vocab_size ({target_vocab}); got {output_vocab}."
        )
    noise = _nested(raw, "dflash_config", "mask_token_id")
    for name in ("mask_token_id", "dspark_noise_token_id", "pard_token", "ptd_token_id"):
        if noise is None:
            noise = raw.get(name)
        if noise is not None:
            break
    if not isinstance(noise, int) or isinstance(noise, bool) or not 0 <= noise < input_vocab:
        return (
            "Qwen3-Omni DSpark requires a valid mask/noise token id within the draft input "
            f"vocabulary [0, {input_vocab - 1}]."
        )
    rope = (raw.get("rope_parameters"), raw.get("rope_scaling"))
    if raw.get("mrope_section") is not None or any(
        isinstance(r, Mapping) and "mrope_section" in r for r in rope
    ):
        return (
            "Qwen3-Omni DSpark draft checkpoints must use logical 1-D RoPE and must not "
            "define mrope_section."
        )
    return None


def check(model: ConfigModel) -> Iterator[Finding]:
    target = served(model)
    proposer = dspark_draft(model)
    if target is None or proposer is None or proposer.config is None:
        return
    if not is_omni_target(target) or topk_problem(model, proposer) is not None:
        return  # the top-k checks run first (and VC625 reports them)
    tokens = spec_tokens_known(model, proposer)
    assert tokens is not None
    try:
        message = first_problem(target, proposer.config, tokens)
    except _Unknown:
        return
    if message is None:
        return
    where = proposer.where
    written = (speculative(model) or {}).get("num_speculative_tokens")
    if "num_speculative_tokens to match" in message and written is not None:
        where = written[1]
    yield finding(CODE, Severity.ERROR, where, message, source=VLLM_SOURCE)
