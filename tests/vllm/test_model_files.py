"""Finding a model's files offline and deriving what vLLM derives from them.

Fixtures: hand-written config.json files under tests/fixtures/models/<org>/<name>/ (a
Llama-style dense Qwen2, a Qwen3 MoE, two vision-language models, an AWQ checkpoint,
Gemma 2, DeepSeek-V2 with MLA, Whisper, Mamba, …) and the same kind of files in a fake
Hugging Face cache, tests/fixtures/models/hf-cache/models--Qwen--Qwen3-30B-A3B/ with
`refs/main` and a `refs/v0` branch whose snapshot has a shorter context.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import yaml
from support import REPO, apply_fix
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import Severity
from vllm_config_lsp.vllm.model_files import describe_model, find_folder, read_json

MODELS = REPO / "tests" / "fixtures" / "models"
HF_CACHE = MODELS / "hf-cache"


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("VLLM_CONFIG_MODEL_DIRS", "HF_HOME", "VLLM_ALLOW_LONG_MAX_MODEL_LEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HF_HUB_CACHE", str(HF_CACHE))


def codes(text: str, **kwargs: object) -> list[str]:
    return [f.code for f in lint(text, **kwargs).findings]  # type: ignore[arg-type]


def test_local_folder_relative_to_the_config_file(tmp_path: Path) -> None:
    config = tmp_path / "serve" / "qwen.vllm.yaml"
    config.parent.mkdir()
    shutil.copytree(MODELS / "Qwen" / "Qwen2.5-7B-Instruct", tmp_path / "ckpt")
    text = "model: ../ckpt\ntensor-parallel-size: 8\n"
    assert "VC601" in codes(text, path=config)
    assert "VC601" not in codes(text)  # without the file's path the folder is unknown


def test_absolute_folder_and_model_dirs() -> None:
    folder = MODELS / "Qwen" / "Qwen2.5-7B-Instruct"
    assert "VC601" in codes(f"model: {folder}\ntensor-parallel-size: 8\n")
    text = "model: Qwen/Qwen2.5-7B-Instruct\ntensor-parallel-size: 8\n"
    assert "VC601" in codes(text, model_dirs=[MODELS])


def test_environment_model_dirs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VLLM_CONFIG_MODEL_DIRS", os.pathsep.join(["/nonexistent", str(MODELS)]))
    assert "VC601" in codes("model: Qwen/Qwen2.5-7B-Instruct\ntensor-parallel-size: 8\n")


def test_hub_cache_follows_refs_main_and_revisions() -> None:
    main = find_folder("Qwen/Qwen3-30B-A3B")
    assert not isinstance(main, str) and main.folder.name.startswith("0123456789")
    branch = find_folder("Qwen/Qwen3-30B-A3B", revision="v0")
    assert not isinstance(branch, str) and branch.folder.name.startswith("fedcba")
    commit = find_folder("Qwen/Qwen3-30B-A3B", revision="fedcba9876543210fedcba9876543210fedcba98")
    assert not isinstance(commit, str) and commit.folder == branch.folder
    missing = find_folder("Qwen/Qwen3-30B-A3B", revision="no-such-branch")
    assert isinstance(missing, str) and "no-such-branch" in missing
    over = "model: Qwen/Qwen3-30B-A3B\nmax-model-len: 40960\n"
    assert "VC604" not in codes(over)
    assert "VC604" in codes(over + "revision: v0\n")


def test_hf_home_is_honoured(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("HF_HUB_CACHE")
    shutil.copytree(HF_CACHE, tmp_path / "hub")
    monkeypatch.setenv("HF_HOME", str(tmp_path))
    assert "VC601" in codes("model: Qwen/Qwen3-30B-A3B\ntensor-parallel-size: 3\n")


def test_unresolved_model_notes_once_and_never_errors() -> None:
    result = lint("model: ./checkpoints/missing\ntensor-parallel-size: 8\n").findings
    notes = [f for f in result if f.code == "VC600"]
    assert len(notes) == 1 and notes[0].severity == Severity.INFO
    assert not [f for f in result if f.code.startswith("VC6") and f.code != "VC600"]
    # an uncached Hub id the registry does not carry stays silent unless model folders are
    # configured
    hub = "model: example-org/not-in-the-registry-7B\n"
    assert "VC600" not in codes(hub)
    assert "VC600" in codes(hub, model_dirs=[MODELS])


def test_files_are_cached_until_they_change(tmp_path: Path) -> None:
    target = tmp_path / "m" / "config.json"
    target.parent.mkdir()
    target.write_text(json.dumps({"num_attention_heads": 28}))
    first = read_json(target)
    assert read_json(target) is first
    target.write_text(json.dumps({"num_attention_heads": 32, "x": 1}))
    assert read_json(target) == {"num_attention_heads": 32, "x": 1}


def test_hf_overrides_change_the_checked_config() -> None:
    text = "model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 65536\n"
    assert "VC604" in codes(text, model_dirs=[MODELS])
    overridden = text + "hf-overrides:\n  max_position_embeddings: 65536\n"
    assert "VC604" not in codes(overridden, model_dirs=[MODELS])


def test_long_max_model_len_escape_turns_the_error_into_a_warning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 65536\n"
    monkeypatch.setenv("VLLM_ALLOW_LONG_MAX_MODEL_LEN", "1")
    [found] = [f for f in lint(text, model_dirs=[MODELS]).findings if f.code == "VC604"]
    assert found.severity == Severity.WARNING


DRAFT_4K = "Qwen/Qwen2.5-7B-Instruct", "local/qwen2.5-0.5b-draft-4k"


@pytest.mark.parametrize(
    "spelling",
    [
        "speculative-config:\n  model: {d}\n  num_speculative_tokens: 3\n  max_model_len: 8192\n",
        'speculative-config: \'{{"model": "{d}", "num_speculative_tokens": 3, '
        '"max_model_len": 8192}}\'\n',
        "speculative-config.model: {d}\nspeculative-config.num_speculative_tokens: 3\n"
        "speculative-config.max_model_len: 8192\n",
    ],
)
def test_draft_max_len_fixes_work_in_every_spelling(spelling: str) -> None:
    target, draft = DRAFT_4K
    text = f"# serve\nmodel: {target}  # target\n" + spelling.format(d=draft)
    [found] = [f for f in lint(text, model_dirs=[MODELS]).findings if f.code == "VC632"]
    assert found.severity == Severity.ERROR and "its limit is 4096" in found.message
    assert text[found.start : found.end] == "8192"
    assert [fix.title.split(" ")[0] for fix in found.fixes] == ["Set", "Remove"]
    for fix in found.fixes:
        fixed = apply_fix(text, fix)
        assert yaml.safe_load(fixed)["model"] == target
        assert fixed.startswith(f"# serve\nmodel: {target}  # target\n")
        assert not [f for f in lint(fixed, model_dirs=[MODELS]).findings if f.severity == 3]


def test_draft_max_len_escape_and_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    target, draft = DRAFT_4K
    text = (
        f"model: {target}\nspeculative-config:\n  model: {draft}\n"
        "  num_speculative_tokens: 3\n  max_model_len: {n}\n"
    )
    assert "VC632" not in codes(text.format(n=4096), model_dirs=[MODELS])
    # ngram never loads the draft, so its length is not checked
    ngram = text.format(n=8192).replace("num_speculative", "method: ngram\n  num_speculative")
    assert "VC632" not in codes(ngram, model_dirs=[MODELS])
    # the fix respects a shorter target length, so VC470 does not replace VC632
    shorter = text.format(n=8192) + "max-model-len: 2048\n"
    [over] = [f for f in lint(shorter, model_dirs=[MODELS]).findings if f.code == "VC632"]
    fixed = apply_fix(shorter, over.fixes[0])
    assert "max_model_len: 2048" in fixed
    assert not [f for f in lint(fixed, model_dirs=[MODELS]).findings if f.severity == 3]
    monkeypatch.setenv("VLLM_ALLOW_LONG_MAX_MODEL_LEN", "1")
    found = [f for f in lint(text.format(n=8192), model_dirs=[MODELS]).findings]
    assert [f.severity for f in found if f.code == "VC632"] == [Severity.WARNING]


def test_inkling_lora_escape_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "model: synthetic/inkling\nenable-lora: true\n"
    assert "VC637" in codes(text, model_dirs=[MODELS])
    monkeypatch.setenv("INKLING_MULTIMEM_AR", "1")
    assert "VC637" in codes(text, model_dirs=[MODELS])
    monkeypatch.setenv("INKLING_MULTIMEM_AR", "0")
    assert "VC637" not in codes(text, model_dirs=[MODELS])


def test_uncached_tokenizer_leaves_an_upper_bound(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A cached snapshot with only config.json: vLLM (online) would read the tokenizer's
    model_max_length, which can only lower the limit, so values above it are still errors."""
    repo = tmp_path / "models--BAAI--bge-only-config"
    snapshot = repo / "snapshots" / ("a" * 40)
    snapshot.mkdir(parents=True)
    shutil.copy(MODELS / "BAAI" / "bge-small-en-v1.5" / "config.json", snapshot)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("a" * 40)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    over = lint("model: BAAI/bge-only-config\nmax-model-len: 1024\n").findings
    [found] = [f for f in over if f.code == "VC604"]
    assert "may lower it further" in found.message
    assert "VC604" not in codes("model: BAAI/bge-only-config\nmax-model-len: 300\n")
    # with the sentence-transformers marker the replacement length is unknown: silent
    shutil.copy(MODELS / "BAAI" / "bge-small-en-v1.5" / "modules.json", snapshot)
    assert "VC604" not in codes("model: BAAI/bge-only-config\nmax-model-len: 1024\n")


