"""Older releases' parallel, EPLB and model-runner refusals (issue 33 item 4, VC810-VC819),
through the real CLI with `--vllm-version`: an error for every release whose wheel has the
raise (docs/catalogue/older-raises.json lists them), none for the release just outside the
range, none for the near miss vLLM accepts. EPLB's checks come after its platform check, so
they speak only with a target GPU that passes it (`--gpu`); the environment rules read the
variable where a shell command line writes it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import apply_json_fix, cli

EPLB_ONE_RANK = "enable-expert-parallel: true\nenable-eplb: true"
H100 = ("--gpu", "H100")
#: (settings, the rule, the releases that refuse it, one that does not, phrase, options)
REFUSED = [
    (
        "tensor-parallel-size: 4\ndecode-context-parallel-size: 3",
        "VC810",
        ("0.16.0", "0.20.2", "0.25.1"),
        "0.26.0",  # VC315 there
        "tp_size=4 must be divisible bydcp_size=3.",
        (),
    ),
    (
        "dcp-comm-backend: a2a",
        "VC811",
        ("0.18.1", "0.24.0", "0.28.0"),
        "0.29.0",
        "dcp_comm_backend='a2a' requires decode_context_parallel_size > 1.",
        (),
    ),
    (
        "tensor-parallel-size: 2\nprefill-context-parallel-size: 2",
        "VC812",
        ("0.12.0",),
        "0.13.0",
        "Prefill context parallelism is not fully supported.",
        (),
    ),
    (
        "tensor-parallel-size: 2\nnnodes: 2\ndistributed-executor-backend: ray",
        "VC813",
        ("0.12.0",),
        "0.13.0",
        "nnodes > 1 can only be set when distributed executor backend is mp or uni.",
        (),
    ),
    (
        EPLB_ONE_RANK,
        "VC814",
        ("0.11.2", "0.18.1", "0.25.1"),
        "0.10.2",  # VC815 there
        "EPLB requires tensor_parallel_size or data_parallel_size to be greater than 1, "
        "but got TP=1,DP=1.",
        ("--gpu", "H100"),
    ),
    (
        EPLB_ONE_RANK,
        "VC815",
        ("0.10.2",),
        "0.11.2",
        "EPLB requires tensor_parallel_size or data_parallel_size to be greater than 1",
        ("--gpu", "H100"),
    ),
    (
        "tensor-parallel-size: 2\nenable-expert-parallel: true\nnum-redundant-experts: -1\n"
        "enable-eplb: true",
        "VC815",
        ("0.10.2",),
        "0.11.2",
        "num_redundant_experts must be non-negative, but got -1.",
        ("--gpu", "H100"),
    ),
    (
        "tensor-parallel-size: 2\nenable-expert-parallel: true\nnum-redundant-experts: -1\n"
        "enable-eplb: true",
        "VC368",  # 0.9.2's words, in a condition of its own (`self.num_redundant_experts`)
        ("0.9.2",),
        "0.8.5",
        "num_redundant_experts must be non-negative, but got -1.",
        ("--gpu", "H100"),
    ),
    (
        "tensor-parallel-size: 2\nenable-eplb: true",
        "VC815",
        ("0.10.2",),
        "0.11.2",  # VC312 there
        "enable_expert_parallel must be True to use EPLB.",
        ("--gpu", "H100"),
    ),
    (
        "enable-return-routed-experts: true\npipeline-parallel-size: 2",
        "VC818",
        ("0.21.0",),
        "0.22.1",
        "--enable-return-routed-experts is not yet validated with: pipeline parallelism "
        "(pipeline_parallel_size=2).",
        (),
    ),
]
ACCEPTED = [
    ("tensor-parallel-size: 4\ndecode-context-parallel-size: 2", "0.25.1", ()),
    ("dcp-comm-backend: ag_rs", "0.28.0", ()),
    (
        "tensor-parallel-size: 2\ndecode-context-parallel-size: 2\ndcp-comm-backend: a2a",
        "0.28.0",
        (),
    ),
    ("tensor-parallel-size: 2\nprefill-context-parallel-size: 1", "0.12.0", ()),
    ("tensor-parallel-size: 2\nnnodes: 2\ndistributed-executor-backend: mp", "0.12.0", ()),
    ("tensor-parallel-size: 2\nnnodes: 2\ndistributed-executor-backend: uni", "0.12.0", ()),
    ("tensor-parallel-size: 2\nnnodes: 2", "0.12.0", ()),
    (f"tensor-parallel-size: 2\n{EPLB_ONE_RANK}", "0.25.1", ("--gpu", "H100")),
    (f"tensor-parallel-size: 2\n{EPLB_ONE_RANK}", "0.10.2", ("--gpu", "H100")),
    (f"tensor-parallel-size: 2\n{EPLB_ONE_RANK}\nnum-redundant-experts: 0", "0.10.2", H100),
    # Behind the platform check: without a target, or one that fails it, vLLM says other
    # words (or none of these).
    (EPLB_ONE_RANK, "0.25.1", ()),
    (EPLB_ONE_RANK, "0.10.2", ()),
    (EPLB_ONE_RANK, "0.10.2", ("--gpu", "MI300X")),
    ("enable-return-routed-experts: true\ntensor-parallel-size: 2", "0.21.0", ()),
]
OURS = {f"VC81{n}" for n in range(10)} | {"VC368"}


def _errors(
    tmp_path: Path, text: str, version: str, options: tuple[str, ...] = (), name: str = "serve.yaml"
) -> list[dict[str, object]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = cli("check", str(path), "--format", "json", "--vllm-version", version, *options)
    assert result.returncode in (0, 1), result.stderr
    return [r for r in json.loads(result.stdout) if r["severity"] == "error"]


@pytest.mark.parametrize(("setting", "code", "releases", "without", "phrase", "options"), REFUSED)
def test_refused_by_the_releases_that_have_the_check(
    tmp_path: Path,
    setting: str,
    code: str,
    releases: tuple[str, ...],
    without: str,
    phrase: str,
    options: tuple[str, ...],
) -> None:
    text = f"model: m\n{setting}\n"
    for version in releases:
        rows = [r for r in _errors(tmp_path, text, version, options) if r["code"] in OURS]
        assert [r["code"] for r in rows] == [code], (version, rows)
        assert phrase in str(rows[0]["message"]), rows
    assert code not in [r["code"] for r in _errors(tmp_path, text, without, options)]


@pytest.mark.parametrize(("setting", "version", "options"), ACCEPTED)
def test_near_miss_is_accepted(
    tmp_path: Path, setting: str, version: str, options: tuple[str, ...]
) -> None:
    rows = _errors(tmp_path, f"model: m\n{setting}\n", version, options)
    assert not [r for r in rows if r["code"] in OURS], rows


def test_return_routed_experts_lists_every_feature(tmp_path: Path) -> None:
    """vLLM 0.21.0 names them all in one message; each setting gets it."""
    text = (
        "model: m\nenable-return-routed-experts: true\npipeline-parallel-size: 2\n"
        "decode-context-parallel-size: 2\ntensor-parallel-size: 2\nasync-scheduling: true\n"
    )
    rows = [r for r in _errors(tmp_path, text, "0.21.0") if r["code"] == "VC818"]
    assert sorted(r["line"] for r in rows) == [3, 4, 6], rows
    assert all(
        "pipeline parallelism (pipeline_parallel_size=2), decode context parallelism "
        "(decode_context_parallel_size=2), async scheduling." in str(r["message"])
        for r in rows
    ), rows


ENV_REFUSED = [
    (
        "VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m --tensor-parallel-size 2 "
        "--prefill-context-parallel-size 2\n",
        "VC816",
        ("0.27.1", "0.28.0"),
        "0.29.0",
        "Prefill context parallelism requires Model Runner V2.",
    ),
    (
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve m "
        '--kv-transfer-config \'{"kv_connector": "NixlConnector", "kv_role": "kv_both"}\'\n',
        "VC817",
        ("0.21.0",),
        "0.22.1",
        "KV connector NixlConnector is incompatible with "
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
    ),
    (
        "VLLM_USE_V2_MODEL_RUNNER=1 vllm serve m --enable-dbo --kv-sharing-fast-prefill\n",
        "VC819",
        ("0.20.2", "0.22.1", "0.23.0", "0.29.0"),  # "Model Runner V2 …" from 0.23.0
        "0.30.0",  # the V2 runner runs both there
        "does not yet support: dual batch overlap, KV sharing fast prefill.",
    ),
]
ENV_ACCEPTED = [
    ("vllm serve m --tensor-parallel-size 2 --prefill-context-parallel-size 2\n", "0.28.0"),
    ("VLLM_USE_V2_MODEL_RUNNER=1 vllm serve m --prefill-context-parallel-size 2\n", "0.28.0"),
    (
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True vllm serve m --enable-sleep-mode "
        '--kv-transfer-config \'{"kv_connector": "NixlConnector", "kv_role": "kv_both"}\'\n',
        "0.21.0",
    ),
    (
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:False vllm serve m "
        '--kv-transfer-config \'{"kv_connector": "NixlConnector", "kv_role": "kv_both"}\'\n',
        "0.21.0",
    ),
    ("VLLM_USE_V2_MODEL_RUNNER=0 vllm serve m --enable-dbo\n", "0.22.1"),
    ("VLLM_USE_V2_MODEL_RUNNER=1 vllm serve m --tensor-parallel-size 2\n", "0.22.1"),
    # From 0.26.0 the list names PCP only for a model without MLA, which the file does not say.
    ("VLLM_USE_V2_MODEL_RUNNER=1 vllm serve m --prefill-context-parallel-size 2\n", "0.26.0"),
]


@pytest.mark.parametrize(("line", "code", "releases", "without", "phrase"), ENV_REFUSED)
def test_environment_refusals(
    tmp_path: Path, line: str, code: str, releases: tuple[str, ...], without: str, phrase: str
) -> None:
    for version in releases:
        rows = [r for r in _errors(tmp_path, line, version, name="serve.sh") if r["code"] in OURS]
        assert [(r["code"], r["line"]) for r in rows] == [(code, 1)], rows
        assert phrase in str(rows[0]["message"]), rows
    assert code not in [r["code"] for r in _errors(tmp_path, line, without, name="serve.sh")]


@pytest.mark.parametrize(("line", "version"), ENV_ACCEPTED)
def test_environment_near_miss_is_accepted(tmp_path: Path, line: str, version: str) -> None:
    rows = _errors(tmp_path, line, version, name="serve.sh")
    assert not [r for r in rows if r["code"] in OURS], rows


@pytest.mark.parametrize(
    ("text", "version", "options", "title"),
    [
        ("model: m\ndcp-comm-backend: a2a\n", "0.24.0", (), "Remove"),
        ("model: m\nprefill-context-parallel-size: 2\n", "0.12.0", (), "Remove"),
        (
            "model: m\ntensor-parallel-size: 2\nnnodes: 2\ndistributed-executor-backend: ray\n",
            "0.12.0",
            (),
            "Use the `mp` executor",
        ),
        ("model: m\ntensor-parallel-size: 2\nenable-eplb: true\n", "0.10.2", H100, "Add"),
    ],
)
def test_fix_applied_is_accepted(
    tmp_path: Path, text: str, version: str, options: tuple[str, ...], title: str
) -> None:
    """The preferred fix, applied as the JSON output states it, leaves a file the release
    starts."""
    path = tmp_path / "serve.yaml"
    path.write_text(text, encoding="utf-8")
    result = cli("check", str(path), "--format", "json", "--vllm-version", version, *options)
    (found,) = [r for r in json.loads(result.stdout) if r["code"] in OURS]
    fix = found["fix"]
    assert str(fix["title"]).startswith(title), fix
    fixed = apply_json_fix(text, fix)
    assert not _errors(tmp_path, fixed, version, options), fixed
