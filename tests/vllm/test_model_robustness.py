"""Model folders are input too: a config.json with odd types, missing or nested keys must
never crash a model-aware rule, for the served model or for the speculative draft.

Hypothesis writes a target and a draft config.json from the keys the rules read (with
wrong types mixed in) and lints configs that switch on every model-aware family: TP/PP/DCP,
lengths, LoRA, quantization, NIXL, watermarking and each speculative method.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from vllm_config_lsp.engine import lint

ODD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 70000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([10**4000, -(10**30), 2**63]),  # past `float()`, past MAX_NUMBER
    st.text(max_size=8),
    st.lists(st.integers(0, 4), max_size=3),
    st.dictionaries(st.sampled_from(["type", "rope_type", "factor", "x"]), st.integers(0, 9)),
)
ARCHS = st.sampled_from(
    [
        "LlamaForCausalLM",
        "Qwen2ForCausalLM",
        "LlamaForCausalLMEagle3",
        "DFlash2DraftModel",
        "InklingForCausalLM",
        "HYV4ForCausalLM",
        "DeepseekV3ForCausalLM",
        "Qwen2_5_VLForConditionalGeneration",
        "BertModel",
        "NoSuchModel",
    ]
)
MODEL_TYPES = st.sampled_from(
    ["llama", "qwen2", "hy_v4", "inkling_model", "deepseek_v3", "gemma2", "qwen2_5_vl", "eagle"]
)
KEYS: dict[str, st.SearchStrategy[Any]] = {
    "num_attention_heads": st.one_of(st.integers(0, 64), ODD),
    "num_key_value_heads": st.one_of(st.integers(0, 16), ODD),
    "num_hidden_layers": st.one_of(st.integers(0, 80), ODD),
    "hidden_size": st.one_of(st.integers(0, 8192), ODD),
    "vocab_size": st.one_of(st.integers(0, 200000), ODD),
    "max_position_embeddings": st.one_of(st.integers(0, 200000), ODD),
    "sliding_window": ODD,
    "rope_scaling": ODD,
    "head_dtype": st.one_of(st.sampled_from(["float32", "model", "fp33", "bfloat16"]), ODD),
    "mtp_config": ODD,
    "enable_lm_head_fp32": ODD,
    "kv_lora_rank": ODD,
    "n_predict": ODD,
    "quantization_config": ODD,
    "torch_dtype": st.one_of(st.sampled_from(["bfloat16", "float16", "float32"]), ODD),
    "auto_map": ODD,
    "num_experts": ODD,
}


@st.composite
def config_json(draw: st.DrawFn) -> dict[str, Any]:
    config: dict[str, Any] = {
        "architectures": draw(st.one_of(st.lists(ARCHS, min_size=1, max_size=2), ODD)),
        "model_type": draw(st.one_of(MODEL_TYPES, ODD)),
    }
    for key in draw(st.lists(st.sampled_from(sorted(KEYS)), unique=True, max_size=10)):
        config[key] = draw(KEYS[key])
    if draw(st.booleans()):
        config["text_config"] = dict(config)
    return config


SETTINGS = st.lists(
    st.sampled_from(
        [
            "tensor-parallel-size: 8",
            "pipeline-parallel-size: 3",
            "decode-context-parallel-size: 8",
            "max-model-len: 65536",
            "enable-lora: true",
            "dtype: float32",
            "quantization: awq",
            "enable-expert-parallel: true",
            "kv-transfer-config: {kv_connector: NixlConnector, kv_role: kv_both}",
            "watermark-config: {key: 42, algorithm: dual_key_gumbel}",
        ]
    ),
    unique=True,
    max_size=5,
)
SPECULATIVE = st.sampled_from(
    [
        "",
        "speculative-config: {model: DRAFT, num_speculative_tokens: 3, max_model_len: 8192}",
        "speculative-config: {method: eagle3, model: DRAFT, num_speculative_tokens: 2, "
        "draft_lm_head_quantization: fp8}",
        "speculative-config: {method: dflash, model: DRAFT, num_speculative_tokens: 7, "
        "draft_sample_method: probabilistic}",
        "speculative-config: {method: mtp, num_speculative_tokens: 1, max_model_len: 9000, "
        "draft_lm_head_quantization: fp8}",
        "speculative-config: {method: dspark, num_speculative_tokens: 1}",
        "speculative-config: {method: eagle, model: DRAFT, num_speculative_tokens: 2}",
    ]
)


@given(config_json(), config_json(), SETTINGS, SPECULATIVE)
def test_model_rules_never_crash_on_odd_config_json(
    target: dict[str, Any], draft: dict[str, Any], settings: list[str], speculative: str
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for name, content in (("target", target), ("draft", draft)):
            (root / name).mkdir()
            (root / name / "config.json").write_text(json.dumps(content), encoding="utf-8")
        lines = [f"model: {root / 'target'}", *settings]
        if speculative:
            lines.append(speculative.replace("DRAFT", str(root / "draft")))
        text = "\n".join(lines) + "\n"
        result = lint(text)
        crashed = [f.message for f in result.findings if f.message.startswith("internal error")]
        assert not crashed, (crashed, text, target, draft)
        for found in result.findings:
            assert 0 <= found.start <= found.end <= len(text), found
