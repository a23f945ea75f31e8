"""The differential fuzzer's generator reaches the classes of refusal that fresh seeds found
missed (issue 33 item 3), because its `siblings` mutation sets together the keys one vLLM
check reads (docs/catalogue/vllm-rules-0.33.0.json) rather than two settings drawn from the
whole catalogue. Generation only: no oracle, no engine."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest
import yaml
from support import REPO

sys.path.insert(0, str(REPO / "tools"))
import differential_fuzz

HUGE = 2**63


def _external_lb_without_dp(d: dict[str, Any]) -> bool:
    return d.get("data-parallel-external-lb") is True and d.get("data-parallel-size", 1) == 1


def _huge_limit(d: dict[str, Any]) -> bool:
    return any(isinstance(v, int) and v >= HUGE for v in d.values() if not isinstance(v, bool))


def _local_above_dp(d: dict[str, Any]) -> bool:
    local, size = d.get("data-parallel-size-local"), d.get("data-parallel-size", 1)
    return isinstance(local, int) and isinstance(size, int) and local > size


def _pooler_null_with_mean(d: dict[str, Any]) -> bool:
    pooler = d.get("pooler-config")
    return isinstance(pooler, dict) and "MEAN" in pooler.values() and None in pooler.values()


@pytest.fixture(scope="module")
def generated() -> list[dict[str, Any]]:
    catalogue = differential_fuzz.load_catalogue("0.33.0")
    generator = differential_fuzz.Generator(catalogue, [{"model": "m"}])
    cases = []
    for seed in (25, 26, 27, 28):
        for case in generator.generate(seed, 1500):
            data = yaml.safe_load(case.text)
            if isinstance(data, dict):
                cases.append(data)
    return cases


@pytest.mark.parametrize(
    "wanted",
    [_external_lb_without_dp, _huge_limit, _local_above_dp, _pooler_null_with_mean],
    ids=lambda f: f.__name__.strip("_"),
)
def test_each_missed_class_is_generated(
    generated: list[dict[str, Any]], wanted: Callable[[dict[str, Any]], bool]
) -> None:
    assert any(wanted(d) for d in generated)


def test_siblings_set_the_keys_of_one_check() -> None:
    catalogue = differential_fuzz.load_catalogue("0.33.0")
    generator = differential_fuzz.Generator(catalogue, [{"model": "m"}])
    groups = set(generator.siblings)
    assert ("data-parallel-size-local", "data-parallel-size") in groups
    assert ("max-num-batched-tokens", "max-num-seqs") in groups
    for group in groups:
        assert all(key.split(".", 1)[0] in catalogue.flags for key in group), group


def test_a_vllm_warning_no_finding_quotes_is_a_mismatch() -> None:
    verdict = {
        "vllm_ok": True,
        "vllm_warnings": ["WARNING: Casting torch.bfloat16 to torch.float16."],
    }
    quoted = [{"message": "Casting torch.bfloat16 to torch.float16: the checkpoint is bf16"}]
    assert differential_fuzz.unquoted_warnings(verdict, quoted) == []
    assert differential_fuzz.unquoted_warnings(verdict, [{"message": "something else"}]) == [
        "WARNING: Casting torch.bfloat16 to torch.float16."
    ]
    assert differential_fuzz.unquoted_warnings({**verdict, "vllm_ok": False}, []) == []
