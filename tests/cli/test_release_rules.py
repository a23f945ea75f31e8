"""Imperative rules run for the releases whose wheel has their check (`x-vllm.checks`),
through the console command: `check` on files whose marker names the release, `rules CODE`
saying where a rule applies."""

from __future__ import annotations

import json
from pathlib import Path

from support import cli

ZERO_BUDGET = (
    "model: m\n"
    "compilation-config:\n"
    "  cudagraph_mm_encoder: true\n"
    "  encoder_cudagraph_token_budgets: [0, 2048]\n"
)
PARTIAL_PREFILLS = "model: m\nmax-num-partial-prefills: 2\n"


def _errors(tmp_path: Path, version: str, body: str, what: str = "code") -> list[str]:
    """`what` (code or message) of each error `check` reports on `body` for `version`."""
    path = tmp_path / f"{version}.vllm.yaml"
    path.write_text(f"# vllm-config: version={version}\n{body}")
    rows = json.loads(cli("check", str(path), "--format", "json").stdout)
    return [row[what] for row in rows if row["severity"] == "error"]


def test_a_check_the_older_release_has_runs_for_it(tmp_path: Path) -> None:
    assert _errors(tmp_path, "0.28.0", ZERO_BUDGET) == ["VC301"]
    assert _errors(tmp_path, "0.33.0", ZERO_BUDGET) == ["VC301"]


def test_a_check_only_an_older_release_has_runs_only_there(tmp_path: Path) -> None:
    assert _errors(tmp_path, "0.11.2", PARTIAL_PREFILLS) == ["VC346"]
    assert "VC346" not in _errors(tmp_path, "0.33.0", PARTIAL_PREFILLS)  # the flag is gone


def _releases(code: str) -> str:
    shown = cli("rules", code)
    assert shown.returncode == 0
    lines = [line for line in shown.stdout.splitlines() if line.startswith("vLLM releases: ")]
    assert len(lines) == 1, shown.stdout
    return lines[0].removeprefix("vLLM releases: ")


def test_rules_code_names_the_releases() -> None:
    transcribed_from_older = _releases("VC346")
    assert "0.11.2" in transcribed_from_older.split(";")[0]
    assert "0.33.0" not in transcribed_from_older
    assert _releases("VC301").split(", ")[0].endswith("0.33.0")
    assert _releases("VC206").startswith("every release")


def test_a_finding_speaks_its_release_words(tmp_path: Path) -> None:
    """0.11.2 ends this message without the full stop 0.33.0 has: the finding quotes
    each release as it speaks, the values filled in."""
    body = "model: m\nenable-lora: true\nmax-loras: 4\nmax-cpu-loras: 2\n"
    (newest,) = _errors(tmp_path, "0.33.0", body, "message")
    (older,) = _errors(tmp_path, "0.11.2", body, "message")
    assert newest.startswith("max_cpu_loras (2) must be >= max_loras (4).")
    assert older.startswith("max_cpu_loras (2) must be >= max_loras (4)")
    assert not older.startswith("max_cpu_loras (2) must be >= max_loras (4).")


def test_a_refused_speculative_value_builds_no_speculative_config(tmp_path: Path) -> None:
    """0.11.2 takes a YAML mapping as Python text, which json.loads refuses (VC205): vLLM
    stops there, so no check of the SpeculativeConfig's fields runs (VC462 did)."""
    body = "model: m\nspeculative-config:\n  method: ngram\n  prompt_lookup_max: 4\n"
    assert _errors(tmp_path, "0.11.2", body) == ["VC205"]
    broken_json = 'model: m\nspeculative-config: "{method: ngram"\n'
    assert _errors(tmp_path, "0.33.0", broken_json) == ["VC205"]


ADAPTIVE_NGRAM_LORA = (
    "model: m\n"
    "enable-lora: true\n"
    "speculative-config:\n"
    "  method: ngram\n"
    "  num_speculative_tokens: 2\n"
    "  prompt_lookup_max: 2\n"
    "  enable_adaptive_verification: true\n"
)
DRAFT_MODEL_TP = (
    "model: m\n"
    'speculative-config: \'{"method": "draft_model", "model": "org/draft", '
    '"num_speculative_tokens": 2, "draft_tensor_parallel_size": 2}\'\n'
)


