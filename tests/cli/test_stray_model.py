"""A stray value argparse takes as the model: an error where no model can be called that
(vLLM stops loading it), a warning where the word may name a model (issue 20)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import cli


@pytest.mark.parametrize(
    ("body", "word"),
    [
        ("max-num-seqs: [8, 16]\n", "16"),
        ("enable-chunked-prefill: Null\n", "None"),
        ('enforce-eager: "true"\n', "true"),
        ("enable-prefix-caching: 'false'\n", "false"),
        ("max-num-seqs: [8, 1.5e+3]\n", "1500.0"),
    ],
)
def test_a_word_no_model_is_named_stops_the_start(tmp_path: Path, body: str, word: str) -> None:
    config = tmp_path / "serve.vllm.yaml"
    config.write_text("model: Qwen/Qwen3-8B\n" + body, encoding="utf-8")
    done = cli("check", "--vllm-version", "0.33.0", str(config))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "error VC106" in done.stdout, done.stdout
    assert f"Invalid repository ID or local directory specified: '{word}'" in done.stdout


def test_a_word_that_may_name_a_model_is_a_warning(tmp_path: Path) -> None:
    config = tmp_path / "serve.vllm.yaml"
    config.write_text("model: m\nenforce-eager: Qwen/Qwen3-8B\n", encoding="utf-8")
    done = cli("check", "--vllm-version", "0.33.0", str(config))
    assert "warning VC106" in done.stdout, done.stdout
    assert "error" not in done.stdout, done.stdout
