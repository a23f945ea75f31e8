"""Real Ray Serve config files of Ray Serve LLM's prefill/decode builder (issue 28, item 7;
`data/ray_serve/SOURCES.md`), through the CLI. They were missed twice: a folder walk took
only files that name vLLM (these name `ray.serve.llm`), and a `model_loading_config`
without `model_source` left the start without a model, so no model check ran, although
Ray loads `model_id` then."""

from __future__ import annotations

from pathlib import Path

import yaml
from source_support import apply_json_fix, cli_json

DATA = Path(__file__).resolve().parent / "data" / "ray_serve"
PREFIX = "ray-project__ray__doc__source__serve__doc_code__pd_dissagregation__"
NIXL = DATA / f"{PREFIX}nixl_example.yaml"
MOONCAKE = DATA / f"{PREFIX}lmcache_mooncake_example.yaml"


def _kv(connector: str, role: str, engine: str | None = None) -> list[str]:
    value = f'{{"kv_connector": "{connector}", "kv_role": "{role}"'
    value += f', "engine_id": "{engine}"}}' if engine else "}"
    return ["--kv-transfer-config", value]


def test_a_folder_walk_finds_both_starts_of_each_real_file() -> None:
    starts = cli_json("argv", DATA, "0.33.0")
    found = [(Path(s["file"]).name, s["line"], s["source"], s["argv"]) for s in starts]
    nixl, mooncake = NIXL.name, MOONCAKE.name
    assert found == [
        (mooncake, 8, "kubernetes", _kv("LMCacheConnectorV1", "kv_both")),
        (mooncake, 24, "kubernetes", _kv("LMCacheConnectorV1", "kv_both")),  # the anchor's
        (nixl, 9, "kubernetes", _kv("NixlConnector", "kv_producer", "engine1")),
        (nixl, 22, "kubernetes", _kv("NixlConnector", "kv_consumer", "engine2")),
    ]
    # vLLM 0.33.0 takes them as written; it only cautions that LMCacheConnectorV1 turns the
    # hybrid KV cache manager off (vllm/config/vllm.py:2266), information on the mapping
    # the two starts share.
    findings = cli_json("check", DATA, "0.33.0")
    assert [(Path(f["file"]).name, f["line"], f["severity"], f["code"]) for f in findings] == [
        (mooncake, 9, "info", "VC395")
    ]


def test_the_model_is_model_id_and_its_checks_run_and_fix(tmp_path: Path) -> None:
    """The prefill side given 32 heads over 3 GPUs: the model (Llama 3.1 8B) comes from
    `model_id`; the fix writes the keyword's value, the YAML still loads, the rest stays."""
    text = NIXL.read_text(encoding="utf-8")
    changed = text.replace(
        "            engine_id: engine1\n",
        "            engine_id: engine1\n          tensor_parallel_size: 3\n",
    )
    path = tmp_path / NIXL.name
    path.write_text(changed, encoding="utf-8")
    (found,) = cli_json("check", path, "0.33.0")
    assert (found["code"], found["line"]) == ("VC601", 14)
    assert "meta-llama/Llama-3.1-8B-Instruct has 32 heads" in found["message"]
    assert found["fix"]["title"] == "Set tensor_parallel_size to 2"
    fixed = apply_json_fix(changed, found)
    assert fixed == changed.replace("tensor_parallel_size: 3", "tensor_parallel_size: 2")
    prefill = yaml.safe_load(fixed)["applications"][0]["args"]["prefill_config"]
    assert prefill["engine_kwargs"]["tensor_parallel_size"] == 2
    path.write_text(fixed, encoding="utf-8")
    assert cli_json("check", path, "0.33.0") == []


def test_a_model_source_wins_and_a_bucket_is_no_model_id(tmp_path: Path) -> None:
    """`model_source` names the weights when given; a bucket (`bucket_uri`) is weights this
    file does not show: `model_id` is then no model either (no check on a guess)."""
    text = NIXL.read_text(encoding="utf-8").replace(
        "            engine_id: engine1\n",
        "            engine_id: engine1\n          tensor_parallel_size: 3\n",
    )
    given = text.replace(
        "          model_id: meta-llama/Llama-3.1-8B-Instruct\n        engine_kwargs:\n"
        "          kv_transfer_config:\n            kv_connector: NixlConnector\n"
        "            kv_role: kv_producer",
        "          model_id: meta-llama/Llama-3.1-8B-Instruct\n"
        "          model_source: {bucket_uri: s3://my-bucket/llama}\n        engine_kwargs:\n"
        "          kv_transfer_config:\n            kv_connector: NixlConnector\n"
        "            kv_role: kv_producer",
        1,
    )
    assert given != text
    path = tmp_path / NIXL.name
    path.write_text(given, encoding="utf-8")
    assert [f["code"] for f in cli_json("check", path, "0.33.0")] == []
