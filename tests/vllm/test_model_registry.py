"""schemas/models/registry.json is what tools/build_model_registry.py makes, offline, of the
committed tools/model_registry_sources.json, and every entry cites where it was read."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import REPO, cli

TOOL = REPO / "tools" / "build_model_registry.py"
sys.path.insert(0, str(TOOL.parent))
from build_model_registry import corpus_ids  # noqa: E402


def test_registry_is_up_to_date_offline() -> None:
    done = subprocess.run(
        [sys.executable, str(TOOL), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_entry_cites_its_sources() -> None:
    registry = json.loads((REPO / "schemas" / "models" / "registry.json").read_text())
    for model_id, entry in registry["models"].items():
        assert set(entry["source"]) == {"repository", "path", "commit"}, model_id
        assert len(entry["source"]["commit"]) == 40, model_id
        for key in ("total_size", "hf_quant_config"):
            if key in entry:
                assert set(entry[f"{key}_source"]) == {"repository", "path", "commit"}, model_id
                assert len(entry[f"{key}_source"]["commit"]) == 40, model_id
    sources = json.loads((REPO / "tools" / "model_registry_sources.json").read_text())
    assert all(isinstance(why, str) and why for why in sources["unsourced"].values())


def test_coverage_of_the_corpus_lists_each_miss() -> None:
    """`--coverage` counts the corpus's literal Hub ids the registry has (and how many of
    them carry a sourced total_size) and lists the others (with why, where the sources file
    says it)."""
    done = subprocess.run(
        [sys.executable, str(TOOL), "--coverage", str(REPO / "tests" / "corpus")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    head, *misses = done.stdout.splitlines()
    hit, total = (int(n) for n in head.split(" literal")[0].split(" of "))
    assert total - hit == len(misses) > 0
    sized = int(head.split(", ")[-1].split(" of them")[0])
    assert head.endswith(" of them with a sourced total_size") and 0 <= sized <= hit
    models = json.loads((REPO / "schemas" / "models" / "registry.json").read_text())["models"]
    assert not [line for line in misses if line.split()[2] in models]


def _recipes_mirror(root: Path, recipes: dict[str, str]) -> str:
    """A bare git snapshot of vllm-project/recipes holding `recipes` (path → YAML text), laid
    out as the search tool's `fetch` lays it out; its commit."""
    work = root / "work"
    for path, text in recipes.items():
        (work / path).parent.mkdir(parents=True, exist_ok=True)
        (work / path).write_text(text)
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t"}
    env |= {"GIT_COMMITTER_EMAIL": "t@t", "PATH": os.environ["PATH"], "HOME": str(root)}
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "recipes"]):
        subprocess.run(["git", "-C", str(work), *args], check=True, env=env)
    bare = root / "mirror" / "vllm-project+recipes" / "repo"
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(bare)], check=True, env=env)
    done = subprocess.run(["git", "-C", str(work), "rev-parse", "HEAD"], capture_output=True)
    return done.stdout.decode().strip()


