"""The start-up warnings the model's config.json and the target GPU decide, through the CLI:
the checkpoint's config.json from the registry (Qwen/Qwen3-8B, bfloat16) or a model folder
(tests/fixtures/models: openai/whisper-small, google/gemma-2-2b-it), the target from the
marker comment. VC713: `dtype: auto` on a bfloat16 checkpoint below compute capability 8.0
runs in float16 (`_resolve_auto_dtype`, vllm/config/model.py:2457). VC715: an
encoder-decoder model on ROCm runs eager (`_verify_cuda_graph`, model.py:1491). (No GPU in
CI: not fidelity cases; the words are vLLM 0.33.0's.)"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from support import REPO, cli_command

QWEN = "model: Qwen/Qwen3-8B\n"


def check(tmp_path: Path, name: str, text: str, code: str = "VC713") -> list[dict[str, object]]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("HF_HOME", "VLLM_CONFIG_MODEL_DIRS")}
    env["HF_HUB_CACHE"] = str(tmp_path / "empty-hub")
    env["VLLM_CONFIG_MODEL_DIRS"] = str(REPO / "tests" / "fixtures" / "models")
    done = subprocess.run(
        [*cli_command(), "check", "--format", "json", name],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return [f for f in json.loads(done.stdout) if f["code"] == code]


@pytest.mark.parametrize(
    ("gpu", "name", "text", "line", "column"),
    [
        ("T4", "serve.vllm.yaml", QWEN, 2, 8),
        ("V100", "serve.vllm.yaml", QWEN + "dtype: auto\n", 3, 8),
        ("tesla-t4", "serve.sh", "vllm serve Qwen/Qwen3-8B --dtype auto\n", 2, 34),
    ],
)
def test_bfloat16_checkpoint_falls_back(
    tmp_path: Path, gpu: str, name: str, text: str, line: int, column: int
) -> None:
    (found,) = check(tmp_path, name, f"# vllm-config: gpu={gpu}\n" + text)
    assert found["severity"] == "warning"
    assert (found["line"], found["column"]) == (line, column)
    assert "doesn't support torch.bfloat16. Falling back to torch.float16" in str(found["message"])


@pytest.mark.parametrize(
    "text",
    [
        "# vllm-config: gpu=A100\n" + QWEN,  # Ampere runs bfloat16
        "# vllm-config: gpu=T4\n" + QWEN + "dtype: half\n",  # as written
        "# vllm-config: gpu=T4\nmodel: google/gemma-2-2b-it\n",  # a float32 checkpoint
        QWEN,  # no target
    ],
)
def test_no_fallback(tmp_path: Path, text: str) -> None:
    assert not check(tmp_path, "serve.vllm.yaml", text)


def offset(text: str, line: int, column: int) -> int:
    """The code-point offset of a 1-based line and column of `check --format json`."""
    lines = text.splitlines(keepends=True)
    return sum(len(part) for part in lines[: line - 1]) + column - 1


def apply(text: str, fix: object) -> str:
    """`text` with the edits of a `check --format json` fix applied."""
    assert isinstance(fix, dict)
    for edit in reversed(fix["edits"]):
        start = offset(text, edit["line"], edit["column"])
        end = offset(text, edit["end_line"], edit["end_column"])
        text = text[:start] + edit["new_text"] + text[end:]
    return text


def test_fix_says_what_vllm_does(tmp_path: Path) -> None:
    """The fix writes the dtype vLLM picks, and the file it gives has no finding."""
    text = "# vllm-config: gpu=T4\n" + QWEN
    (found,) = check(tmp_path, "serve.vllm.yaml", text)
    assert found["fix"]["title"] == "Add `dtype: float16`"  # type: ignore[index]
    text = apply(text, found["fix"])
    assert text.endswith("dtype: float16\n")
    assert not check(tmp_path, "fixed.vllm.yaml", text)


WHISPER = "model: openai/whisper-small\n"


@pytest.mark.parametrize(
    ("name", "text", "fixed"),
    [
        ("serve.vllm.yaml", WHISPER, WHISPER + "enforce-eager: true\n"),
        (
            "serve.sh",
            "vllm serve openai/whisper-small --max-model-len 448\n",
            "vllm serve openai/whisper-small --max-model-len 448 --enforce-eager\n",
        ),
    ],
)
def test_encoder_decoder_on_rocm_runs_eager(
    tmp_path: Path, name: str, text: str, fixed: str
) -> None:
    marker = "# vllm-config: gpu=MI300X\n"
    source = marker + text
    (found,) = check(tmp_path, name, source, "VC715")
    assert found["severity"] == "warning" and found["line"] == 2
    assert "CUDA graph is not supported for whisper on ROCm yet" in str(found["message"])
    source = apply(source, found["fix"])
    assert source == marker + fixed
    assert not check(tmp_path, "fixed" + Path(name).suffix, source, "VC715")


@pytest.mark.parametrize(
    "text",
    [
        "# vllm-config: gpu=H100\n" + WHISPER,  # CUDA keeps its graphs
        "# vllm-config: gpu=MI300X\n" + WHISPER + "enforce-eager: true\n",
        "# vllm-config: gpu=MI300X\n" + QWEN,  # not an encoder-decoder
    ],
)
def test_no_eager_fallback(tmp_path: Path, text: str) -> None:
    assert not check(tmp_path, "serve.vllm.yaml", text, "VC715")
