"""Checks only older vLLM releases have (issue 33 item 4), through the real CLI with
`--vllm-version`: each is an error for the releases whose wheel has the raise
(docs/catalogue/older-raises.json lists them), none for a release without it, and none for
the near miss vLLM accepts. Oracle verdicts of 0.10.2: tests/fidelity/cases/releases/0.10.2/.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import REPO, apply_json_fix, cli

NGRAM = '{"method": "ngram", "num_speculative_tokens": 3, %s}'
#: Releases (the first, a middle one, the last) whose VllmConfig.__post_init__ refuses
#: returning routed experts next to a KV connector (0.22.1-0.30.0), and whose ParallelConfig
#: refuses elastic EP with an external LB (0.17.1-0.32.0).
ROUTED_CONNECTOR_RELEASES = ("0.22.1", "0.26.0", "0.30.0")
ELASTIC_RELEASES = ("0.17.1", "0.21.0", "0.26.0", "0.29.0", "0.32.0")
#: (setting, the rule, the releases that refuse it, a release that does not, phrase)
REFUSED = [
    (
        "speculative-config: '%s'" % (NGRAM % '"prompt_lookup_min": 0, "prompt_lookup_max": 3'),
        "VC349",
        ("0.8.5", "0.9.2", "0.10.2"),
        "0.11.2",
        "prompt_lookup_min=0 must be > 0",
    ),
    (
        "speculative-config: '%s'" % (NGRAM % '"prompt_lookup_min": 2, "prompt_lookup_max": 0'),
        "VC349",
        ("0.8.5", "0.10.2"),
        "0.11.2",
        "prompt_lookup_max=0 must be > 0",
    ),
    (
        'speculative-config: \'{"model": "ngram", "num_speculative_tokens": 3, '
        '"prompt_lookup_max": -2}\'',
        "VC349",
        ("0.10.2",),
        "0.11.2",
        "prompt_lookup_min=-2 must be > 0",
    ),
    (
        'kv-transfer-config: \'{"kv_connector": "SharedStorageConnector"}\'',
        "VC350",
        ("0.9.2", "0.10.2"),
        "0.8.5",
        "Please specify kv_disagg_role when kv_connector is set",
    ),
    (
        'compilation-config: \'{"full_cuda_graph": true, "cudagraph_mode": "FULL"}\'',
        "VC353",
        ("0.10.2",),
        "0.11.2",
        "full_cuda_graph and cudagraph_mode are mutually exclusive",
    ),
    (
        'compilation-config: \'{"use_cudagraph": false, "cudagraph_mode": "NONE"}\'',
        "VC353",
        ("0.10.2",),
        "0.11.2",
        "use_cudagraph and cudagraph_mode are mutually exclusive",
    ),
    (
        "speculative-config: '%s'" % (NGRAM % '"prompt_lookup_max": 3, "disable_by_batch_size": 1'),
        "VC356",
        ("0.8.5", "0.9.2", "0.10.2"),
        "0.11.2",  # the field's bound (ge=2, VC203) refuses it first there
        "Expect the batch size threshold of disabling speculative decoding is > 1, but got",
    ),
    (
        "cuda-graph-sizes: [1, 2]\ncompilation-config: '{\"cudagraph_capture_sizes\": [1, 2, 4]}'",
        "VC355",
        ("0.11.2", "0.12.0"),
        "0.10.2",
        "cuda_graph_sizes and compilation_config.cudagraph_capture_sizes are mutually exclusive",
    ),
    (
        "num-redundant-experts: 2",
        "VC368",
        ("0.9.2",),
        "0.8.5",
        "num_redundant_experts should be used with EPLB.2.",
    ),
    (
        'pooler-config: \'{"logit_bias": 0.5, "logit_mean": 0.5}\'',
        "VC365",
        ("0.20.2", "0.22.1"),
        "0.19.1",
        "Cannot set both `logit_bias` and `logit_mean`.",
    ),
    (
        "pooler-config: '{\"logit_scale\": 0}'",
        "VC365",
        ("0.21.0",),
        "0.19.1",
        "logit_scale cannot be 0 (division by zero)",
    ),
    (
        'compilation-config: \'{"cudagraph_mm_encoder": true, '
        '"encoder_cudagraph_max_images_per_batch": -1}\'',
        "VC366",
        ("0.19.1",),
        "0.20.2",
        "encoder_cudagraph_max_images_per_batch must be non-negative (0 = auto-infer)",
    ),
    (
        'attention-config: \'{"use_fp4_indexer_cache": true, "indexer_kv_dtype": "fp8"}\'',
        "VC367",
        ("0.28.0", "0.29.0"),
        "0.30.0",
        "use_fp4_indexer_cache=True conflicts with indexer_kv_dtype='fp8'.",
    ),
    (
        "watermark-config: '{\"key\": 42}'\nspeculative-config: '%s'"
        % (NGRAM % '"prompt_lookup_max": 3, "draft_sample_method": "probabilistic"'),
        "VC825",
        ("0.30.0", "0.31.0"),
        "0.32.0",
        "Watermarking supports only autoregressive model-based speculative decoding.",
    ),
    (
        "watermark-config: '{\"key\": 42}'\nspeculative-config: '%s'"
        % (NGRAM % '"prompt_lookup_max": 3, "draft_sample_method": "probabilistic"'),
        "VC826",
        ("0.32.0",),
        "0.31.0",
        "Watermarking supports only autoregressive model-based speculative decoding.",
    ),
    (
        "enable-return-routed-experts: true\n"
        'kv-transfer-config: \'{"kv_connector": "LMCacheConnectorV1", "kv_role": "kv_both"}\'',
        "VC827",
        ROUTED_CONNECTOR_RELEASES,
        "0.31.0",
        "--enable-return-routed-experts is incompatible with KV connectors",
    ),
    (
        "tensor-parallel-size: 2\nenable-return-routed-experts: true\n"
        "decode-context-parallel-size: 2",
        "VC827",
        ("0.28.0", "0.29.0", "0.30.0"),
        "0.27.1",
        "--enable-return-routed-experts is incompatible with context parallelism",
    ),
    (
        "return-sampling-mask: true\nlogprobs-mode: processed_logprobs\n"
        "speculative-config: '%s'" % (NGRAM % '"prompt_lookup_max": 3'),
        "VC828",
        ("0.28.0", "0.29.0", "0.30.0", "0.31.0"),
        "0.32.0",
        "sampling distribution replay does not support speculative decoding",
    ),
    (
        "data-parallel-size: 2\nenable-expert-parallel: true\nenable-eplb: true\n"
        "enable-elastic-ep: true\ndata-parallel-rank: 0",
        "VC829",
        ELASTIC_RELEASES,
        "0.33.0",
        "Elastic EP is not compatible with data_parallel_external_lb or data_parallel_hybrid_lb.",
    ),
    (
        "data-parallel-size: 4\ndata-parallel-size-local: 2\nenable-expert-parallel: true\n"
        "enable-eplb: true\nenable-elastic-ep: true\ndata-parallel-hybrid-lb: true",
        "VC829",
        ("0.17.1", "0.32.0"),
        "0.33.0",  # VC318 refuses hybrid LB there, in its own words
        "Elastic EP is not compatible with data_parallel_external_lb or data_parallel_hybrid_lb.",
    ),
    (
        'profiler-config: \'{"profiler": "proton", "proton_profiler_dir": "/tmp/p"}\'',
        "VC830",
        ("0.28.0", "0.29.0"),
        "0.30.0",
        "The Proton profiler requires CUDA graphs to be disabled.",
    ),
    (
        'speculative-config: \'{"method": "dspark", "model": "d", '
        '"num_speculative_tokens": 4, "enable_adaptive_verification": true}\'\n'
        "enforce-eager: true",
        "VC831",
        ("0.29.0",),
        "0.30.0",
        "Adaptive verification is not currently compatible with enforce_eager/cudagraph_mode=none",
    ),
    (
        "data-parallel-size: 2\n"
        'engram-config: \'{"cpu_offload": true, "dp_shared_memory": true}\'\nload-format: dummy',
        "VC832",
        ("0.30.0",),
        "0.31.0",
        "dp_shared_memory requires load_format 'auto', 'safetensors' or 'pt'; got 'dummy'.",
    ),
    (
        "use-replayssm: true\nmamba-backend: flashinfer",
        "VC833",
        ("0.27.1", "0.28.0", "0.29.0"),
        "0.30.0",
        "--use-replayssm requires --mamba-backend triton",
    ),
    (
        "use-replayssm: true\nspeculative-config: '%s'" % (NGRAM % '"prompt_lookup_max": 3'),
        "VC833",
        ("0.27.1", "0.28.0"),
        "0.29.0",
        "--use-replayssm does not support speculative decoding",
    ),
]
ACCEPTED = [
    "speculative-config: '%s'" % (NGRAM % '"prompt_lookup_min": 1, "prompt_lookup_max": 1'),
    'speculative-config: \'{"method": "eagle", "model": "d", "num_speculative_tokens": 3, '
    '"prompt_lookup_min": 0}\'',
    'kv-transfer-config: \'{"kv_connector": "SharedStorageConnector", "kv_role": "kv_both"}\'',
    "compilation-config: '{\"full_cuda_graph\": true}'",
    'compilation-config: \'{"full_cuda_graph": false, "cudagraph_mode": "PIECEWISE"}\'',
    'compilation-config: \'{"use_cudagraph": true, "cudagraph_mode": "NONE"}\'',
    "speculative-config: '%s'" % (NGRAM % '"prompt_lookup_max": 3, "disable_by_batch_size": 2'),
    "cuda-graph-sizes: [1, 2]",
]
OURS = {"VC349", "VC350", "VC353", "VC355", "VC356", "VC365", "VC366", "VC367", "VC368"} | {
    f"VC{n}" for n in range(825, 835)
}
#: (setting vLLM accepts, a release that has the check)
ACCEPTED_LATER = [
    ("pooler-config: '{\"logit_mean\": 0.5}'", "0.22.1"),
    ("num-redundant-experts: 0", "0.9.2"),
    ("enable-eplb: true\nenable-expert-parallel: true\nnum-redundant-experts: 2", "0.9.2"),
    ("pooler-config: '{\"logit_scale\": 2}'", "0.21.0"),
    (
        'compilation-config: \'{"cudagraph_mm_encoder": false, '
        '"encoder_cudagraph_max_images_per_batch": -1}\'',
        "0.19.1",
    ),
    (
        'compilation-config: \'{"cudagraph_mm_encoder": true, '
        '"encoder_cudagraph_max_images_per_batch": 0}\'',
        "0.19.1",
    ),
    (
        'attention-config: \'{"use_fp4_indexer_cache": true, "indexer_kv_dtype": "mxfp4"}\'',
        "0.29.0",
    ),
    ('attention-config: \'{"use_fp4_indexer_cache": false, "indexer_kv_dtype": "fp8"}\'', "0.28.0"),
    (
        'watermark-config: \'{"key": 42}\'\nspeculative-config: \'{"method": "eagle3", '
        '"model": "d", "num_speculative_tokens": 3, "draft_sample_method": "probabilistic"}\'',
        "0.31.0",
    ),
    (
        'watermark-config: \'{"key": 42}\'\nspeculative-config: \'{"method": "mtp", '
        '"num_speculative_tokens": 1, "draft_sample_method": "probabilistic"}\'',
        "0.32.0",
    ),
    (
        'enable-return-routed-experts: true\nkv-transfer-config: \'{"kv_role": "kv_both"}\'',
        "0.30.0",
    ),
    ("enable-return-routed-experts: true\ndecode-context-parallel-size: 1", "0.30.0"),
    ("return-sampling-mask: true\nlogprobs-mode: processed_logprobs", "0.31.0"),
    (
        "data-parallel-size: 2\ndata-parallel-size-local: 2\nenable-expert-parallel: true\n"
        "enable-eplb: true\nenable-elastic-ep: true\ndata-parallel-hybrid-lb: true",
        "0.32.0",
    ),
    ("data-parallel-rank: 0\ndata-parallel-size: 2\nenable-elastic-ep: false", "0.32.0"),
    (
        'profiler-config: \'{"profiler": "proton", "proton_profiler_dir": "/tmp/p"}\'\n'
        "enforce-eager: true",
        "0.29.0",
    ),
    (
        'profiler-config: \'{"profiler": "proton", "proton_profiler_dir": "/tmp/p"}\'\n'
        'compilation-config: \'{"cudagraph_mode": "NONE"}\'',
        "0.28.0",
    ),
    (
        'speculative-config: \'{"method": "dspark", "model": "d", '
        '"num_speculative_tokens": 4, "enable_adaptive_verification": true}\'',
        "0.29.0",
    ),
    (
        "data-parallel-size: 2\n"
        'engram-config: \'{"cpu_offload": true, "dp_shared_memory": true}\'\nload-format: pt',
        "0.30.0",
    ),
    ("use-replayssm: true\nmamba-backend: triton", "0.28.0"),
    ("use-replayssm: true\nmamba-backend: flashinfer\nenable-prefix-caching: false", "0.32.0"),
    ("use-replayssm: true\nmamba-backend: triton\nenable-prefix-caching: true", "0.33.0"),
]


def _codes(tmp_path: Path, text: str, version: str) -> list[dict[str, object]]:
    path = tmp_path / "serve.yaml"
    path.write_text(text, encoding="utf-8")
    result = cli("check", str(path), "--format", "json", "--vllm-version", version)
    assert result.returncode in (0, 1), result.stderr
    return [r for r in json.loads(result.stdout) if r["severity"] == "error"]


@pytest.mark.parametrize(("setting", "code", "releases", "without", "phrase"), REFUSED)
def test_refused_by_the_releases_that_have_the_check(
    tmp_path: Path, setting: str, code: str, releases: tuple[str, ...], without: str, phrase: str
) -> None:
    assert_refused(tmp_path, f"model: m\n{setting}\n", code, releases, without, phrase)


def assert_refused(
    tmp_path: Path, text: str, code: str, releases: tuple[str, ...], without: str, phrase: str
) -> None:
    """The only error of each release in `releases` is `code` on the file's last line, in
    that release's name, saying `phrase`; `without` does not report `code`."""
    line = text.count("\n")  # the last setting's line
    for version in releases:
        rows = _codes(tmp_path, text, version)
        assert [(r["code"], r["line"]) for r in rows] == [(code, line)], (version, rows)
        assert phrase in str(rows[0]["message"]), rows
        assert f"vLLM {version}" in str(rows[0]["message"]), rows
    assert code not in [r["code"] for r in _codes(tmp_path, text, without)]


