"""Our findings against the real vLLM 0.33.0's recorded verdicts, case by case.

Each case in tests/fidelity/cases/ is a config with at most one mistake. Its header says
what vLLM should complain about (`# phrase: <text from vLLM's message>`) and `#!` marks the
offending line; a case with no phrase is one vLLM accepts. Verdicts were recorded with
tools/record_vllm_verdicts.py. A case vLLM refuses must get an error on the marked line
whose message contains the phrase; a case vLLM accepts must get no error. A verdict that
only reflects the CPU oracle's stub model (`# exclude: reason`) is skipped with its reason.
A case that vLLM starts with a warning says `# warning-phrase: <text from vLLM's warning>`:
the recorded verdict must be an acceptance whose `warnings` hold the phrase, and the engine
must give a warning on a marked line whose message holds it, and no error. Two oracle
limits are named in the header rather than excluded: `# oracle-artefact: reason` (the CPU
oracle stops after the warning for its own reasons, such as Ray or NIXL not installed or
the stub model; the warning must still be in the record) and `# warning-unrecorded:
reason` (a `warnings.warn` attributed to pydantic's file, which the oracle does not keep).
`# warning-severity: info (reason)` asks for information instead of a warning: vLLM only
cautions (the setting applies as written), or what it warns of depends on a platform the
file does not name (the CPU oracle's is not a deployment's).
Model-aware cases (`# model-policy: as-is`, tests/fidelity/cases/models/) name fixture model
folders relative to the case file, or repository ids in the fake Hugging Face cache
tests/fixtures/models/hf-cache: the engine gets the case's path and that cache, as the
recorder gave the oracle.

A case for an older release starts with `# vllm-config: version=X` (tests/fidelity/cases/
releases/X/), is recorded with that release's oracle and judged with that release's
catalogue: the verdict stores the oracle's vLLM version, which must be the release the
engine checked with, so a verdict is never judged as another release's. `# warning: <text>`
on a case vLLM accepts asks for a warning with that text on the marked line (vLLM starts
but does not do what the file says).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from support import GPU_RULES, REPO
from vllm_config_lsp.document.text_index import TextIndex
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import Severity
from vllm_config_lsp.vllm.catalogue import nearest_release

CASES = REPO / "tests" / "fidelity" / "cases"
VERDICTS = REPO / "tests" / "fidelity" / "verdicts"
ALL = sorted(CASES.rglob("*.yaml"))


@pytest.fixture(autouse=True)
def _fixture_hub_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_CACHE", str(REPO / "tests" / "fixtures" / "models" / "hf-cache"))


def _header(text: str, key: str) -> str | None:
    match = re.search(rf"^# {key}: (.+)$", text, re.M)
    return match.group(1).strip() if match else None


@pytest.mark.parametrize("case", ALL, ids=lambda p: str(p.relative_to(CASES)))
def test_case_agrees_with_vllm(case: Path) -> None:
    text = case.read_text(encoding="utf-8")
    verdict_file = VERDICTS / case.relative_to(CASES).with_suffix(".json")
    assert verdict_file.exists(), f"no recorded verdict: run tools/record_vllm_verdicts.py {case}"
    verdict = json.loads(verdict_file.read_text())
    excluded = _header(text, "exclude")
    if excluded:
        pytest.skip(excluded)
    phrase = _header(text, "phrase")
    if _header(text, "warning-phrase"):
        _agrees_on_warning(case, text, verdict)
        return
    index = TextIndex(text)
    result = lint(text, model_on_cli=True if "model_arg" in verdict else None, path=case)
    assert result.model is not None
    judged_as = result.model.catalogue.version
    recorded_by = nearest_release(str(verdict.get("vllm_version")))
    assert recorded_by == judged_as, (
        f"recorded by vLLM {verdict.get('vllm_version')}, judged as {judged_as}: the case's "
        "`# vllm-config: version=` marker must name the oracle's release"
    )
    findings = [(index.line_col(f.start)[0] + 1, f) for f in result.findings]
    errors = [(line, f.message) for line, f in findings if f.severity == Severity.ERROR]
    marked = [n + 1 for n, line in enumerate(text.splitlines()) if line.rstrip().endswith("#!")]
    if phrase is None:
        assert verdict["ok"], f"the case expects acceptance, vLLM said: {verdict.get('message')}"
        assert errors == []
        warning = _header(text, "warning")
        if warning is not None:
            warned = [
                f.message
                for line, f in findings
                if f.severity == Severity.WARNING and line in marked and warning in f.message
            ]
            assert warned, (warning, [f.message for _, f in findings])
        return
    assert not verdict["ok"], "the case expects a refusal, but vLLM accepted it"
    assert phrase in (verdict.get("message") or ""), ("the phrase is not vLLM's", verdict)
    assert marked, "mark the offending line with a trailing `#!`"
    hits = [message for line, message in errors if line in marked and phrase in message]
    assert hits, (phrase, errors)


def _agrees_on_warning(case: Path, text: str, verdict: dict[str, object]) -> None:
    phrase = _header(text, "warning-phrase")
    assert phrase is not None
    if not _header(text, "oracle-artefact"):
        assert verdict["ok"], f"vLLM refused a warning case: {verdict.get('message')}"
    if not _header(text, "warning-unrecorded"):
        recorded = verdict.get("warnings")
        assert isinstance(recorded, list), "re-record: the verdict has no `warnings`"
        assert any(phrase in w for w in recorded), ("not in vLLM's warnings", recorded)
    index = TextIndex(text)
    result = lint(text, model_on_cli=True if "model_arg" in verdict else None, path=case)
    marked = [n + 1 for n, line in enumerate(text.splitlines()) if line.rstrip().endswith("#!")]
    assert marked, "mark the line that gets the warning with a trailing `#!`"
    found = [(index.line_col(f.start)[0] + 1, f) for f in result.findings]
    assert [f.message for _, f in found if f.severity == Severity.ERROR] == []
    severity = _header(text, "warning-severity") or "warning"
    expected = Severity.INFO if severity.startswith("info") else Severity.WARNING
    hits = [
        f.message
        for line, f in found
        if f.severity == expected and line in marked and phrase in f.message
    ]
    assert hits, (phrase, [(line, f.code, f.message) for line, f in found])


#: Rules that no `--config` file can trigger, with where the real vLLM was asked instead.
COMMAND_LINE_ONLY = {
    "VC384": "`--model` on the serve command line: vLLM 0.33.0's oracle_argv.py on "
    '["--model", "m", "--max-model-len", "100"] starts and logs the warning',
    "VC240": "the environment: tests/fidelity/environ/ (oracle_argv.py --batch with `env`, "
    "the unknown-variable line from stderr), tests/engine/test_fidelity_environ.py",
    "VC241": "the environment: tests/fidelity/environ/ (the engine core's enable_envs_cache() "
    "probe), tests/engine/test_fidelity_environ.py",
    "VC242": "the environment: tests/fidelity/environ/ (the probe's `read_as` of each "
    "switch), tests/engine/test_fidelity_environ.py",
    "VC539": "the environment and run_multi_api_server (vllm/entrypoints/cli/serve.py:315), "
    "which the argv oracle stubs: transcribed from the source, not recorded",
}
#: Older releases' own refusals (issue 33 item 4) whose releases have no oracle here (the
#: recipes build 0.9.2, 0.10.2, 0.11.2, 0.15.1, 0.28.0 and 0.33.0): transcribed from each wheel's
#: raise, and tested through the CLI for every release in range and one outside it
#: (tests/rules/test_older_raises.py).
NO_ORACLE_FOR_THEIR_RELEASES = {
    "VC365": "vLLM 0.20.2-0.22.1 (PoolerConfig logit_bias/logit_scale)",
    "VC366": "vLLM 0.19.1 (encoder_cudagraph_max_images_per_batch)",
    "VC368": "vLLM 0.9.2 (num_redundant_experts without EPLB)",
    "VC810": "vLLM 0.16.0-0.25.1 (tp_size not divisible by dcp_size in ParallelConfig)",
    "VC812": "vLLM 0.12.0 (prefill_context_parallel_size above 1)",
    "VC813": "vLLM 0.12.0 (nnodes > 1 with a backend other than mp or uni)",
    "VC814": "vLLM 0.11.2-0.25.1 (EPLB with TP x DP = 1): behind EPLB's CUDA/ROCm check, "
    "which the CPU oracles of 0.11.2 and 0.15.1 cannot pass",
    "VC815": "vLLM 0.9.2-0.10.2 (EPLB's checks): behind EPLB's CUDA-only check, which the "
    "CPU oracle of 0.10.2 cannot pass",
    "VC816": "vLLM 0.27.1-0.28.0 (prefill context parallelism with VLLM_USE_V2_MODEL_RUNNER=0): "
    "the environment, whose recordings (tests/fidelity/environ/) are 0.33.0's only",
    "VC817": "vLLM 0.21.0 (a KV connector with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True)",
    "VC818": "vLLM 0.21.0 (enable-return-routed-experts with PP, PCP, DCP or async scheduling)",
    "VC819": "vLLM 0.20.2-0.30.0 (VLLM_USE_V2_MODEL_RUNNER=1 with unsupported features): the "
    "environment, whose recordings (tests/fidelity/environ/) are 0.33.0's only",
    "VC825": "vLLM 0.30.0-0.31.0 (watermarking with a method that is not model-based)",
    "VC826": "vLLM 0.32.0 (watermarking with a method that is not model-based)",
    "VC830": "vLLM 0.28.0-0.29.0 (Proton with CUDA graphs): the 0.28.0 CPU oracle refuses "
    "Proton first as CUDA-only (vllm/config/vllm.py:1293), before the CUDA-graph check",
    "VC831": "vLLM 0.29.0 (adaptive verification without CUDA graphs)",
    "VC832": "vLLM 0.30.0 (Engram dp_shared_memory with another load format)",
    "VC834": "vLLM 0.32.0 (ReplaySSM with Mamba prefix caching, the words naming the mode)",
    "VC833": "vLLM 0.27.1-0.29.0 (use-replayssm with speculation or a backend but triton): the "
    "0.28.0 oracle refuses first every model but Nemotron-H, of which no fixture is stored",
    "VC840": "vLLM 0.6.6.post1 (worker-use-ray with the mp backend)",
    "VC841": "vLLM 0.6.6.post1-0.7.3 (tokenizer pool type and extra config)",
    "VC842": "vLLM 0.6.6.post1-0.7.3 (bitsandbytes quantization and load format)",
    "VC843": "vLLM 0.6.6.post1-0.8.5.post1 (collect-detailed-traces modules; 0.9.2 has "
    "argparse choices, so its oracle cannot reach the check)",
    "VC846": "vLLM 0.6.6.post1-0.7.3 (typical acceptance sampler flags)",
}


def test_every_vllm_rule_has_a_fidelity_case() -> None:
    """Rules about vLLM's behaviour (not about YAML itself) must be seen on a real verdict."""
    from vllm_config_lsp.rules import all_rules

    covered = set()
    for case in ALL:
        text = case.read_text(encoding="utf-8")
        covered |= {f.code for f in lint(text, path=case).findings}
    # The checks the target GPU decides cannot run on the CPU oracle: their failing and
    # passing fixtures go through the CLI's `--gpu` (tests/rules/test_platform_rules.py,
    # tests/rules/test_memory_budget_e2e.py).
    on_cpu = [r for r in all_rules() if not r.module.__name__.startswith(GPU_RULES)]
    about_vllm = {r.code for r in on_cpu if r.vllm_source and not r.code.startswith("VC00")}
    missing = sorted(
        about_vllm - covered - COMMAND_LINE_ONLY.keys() - NO_ORACLE_FOR_THEIR_RELEASES.keys()
    )
    assert not missing, f"rules without a fidelity case: {missing}"
