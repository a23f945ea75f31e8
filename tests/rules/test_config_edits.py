"""Fixes that rules state as argv-level intent and `sources.config_edits` writes as YAML
(issue 27): each fix applied gives exactly the expected file (so the rest is untouched),
the file still loads, and the CLI no longer reports the finding."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from support import check_file
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import apply_edits

#: (code, release or None, the file, each fix's title and the file it gives).
CASES = [
    (
        "VC304",
        None,
        "model: my-org/llama-fbgemm-fp8\nquantization: fbgemm_fp8  # old\nmax-model-len: 4096\n",
        [
            (
                "Add `allow-deprecated-quantization: true`",
                "model: my-org/llama-fbgemm-fp8\nquantization: fbgemm_fp8  # old\n"
                "allow-deprecated-quantization: true\nmax-model-len: 4096\n",
            )
        ],
    ),
    (
        "VC304",
        None,
        "model: m/q\nquantization: fbgemm_fp8\nallow_deprecated_quantization: false\n",
        [
            (
                "Set `allow_deprecated_quantization: true`",
                "model: m/q\nquantization: fbgemm_fp8\nallow_deprecated_quantization: true\n",
            )
        ],
    ),
    (
        "VC205",
        None,
        'model: m/q\nallowed-origins: ["https://example.com"]\nmax-model-len: 4096\n',
        [
            (
                "Write the JSON string '[\"https://example.com\"]'",
                "model: m/q\nallowed-origins: '[\"https://example.com\"]'\nmax-model-len: 4096\n",
            )
        ],
    ),
    (
        "VC205",
        "0.9.2",
        "model: m/q\nhf-overrides:\n  a: 1  # note\nmax-model-len: 4096\n",
        [
            (
                "Write the JSON string '{\"a\": 1}'",
                "model: m/q\nhf-overrides: '{\"a\": 1}'  # note\nmax-model-len: 4096\n",
            )
        ],
    ),
    (
        "VC405",
        None,
        "model: Qwen/Qwen3-8B\ncompilation-config:\n"
        "  decoder_replay_cudagraph_capture_sizes: [0, 8, 16]  # sizes\nmax-model-len: 4096\n",
        [
            (
                "Remove the non-positive sizes",
                "model: Qwen/Qwen3-8B\ncompilation-config:\n"
                "  decoder_replay_cudagraph_capture_sizes: [8, 16]  # sizes\n"
                "max-model-len: 4096\n",
            )
        ],
    ),
    (
        "VC301",
        None,
        "model: Qwen/Qwen2.5-VL-7B-Instruct\ncompilation-config.cudagraph_mm_encoder: true\n"
        "compilation-config.encoder_cudagraph_token_budgets: [0, 2048]\nmax-model-len: 4096\n",
        [
            (
                "Remove the non-positive budget (keep [2048])",
                "model: Qwen/Qwen2.5-VL-7B-Instruct\n"
                "compilation-config.cudagraph_mm_encoder: true\n"
                "compilation-config.encoder_cudagraph_token_budgets: [2048]\n"
                "max-model-len: 4096\n",
            ),
            (
                "Remove `compilation-config.encoder_cudagraph_token_budgets`",
                "model: Qwen/Qwen2.5-VL-7B-Instruct\n"
                "compilation-config.cudagraph_mm_encoder: true\nmax-model-len: 4096\n",
            ),
        ],
    ),
    (
        "VC512",
        None,
        "model: Qwen/Qwen2.5-7B-Instruct\nmax-cudagraph-capture-size: 256\n"
        "compilation-config:\n  max_cudagraph_capture_size: 128\n  mode: 3\n",
        [
            (
                "Remove `compilation-config.max_cudagraph_capture_size` "
                "(keep `max-cudagraph-capture-size`)",
                "model: Qwen/Qwen2.5-7B-Instruct\nmax-cudagraph-capture-size: 256\n"
                "compilation-config:\n  mode: 3\n",
            ),
            (
                "Remove `max-cudagraph-capture-size` "
                "(keep `compilation-config.max_cudagraph_capture_size`)",
                "model: Qwen/Qwen2.5-7B-Instruct\n"
                "compilation-config:\n  max_cudagraph_capture_size: 128\n  mode: 3\n",
            ),
        ],
    ),
    (
        "VC319",
        None,
        "model: meta-llama/Llama-3.1-8B-Instruct\nray-workers-use-nsight: true  # profile\n"
        "max-model-len: 4096\n",
        [
            (
                "Add `distributed-executor-backend: ray`",
                "model: meta-llama/Llama-3.1-8B-Instruct\nray-workers-use-nsight: true  # profile\n"
                "distributed-executor-backend: ray\nmax-model-len: 4096\n",
            ),
            (
                "Remove `ray-workers-use-nsight`",
                "model: meta-llama/Llama-3.1-8B-Instruct\nmax-model-len: 4096\n",
            ),
        ],
    ),
]


@pytest.mark.parametrize(("code", "release", "text", "expected"), CASES)
def test_fix_gives_the_file_and_the_finding_goes(
    tmp_path: Path, code: str, release: str | None, text: str, expected: list[tuple[str, str]]
) -> None:
    marker = f"# vllm-config: version={release}\n" if release else ""
    text = marker + text
    found = [f for f in lint(text, path=tmp_path / "serve.yaml").findings if f.code == code]
    assert len(found) == 1, found
    fixes = [(fix.title, apply_edits(text, fix.edits)) for fix in found[0].fixes]
    assert fixes == [(title, marker + fixed) for title, fixed in expected]
    for _, fixed in fixes:
        yaml.safe_load(fixed)  # still YAML
        rows = check_file(tmp_path, fixed)
        assert code not in {row["code"] for row in rows}, rows