@pytest.mark.parametrize("setting", ACCEPTED)
@pytest.mark.parametrize("version", ["0.9.2", "0.10.2", "0.12.0"])
def test_near_miss_is_accepted(tmp_path: Path, setting: str, version: str) -> None:
    rows = _codes(tmp_path, f"model: m\n{setting}\n", version)
    assert not [r for r in rows if str(r["code"]) in OURS], rows


@pytest.mark.parametrize(("setting", "version"), ACCEPTED_LATER)
def test_near_miss_of_a_later_release_is_accepted(
    tmp_path: Path, setting: str, version: str
) -> None:
    rows = _codes(tmp_path, f"model: m\n{setting}\n", version)
    assert not [r for r in rows if str(r["code"]) in OURS], rows


@pytest.mark.parametrize(
    ("text", "version", "title", "kept"),
    [
        (
            "model: m\n"
            'compilation-config: \'{"full_cuda_graph": true, "cudagraph_mode": "FULL"}\'\n',
            "0.10.2",
            "Remove",
            '\'{"cudagraph_mode": "FULL"}\'',
        ),
        (
            "model: m\ncuda-graph-sizes: [1, 2]\n"
            "compilation-config: '{\"cudagraph_capture_sizes\": [1, 2, 4]}'\n",
            "0.12.0",
            "Remove `cuda-graph-sizes`",
            '{"cudagraph_capture_sizes": [1, 2, 4]}',
        ),
        (
            "model: m\n"
            'attention-config: \'{"use_fp4_indexer_cache": true, "indexer_kv_dtype": "fp8"}\'\n',
            "0.29.0",
            "Remove",
            '\'{"indexer_kv_dtype": "fp8"}\'',
        ),
        (
            'model: m\npooler-config: \'{"logit_bias": 0.5, "logit_mean": 0.5}\'\n',
            "0.22.1",
            "Remove",
            "'{\"logit_mean\": 0.5}'",
        ),
        (
            "model: m\ndata-parallel-size: 2\n"
            'engram-config: \'{"cpu_offload": true, "dp_shared_memory": true}\'\n'
            "load-format: dummy\n",
            "0.30.0",
            "Use `auto`",
            "load-format: auto",
        ),
        ("model: m\nuse-replayssm: true\nmamba-backend: cpu\n", "0.28.0", "Use", "backend: triton"),
        (
            'model: m\nprofiler-config: \'{"profiler": "proton", "proton_profiler_dir": "/p"}\'\n',
            "0.29.0",
            "Add",
            "enforce-eager: true",
        ),
        (
            "model: m\nwatermark-config: '{\"key\": 42}'\nspeculative-config: '%s'\n"
            % (NGRAM % '"prompt_lookup_max": 3, "draft_sample_method": "probabilistic"'),
            "0.31.0",
            "Remove `watermark-config`",
            "prompt_lookup_max",
        ),
    ],
)
def test_fix_applied_is_accepted(
    tmp_path: Path, text: str, version: str, title: str, kept: str
) -> None:
    """Each fix (as SARIF lists them all), applied, leaves a file the release starts, with
    the setting kept."""
    path = tmp_path / "serve.yaml"
    path.write_text(text, encoding="utf-8")
    result = cli("check", str(path), "--format", "sarif", "--vllm-version", version)
    (found,) = [r for r in json.loads(result.stdout)["runs"][0]["results"] if r["ruleId"] in OURS]
    (fix,) = [f for f in found["fixes"] if f["description"]["text"].startswith(title)]
    (change,) = fix["artifactChanges"]
    edits = [
        {
            "line": r["deletedRegion"]["startLine"],
            "column": r["deletedRegion"]["startColumn"],
            "end_line": r["deletedRegion"]["endLine"],
            "end_column": r["deletedRegion"]["endColumn"],
            "new_text": r["insertedContent"]["text"],
        }
        for r in change["replacements"]
    ]
    fixed = apply_json_fix(text, {"edits": edits})
    assert kept in fixed, fixed
    assert not _codes(tmp_path, fixed, version), fixed


