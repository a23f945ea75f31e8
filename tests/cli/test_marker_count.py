"""`# vllm-config: count=` states a number of GPUs: a positive one. `count=0` was taken as
zero GPUs (VC703 "world size 2 is larger than the 0 available GPUs", with a fix writing
`tensor-parallel-size: 0`) while `count=-1` was ignored; both are no statement now, as a
count of 5,000 digits is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import bounded_cli

CONFIG = "# vllm-config: gpu=H100{count}\nmodel: Qwen/Qwen3-8B\ntensor-parallel-size: 2\n"


def _codes(tmp_path: Path, count: str) -> list[str]:
    path = tmp_path / "serve.vllm.yaml"
    path.write_text(CONFIG.format(count=count))
    result = bounded_cli("check", "--format", "json", str(path))
    assert result.returncode in (0, 1), result.stderr[-2000:]
    return [row["code"] for row in json.loads(result.stdout)]


@pytest.mark.parametrize("count", [" count=0", " count=-1", " count=00", " count=" + "9" * 5000])
def test_a_count_that_is_no_positive_number_is_no_statement(tmp_path: Path, count: str) -> None:
    assert _codes(tmp_path, count) == _codes(tmp_path, "") == []


def test_a_positive_count_is_the_gpus_of_the_node(tmp_path: Path) -> None:
    assert _codes(tmp_path, " count=1") == ["VC703"]
