"""The product's first promise: the encoder budget mistake, caught at the element, in every
spelling a config can use, through the real CLI, and repaired by `--fix`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from support import cli

SEED = """model: Qwen/Qwen2.5-VL-7B-Instruct
compilation-config:
  cudagraph_mm_encoder: true
  encoder_cudagraph_token_budgets: [0, 2048, 4096]
"""

#: (file text, 1-based line and column of the offending `0`)
SPELLINGS = {
    "mapping": (SEED, 4, 37),
    "json-string": (
        "model: m\ncompilation-config: '{\"encoder_cudagraph_token_budgets\": [0, 2048]}'\n",
        2,
        59,
    ),
    "json-string-double-quoted": (
        "model: m\n"
        'compilation-config: "{\\"cudagraph_mm_encoder\\": true, '
        '\\"encoder_cudagraph_token_budgets\\": [2048, 0]}"\n',
        2,
        None,
    ),
    "dotted": ("model: m\ncompilation-config.encoder_cudagraph_token_budgets: [0]\n", 2, 54),
    "underscore": (
        "model: m\ncompilation_config:\n  encoder_cudagraph_token_budgets: [0, 2048, 4096]\n",
        3,
        37,
    ),
    "block-json": (
        "model: m\ncompilation-config: |\n  {\n"
        '    "cudagraph_mm_encoder": true,\n'
        '    "encoder_cudagraph_token_budgets": [0, 2048, 4096]\n  }\n',
        5,
        41,
    ),
    "folded-json": (
        'model: m\ncompilation-config: >\n  {"encoder_cudagraph_token_budgets":\n  [4096, 0]}\n',
        4,
        10,
    ),
}


def _seed_rows(path: Path) -> list[dict[str, object]]:
    result = cli("check", str(path), "--format", "json")
    assert result.returncode == 1, result.stderr
    return [row for row in json.loads(result.stdout) if row["code"] == "VC301"]


@pytest.mark.parametrize("name", sorted(SPELLINGS))
def test_points_at_the_zero(tmp_path: Path, name: str) -> None:
    text, line, column = SPELLINGS[name]
    path = tmp_path / "serve.vllm.yaml"
    path.write_text(text)
    [row] = _seed_rows(path)
    assert row["severity"] == "error"
    assert str(row["message"]).startswith(
        "All encoder_cudagraph_token_budgets must be positive, got ["
    )
    source_line = text.splitlines()[int(row["line"]) - 1]  # type: ignore[call-overload]
    assert source_line[int(row["column"]) - 1] == "0"  # type: ignore[call-overload]
    assert int(row["end_column"]) == int(row["column"]) + 1  # type: ignore[call-overload]
    if column is not None:
        assert (row["line"], row["column"]) == (line, column)


def test_text_output_is_ruff_style(tmp_path: Path) -> None:
    path = tmp_path / "x.vllm.yaml"
    path.write_text(SEED)
    result = cli("check", str(path))
    assert result.returncode == 1
    first = result.stdout.splitlines()[0]
    assert first == (
        f"{path}:4:37: error VC301 All encoder_cudagraph_token_budgets must be positive, "
        "got [0, 2048, 4096]: remove the non-positive budget(s), or remove the option to "
        "let vLLM choose"
    )
    assert "fix: Remove the non-positive budget (keep [2048, 4096])" in result.stdout
    assert "Remove `encoder_cudagraph_token_budgets`" in result.stdout


@pytest.mark.parametrize("name", sorted(SPELLINGS))
def test_fix_repairs_every_spelling(tmp_path: Path, name: str) -> None:
    text, _, _ = SPELLINGS[name]
    path = tmp_path / "serve.vllm.yaml"
    path.write_text("# deployment notes stay\n" + text + "# trailing comment stays\n")
    cli("check", str(path), "--fix")
    fixed = path.read_text()
    assert fixed.startswith("# deployment notes stay\n")
    assert fixed.endswith("# trailing comment stays\n")
    data = yaml.safe_load(fixed)
    assert isinstance(data, dict)
    after = json.loads(cli("check", str(path), "--format", "json").stdout)
    assert not [row for row in after if row["code"] == "VC301"], fixed


def test_fix_keeps_the_positive_budgets(tmp_path: Path) -> None:
    path = tmp_path / "serve.vllm.yaml"
    path.write_text(SEED)
    result = cli("check", str(path), "--fix")
    assert result.returncode == 0, result.stdout
    assert yaml.safe_load(path.read_text())["compilation-config"] == {
        "cudagraph_mm_encoder": True,
        "encoder_cudagraph_token_budgets": [2048, 4096],
    }
    assert path.read_text() == SEED.replace("[0, 2048, 4096]", "[2048, 4096]")


def test_positive_budgets_are_clean(tmp_path: Path) -> None:
    path = tmp_path / "serve.vllm.yaml"
    path.write_text(SEED.replace("[0, ", "["))
    result = cli("check", str(path))
    assert result.returncode == 0, result.stdout
    assert result.stdout == ""