def test_every_gone_refusal_has_a_rule_or_a_reason() -> None:
    """docs/catalogue/older-raises.json (tools/generate_older_raises.py): each refusal an
    older release has and 0.33.0 does not is transcribed by a rule or listed with the reason
    it is not (docs/catalogue/not-implemented/older-raises.json), and no reason is left for
    a refusal that is gone from the listing or now has a rule."""
    listing = json.loads((REPO / "docs/catalogue/older-raises.json").read_text("utf-8"))
    reasons = json.loads(
        (REPO / "docs/catalogue/not-implemented/older-raises.json").read_text("utf-8")
    )
    rows = {row["id"]: row for row in listing["refusals"]}
    assert all(row["status"] for row in rows.values()), [
        i for i, r in rows.items() if not r["status"]
    ]
    assert set(reasons) <= set(rows), set(reasons) - set(rows)
    ruled = [i for i in reasons if rows[i]["status"] != reasons[i]]
    assert not ruled, f"reasons left for refusals a rule transcribes: {ruled}"


REPLAYSSM_PREFIX = "use-replayssm: true\nmamba-backend: flashinfer\nenable-prefix-caching: true\n"
REPLAYSSM_SPEC_PREFIX = (
    "use-replayssm: true\nmamba-backend: flashinfer\nreplayssm-buffer-len: 8\n"
    "speculative-config: '%s'\nenable-prefix-caching: true\n" % (NGRAM % '"prompt_lookup_max": 3')
)


