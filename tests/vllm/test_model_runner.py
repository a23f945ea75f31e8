"""The runner/convert resolution of `ModelConfig.__post_init__` as the model rules emulate
it (rules/_checkpoint.py), and where they deliberately stay silent.

Recorded verdicts for the same situations: tests/fidelity/cases/models/runner-*.yaml,
convert-*.yaml, spec-draft-*.yaml, spec-method-*.yaml.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support import REPO
from vllm_config_lsp.engine import lint
from vllm_config_lsp.rules._checkpoint import match_defaults, normalize_arch
from vllm_config_lsp.vllm.catalogue import DEFAULT_VERSION
from vllm_config_lsp.vllm.model_files import registry

MODELS = REPO / "tests" / "fixtures" / "models"


@pytest.fixture(autouse=True)
def _model_dirs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VLLM_CONFIG_MODEL_DIRS", str(MODELS))
    monkeypatch.setenv("HF_HUB_CACHE", str(MODELS / "hf-cache"))


def codes(text: str, **kwargs: object) -> list[str]:
    return [f.code for f in lint(text, **kwargs).findings]  # type: ignore[arg-type]


def test_suffix_defaults_follow_vllm_order() -> None:
    assert match_defaults("LlamaForCausalLM") == ("ForCausalLM", "generate", "none")
    assert match_defaults("Qwen2RewardModel") == ("RewardModel", "pooling", "embed")
    assert match_defaults("BertModel") == ("Model", "pooling", "embed")
    assert match_defaults("LlamaForCausalLM", runner="pooling") is None
    assert match_defaults("Foo") is None


def test_unregistered_names_normalise_to_a_registered_suffix() -> None:
    table = registry(DEFAULT_VERSION)
    assert normalize_arch("Qwen2ForCausalLM", table) == "Qwen2ForCausalLM"
    assert normalize_arch("LlamaForConditionalGeneration", table) == "LlamaForCausalLM"
    assert normalize_arch("NoSuchThing", table) == "NoSuchThing"


def test_registry_knows_generation_and_pooling() -> None:
    table = registry(DEFAULT_VERSION)
    assert table["Qwen2ForCausalLM"].flag("is_text_generation_model") is True
    assert table["BertModel"].flag("is_pooling_model") is True
    assert table["BertModel"].flag("is_text_generation_model") is False
    assert table["Gemma3TextModel"].flag("is_pooling_model") is False
    assert table["Qwen2_5_VLForConditionalGeneration"].video_pruning == ("evs",)
    assert table["Qwen3VLForConditionalGeneration"].video_pruning == ("evs", "vidcom2")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("model: BAAI/bge-small-en-v1.5\nrunner: generate\n", True),
        ("model: BAAI/bge-small-en-v1.5\nrunner: pooling\n", False),
        ("model: BAAI/bge-small-en-v1.5\n", False),
        ("model: BAAI/bge-small-en-v1.5\nrunner: generate\nmodel-impl: transformers\n", False),
        ("model: Qwen/Qwen2.5-0.5B-Instruct\nrunner: pooling\nconvert: none\n", True),
        ("model: Qwen/Qwen2.5-0.5B-Instruct\nrunner: pooling\n", False),
        ("model: Qwen/Qwen2.5-0.5B-Instruct\nconvert: embed\n", False),
        ("model: google/embeddinggemma-300m\nrunner: generate\n", True),
        ("model: google/embeddinggemma-300m\n", False),
    ],
)
def test_runner_rule(text: str, expected: bool) -> None:
    assert ("VC619" in codes(text)) is expected


def test_unregistered_architecture_is_left_to_vllm(tmp_path: Path) -> None:
    """`model-impl: auto` tries transformers' classes first for names vLLM does not
    register: nothing is decided then."""
    folder = tmp_path / "custom"
    shutil.copytree(MODELS / "BAAI" / "bge-small-en-v1.5", folder)
    config = json.loads((folder / "config.json").read_text())
    config["architectures"] = ["BertForCausalLM"]
    (folder / "config.json").write_text(json.dumps(config))
    text = f"model: {folder}\nrunner: generate\n"
    assert "VC619" not in codes(text)


def test_cached_snapshot_without_modules_json_leaves_auto_unknown(tmp_path: Path) -> None:
    """A Hub snapshot may lack the repository's modules.json: `runner: auto` is then not
    resolved (the rules that need it stay silent), explicit runners still are."""
    repo = tmp_path / "hub" / "models--org--bge"
    snapshot = repo / "snapshots" / ("a" * 40)
    snapshot.mkdir(parents=True)
    shutil.copy(MODELS / "BAAI" / "bge-small-en-v1.5" / "config.json", snapshot)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("a" * 40)
    mp = pytest.MonkeyPatch()
    with mp.context() as patch:
        patch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
        patch.delenv("VLLM_CONFIG_MODEL_DIRS")
        assert "VC619" not in codes("model: org/bge\n")
        assert "VC619" in codes("model: org/bge\nrunner: generate\n")


def test_pooling_only_draft() -> None:
    text = (
        "model: Qwen/Qwen2.5-7B-Instruct\nspeculative-config:\n"
        "  model: BAAI/bge-small-en-v1.5\n  num_speculative_tokens: 2\n"
    )
    assert "VC619" in codes(text)
    ngram = text.replace("  model:", "  method: ngram\n  model:")
    assert "VC619" not in codes(ngram)


@pytest.mark.parametrize(
    ("method", "expected"),
    [("mtp", True), ("deepseek_mtp", True), ("draft_model", False), ("eagle", False)],
)
def test_mtp_method_with_a_plain_draft(method: str, expected: bool) -> None:
    text = (
        f"model: Qwen/Qwen2.5-7B-Instruct\nspeculative-config:\n  method: {method}\n"
        "  model: Qwen/Qwen2.5-0.5B-Instruct\n  num_speculative_tokens: 1\n"
    )
    assert ("VC621" in codes(text)) is expected


def test_hc_sp_and_replayssm_follow_the_registry() -> None:
    assert "VC622" in codes(
        "model: Qwen/Qwen2.5-7B-Instruct\nenable-hc-sp: true\ntensor-parallel-size: 2\n"
    )
    assert "VC622" not in codes("model: Qwen/Qwen2.5-7B-Instruct\nenable-hc-sp: true\n")
    assert "VC623" in codes("model: state-spaces/mamba-130m-hf\nuse-replayssm: true\n")


def test_rewritten_draft_types_are_not_judged_as_plain_drafts(tmp_path: Path) -> None:
    """vLLM turns a dots3_note draft into an MTP head before any draft-only check (VC614's
    vocabulary comparison would otherwise fire on a config vLLM judges differently)."""
    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "models"
    draft = tmp_path / "dots3-draft"
    shutil.copytree(fixtures / "synthetic" / "dots3-note-mtp", draft)
    config = json.loads((draft / "config.json").read_text())
    config["vocab_size"] = 12345
    (draft / "config.json").write_text(json.dumps(config))
    text = (
        f"model: {fixtures / 'Qwen' / 'Qwen2.5-7B-Instruct'}\n"
        f"speculative-config:\n  model: {draft}\n  num_speculative_tokens: 1\n"
    )
    assert "VC614" not in [f.code for f in lint(text, version="0.33.0").findings]