def test_draft_architecture_only_for_methods_that_load_the_draft() -> None:
    """The draft's name says EAGLE-3 (so vLLM would rename it), but ngram never loads it."""
    text = (
        "model: Qwen/Qwen2.5-7B-Instruct\nspeculative-config:\n"
        "  method: {method}\n  model: local/qwen2-arch-eagle3-draft\n  num_speculative_tokens: 2\n"
    )
    assert "VC634" in codes(text.format(method="draft_model"), model_dirs=[MODELS])
    assert "VC634" not in codes(text.format(method="ngram"), model_dirs=[MODELS])


def test_tp_fixes_offer_dividing_sizes() -> None:
    text = "model: Qwen/Qwen2.5-7B-Instruct\ntensor-parallel-size: 8\n"
    [found] = [f for f in lint(text, model_dirs=[MODELS]).findings if f.code == "VC601"]
    assert [fix.title for fix in found.fixes] == [
        "Set tensor-parallel-size to 4",
        "Set tensor-parallel-size to 7",
        "Set tensor-parallel-size to 14",
    ]


def test_hover_describes_the_model() -> None:
    text = "model: Qwen/Qwen3-30B-A3B\n"
    hover = describe_model(text)
    assert hover is not None
    for fact in ("Qwen3MoeForCausalLM", "48", "32 / 4", "128 (8 per token)", "40960", "151936"):
        assert fact in hover, fact
    assert "Hugging Face cache" in hover
    assert "≈ 30.5B" in hover
    local = describe_model("model: deepseek-ai/DeepSeek-V2-Lite-Chat\n", model_dirs=[MODELS])
    assert local is not None and "MLA" in local and "model folder" in local
    quantized = describe_model("model: Qwen/Qwen2.5-7B-Instruct-AWQ\n", model_dirs=[MODELS])
    assert quantized is not None and "quantization: `awq`" in quantized
    missing = describe_model("model: ./nowhere\n")
    assert missing is not None and "not found" in missing
    assert describe_model("max-num-seqs: 8\n") is None