@pytest.mark.parametrize(
    ("version", "code", "phrase"),
    [
        ("0.33.0", "VC337", "FlashInfer ReplaySSM does not support prefix caching yet"),
        (
            "0.32.0",
            "VC834",
            "FlashInfer ReplaySSM does not support --mamba-cache-mode align yet; use none",
        ),
    ],
)
def test_replayssm_flashinfer_prefix_caching(
    tmp_path: Path, version: str, code: str, phrase: str
) -> None:
    """The Mamba prefix-caching check (`mamba_cache_mode` align) in 0.33.0's words (VC337)
    and in 0.32.0's, which named the mode (VC834); 0.31.0's check sits under another
    branch, and neither rule runs there."""
    rows = _codes(tmp_path, f"model: m\n{REPLAYSSM_PREFIX}", version)
    assert [(r["code"], r["line"]) for r in rows] == [(code, 4)], rows
    assert phrase in str(rows[0]["message"]), rows
    fine = REPLAYSSM_PREFIX.replace("prefix-caching: true", "prefix-caching: false")
    assert not _codes(tmp_path, f"model: m\n{fine}", version)
    older = _codes(tmp_path, f"model: m\n{REPLAYSSM_PREFIX}", "0.31.0")
    assert not {"VC337", "VC834"} & {r["code"] for r in older}, older