def test_a_check_the_release_stops_at_first_leaves_no_later_one(tmp_path: Path) -> None:
    """0.28.0 and 0.29.0 refuse adaptive verification for any method but DSpark in
    `SpeculativeConfig.__post_init__`, before `VllmConfig` checks it against LoRA (VC335,
    which 0.29.0 has too); 0.11.2 to 0.14.1 refuse `method: draft_model` before the
    draft's tensor-parallel size is looked at (VC463)."""
    assert _errors(tmp_path, "0.28.0", ADAPTIVE_NGRAM_LORA) == ["VC472"]
    assert _errors(tmp_path, "0.29.0", ADAPTIVE_NGRAM_LORA) == ["VC472"]
    assert _errors(tmp_path, "0.30.0", ADAPTIVE_NGRAM_LORA) == ["VC335"]
    assert _errors(tmp_path, "0.11.2", DRAFT_MODEL_TP) == ["VC471"]
    assert _errors(tmp_path, "0.14.1", DRAFT_MODEL_TP) == ["VC471"]
    assert _errors(tmp_path, "0.15.1", DRAFT_MODEL_TP) == ["VC463"]
    assert _errors(tmp_path, "0.33.0", DRAFT_MODEL_TP) == ["VC463"]


def test_a_check_that_changed_shape_runs_in_each_release_shape(tmp_path: Path) -> None:
    """Multi-node data parallelism with one GPU per rank: 0.11.2 chooses the `uni`
    executor and refuses `nnodes` with it (VC392); 0.28.0 and 0.33.0 accept `uni`."""
    body = "model: m\ndata-parallel-size: 2\nnnodes: 2\n"
    assert _errors(tmp_path, "0.11.2", body) == ["VC392"]
    assert _errors(tmp_path, "0.28.0", body) == []
    assert _errors(tmp_path, "0.33.0", body) == []
    dcp = "model: m\ntensor-parallel-size: 4\ndecode-context-parallel-size: 3\n"
    assert _errors(tmp_path, "0.11.2", dcp) == ["VC391"]  # asserted in EngineArgs
    assert _errors(tmp_path, "0.28.0", dcp) == ["VC315"]  # raised in ParallelConfig
    both = "model: m\ndata-parallel-hybrid-lb: true\ndata-parallel-external-lb: true\n"
    assert _errors(tmp_path, "0.11.2", both) == ["VC390"]  # asserted in EngineArgs
    assert _errors(tmp_path, "0.15.1", both) == ["VC530"]  # `vllm serve` refuses it first


def _covers(releases: str, version: str) -> bool:
    """`version` is one of the releases `rules CODE` names (ranges with an en dash)."""

    def key(v: str) -> tuple[int, ...]:
        return tuple(int(part) for part in v.split(".")[:3])

    for run in releases.split(";")[0].split(", "):
        first, _, last = run.partition("\N{EN DASH}")
        if key(first) <= key(version) <= key(last or first):
            return True
    return False


def test_rules_transcribed_from_older_releases_name_them() -> None:
    for code, release in (("VC390", "0.11.2"), ("VC391", "0.11.2"), ("VC394", "0.28.0")):
        releases = _releases(code)
        assert _covers(releases, release), (code, releases)
        assert not _covers(releases, "0.33.0"), (code, releases)


def test_a_start_rank_of_zero_infers_hybrid_lb_only_where_vllm_tests_is_not_none(
    tmp_path: Path,
) -> None:
    """0.11.2 to 0.27.1 infer hybrid LB from `if self.data_parallel_start_rank`, so a start
    rank of 0 leaves it off and nothing is switched (the real 0.11.2 logs no warning);
    0.28.0 on test `is not None` and warn that hybrid LB became external LB (VC383)."""
    body = "model: m\ndata-parallel-size: 2\ndata-parallel-size-local: 1\n"
    body += "data-parallel-start-rank: 0\n"
    path = tmp_path / "start.vllm.yaml"

    def warned(version: str) -> list[str]:
        path.write_text(f"# vllm-config: version={version}\n{body}")
        rows = json.loads(cli("check", str(path), "--format", "json").stdout)
        return [row["code"] for row in rows if row["severity"] == "warning"]

    assert "VC383" not in warned("0.11.2")
    assert "VC383" not in warned("0.27.1")
    assert "VC383" in warned("0.28.0")
    assert "VC383" in warned("0.33.0")