def test_hover_describes_the_draft_named_by_the_shorthand() -> None:
    text = "model: Qwen/Qwen2.5-7B-Instruct\nspec-model: local/qwen2.5-0.5b-draft-4k\n"
    draft = describe_model(text, model_dirs=[MODELS], draft=True)
    assert draft is not None and "4096" in draft and "draft-4k" in draft
    assert describe_model("model: Qwen/Qwen2.5-7B-Instruct\n", draft=True) is None


def test_multimodal_text_config_is_read() -> None:
    text = "model: google/paligemma-3b-mix-224\ntensor-parallel-size: 3\n"
    [found] = [f for f in lint(text, model_dirs=[MODELS]).findings if f.code == "VC601"]
    assert "(8)" in found.message


def test_registry_table_is_current() -> None:
    """schemas/vllm-0.33.0.models.json is generated (tools/generate_model_registry.py)."""
    data = json.loads((REPO / "schemas" / "vllm-0.33.0.models.json").read_text())
    archs = data["architectures"]
    assert archs["LlamaForCausalLM"]["supports_pp"] is True
    assert archs["WhisperForConditionalGeneration"]["supports_pp"] is False
    assert archs["Qwen2_5_VLForConditionalGeneration"]["supports_multimodal"] is True
    assert archs["MambaForCausalLM"]["supports_lora"] is False


def test_modelopt_hf_quant_config_is_the_quantization_config(tmp_path: Path) -> None:
    """ModelOpt 0.29.0 and before keep the quantization in `hf_quant_config.json`, which vLLM
    reads as config.json's quantization_config where config.json has none
    (vllm/transformers_utils/config.py:951-962 in 0.33.0): the same from a local folder and
    from the registry (nvidia/Llama-3.1-70B-Instruct-FP8, whose config.json and
    hf_quant_config.json are ai-dynamo/aiconfigurator
    aic-core/src/aiconfigurator_core/model_configs/nvidia--Llama-3.1-70B-Instruct-FP8_*.json
    @ 095f58a51c4ca8e61b66ec108d86f223f8d559ce)."""
    name = "nvidia/Llama-3.1-70B-Instruct-FP8"
    entry = json.loads((REPO / "schemas" / "models" / "registry.json").read_text())["models"][name]
    assert "quantization_config" not in entry["config"]
    registry = describe_model(f"model: {name}\n")
    assert registry is not None and "quantization: `modelopt`" in registry
    assert "hf_quant_config.json from ai-dynamo/aiconfigurator" in registry
    folder = tmp_path / "ckpt"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(entry["config"]))
    bare = describe_model(f"model: {folder}\n")
    assert bare is not None and "quantization:" not in bare
    (folder / "hf_quant_config.json").write_text(json.dumps(entry["hf_quant_config"]))
    local = describe_model(f"model: {folder}\n")
    assert local is not None and "quantization: `modelopt`" in local
    # config.json's own quantization_config wins, as in vLLM
    written = {**entry["config"], "quantization_config": {"quant_method": "fp8"}}
    (folder / "config.json").write_text(json.dumps(written))
    own = describe_model(f"model: {folder}\n")
    assert own is not None and "quantization: `fp8`" in own