@pytest.mark.parametrize(
    ("version", "code", "phrase"),
    [
        (
            "0.33.0",
            "VC337",
            "FlashInfer ReplaySSM speculative decoding does not support prefix caching",
        ),
        (
            "0.32.0",
            "VC834",
            "FlashInfer ReplaySSM speculative decoding requires --mamba-cache-mode none",
        ),
    ],
)
def test_replayssm_speculative_prefix_caching(
    tmp_path: Path, version: str, code: str, phrase: str
) -> None:
    """A Mamba2 model (known from its config.json) refuses speculative ReplaySSM with Mamba
    prefix caching; a model vLLM cannot see yet may be a KDA one, which runs RecoverSSM:
    then it is a warning."""
    path = tmp_path / "serve.yaml"
    model = REPO / "tests/fixtures/models/state-spaces/mamba-130m-hf"
    for text, severity in (
        (f"model: m\n{REPLAYSSM_SPEC_PREFIX}", "warning"),
        (f"model: {model}\n{REPLAYSSM_SPEC_PREFIX}", "error"),
    ):
        path.write_text(text, encoding="utf-8")
        result = cli("check", str(path), "--format", "json", "--vllm-version", version)
        rows = [r for r in json.loads(result.stdout) if r["code"] == code and r["line"] == 6]
        assert [r["severity"] for r in rows] == [severity], rows
        assert phrase in str(rows[0]["message"]), rows