def test_rank_counts_the_corpus_deployments_and_the_recipes(tmp_path: Path) -> None:
    """`--rank` lists the most-named ids: each corpus mention counts one, and so does each
    recipe that names the id (as its model or a variant's, once per recipe)."""
    corpus = corpus_ids(REPO / "tests" / "corpus")
    once = sorted(name for name, n in corpus.items() if n == 1)[-1]
    commit = _recipes_mirror(
        tmp_path,
        {
            "models/meta-llama/Llama-3.1-8B-Instruct.yaml": (
                "model: {model_id: meta-llama/Llama-3.1-8B-Instruct}\n"
                "variants: {fp8: {model_id: meta-llama/Llama-3.1-8B-Instruct}}\n"
            ),
            "models/x/once.yaml": f"model:\n  model_id: {once}\n",
            "models/x/README.md": f"model_id: {once}\n",
        },
    )
    sources = tmp_path / "sources.json"
    shutil.copy(REPO / "tools" / "model_registry_sources.json", sources)
    mirror = tmp_path / "mirror"
    rank = [
        "--sources",
        str(sources),
        "--mirror",
        str(mirror),
        "--rank",
        str(REPO / "tests" / "corpus"),
    ]
    done = subprocess.run(
        [sys.executable, str(TOOL), *rank], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    top = json.loads(sources.read_text())["top"]
    assert commit in top["counted"]
    ids = top["ids"]
    assert len(ids) == 60
    scores = [entry["deployments"] + entry["recipes"] for entry in ids]
    assert scores == sorted(scores, reverse=True)
    counts = {entry["id"]: (entry["deployments"], entry["recipes"]) for entry in ids}
    top_count = max(corpus.values())
    assert counts["meta-llama/Llama-3.1-8B-Instruct"] == (top_count, 1)
    assert counts[once] == (1, 1)
    assert done.stdout.startswith(
        f"{sum(e['id'] in json.loads(sources.read_text())['models'] for e in ids)} of the 60"
    )


def test_the_committed_top_list_is_the_corpus_count_and_its_coverage_is_reported() -> None:
    """The committed `top` list (the ids most named in the corpus and vLLM's recipes) counts
    the corpus as the corpus is now, and `--top` says offline how many of them the registry
    has and names each miss."""
    sources = json.loads((REPO / "tools" / "model_registry_sources.json").read_text())
    corpus = corpus_ids(REPO / "tests" / "corpus")
    ids = sources["top"]["ids"]
    assert len(ids) == 60
    assert all(entry["deployments"] == corpus.get(entry["id"], 0) for entry in ids)
    done = subprocess.run(
        [sys.executable, str(TOOL), "--top"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    head, *misses = done.stdout.splitlines()
    hit = int(head.split(" of the ")[0])
    assert hit + len(misses) == 60
    models = json.loads((REPO / "schemas" / "models" / "registry.json").read_text())["models"]
    assert hit == sum(entry["id"] in models for entry in ids)
    assert not [line for line in misses if line.split()[2] in models]


#: Registry entries and what their config.json decides: (model, heads, positions).
FROM_THE_REGISTRY = [
    # TimmyOVO/deepseek-ocr.rs crates/infer-deepseek/tests/fixtures/deepseek_ocr1_config.json
    # @ 14694379: 10 heads, 8192 positions.
    ("deepseek-ai/DeepSeek-OCR", 10, 8192),
    # alibaba/InferSim hf_configs/qwen3-next-80B-A3B_config.json @ f2293dab: 16 heads,
    # 262144 positions.
    ("Qwen/Qwen3-Next-80B-A3B-Instruct", 16, 262144),
]


@pytest.mark.parametrize(("model", "heads", "positions"), FROM_THE_REGISTRY)
def test_an_entry_decides_the_model_checks_without_local_files(
    tmp_path: Path, model: str, heads: int, positions: int
) -> None:
    """With an empty Hugging Face cache the registry's facts decide VC601 (a
    tensor-parallel size that does not divide the heads) and VC604 (a max-model-len past the
    model's positions), and a config within both gets neither."""
    bad_tp = next(n for n in range(2, heads + 2) if heads % n)
    good_tp = next(n for n in range(2, heads + 1) if heads % n == 0)
    (tmp_path / "bad.vllm.yaml").write_text(
        f"model: {model}\ntensor-parallel-size: {bad_tp}\nmax-model-len: {positions * 2}\n"
    )
    (tmp_path / "good.vllm.yaml").write_text(
        f"model: {model}\ntensor-parallel-size: {good_tp}\nmax-model-len: {positions}\n"
    )
    drop = ("HF_HOME", "VIRTUAL_ENV", "VLLM_CONFIG_MODEL_DIRS", "VLLM_CONFIG_MODEL_REGISTRY")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["HF_HUB_CACHE"] = str(tmp_path / "empty-hub")
    done = cli(
        "check", "--format", "json", "bad.vllm.yaml", "good.vllm.yaml", cwd=tmp_path, env=env
    )
    assert done.returncode == 1, done.stdout + done.stderr
    found = {(str(f["file"]), str(f["code"])): str(f["message"]) for f in json.loads(done.stdout)}
    assert f"attention heads ({heads}) must be divisible" in found["bad.vllm.yaml", "VC601"]
    assert f"The model's limit is {positions}." in found["bad.vllm.yaml", "VC604"]
    assert not [key for key in found if key[0] == "good.vllm.yaml"], found


def test_qwen3_next_layers_without_layer_types_follow_the_interval(tmp_path: Path) -> None:
    """Qwen3-Next's config.json has `full_attention_interval` (4) and no `layer_types`;
    transformers derives them (Qwen3NextConfig.__post_init__): 12 of its 48 layers are full
    attention, the others linear attention with no KV cache. Its 262144 positions then need
    12 layers x K and V x 2 KV heads x 256 x 2 bytes x 262144 = 6.0 GiB of KV cache (plus
    the linear layers' small state), not the 24 GiB of all 48 layers: one L4 holds it at the
    default utilization (before, a false VC681), and at 0.25 it does not."""
    drop = ("HF_HOME", "VIRTUAL_ENV", "VLLM_CONFIG_MODEL_DIRS", "VLLM_CONFIG_MODEL_REGISTRY")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["HF_HUB_CACHE"] = str(tmp_path / "empty-hub")
    model = "model: Qwen/Qwen3-Next-80B-A3B-Instruct\nmax-model-len: 262144\n"
    (tmp_path / "default.vllm.yaml").write_text(model)
    (tmp_path / "quarter.vllm.yaml").write_text(model + "gpu-memory-utilization: 0.25\n")
    names = ["default.vllm.yaml", "quarter.vllm.yaml"]
    done = cli(
        "check", "--format", "json", "--gpu", "L4", "--gpus", "1", *names, cwd=tmp_path, env=env
    )
    found = {(str(f["file"]), str(f["code"])): str(f["message"]) for f in json.loads(done.stdout)}
    assert ("default.vllm.yaml", "VC681") not in found, found
    assert "(6.07 GiB KV cache is needed" in found["quarter.vllm.yaml", "VC681"], found
