"""The GPU table (schemas/gpus.json) and how hosts' names for GPUs are matched to it."""

from __future__ import annotations

import json

import pytest
from support import REPO
from vllm_config_lsp.vllm.hardware import find_gpu, gpus, instance_gpu, suggestions

TABLE = json.loads((REPO / "schemas" / "gpus.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("row", TABLE["gpus"], ids=lambda row: row["name"])
def test_every_row_says_where_it_is_from(row: dict[str, object]) -> None:
    assert row["vendor"] in ("nvidia", "amd")
    sources = row["sources"]
    assert isinstance(sources, list) and all(str(s).startswith("https://") for s in sources)
    assert isinstance(row["memory_mib"], int) and row["memory_mib"] > 8192
    arch = "compute_capability" if row["vendor"] == "nvidia" else "gfx_arch"
    assert row.get(arch), arch
    dtypes = row["dtypes"]
    assert isinstance(dtypes, list) and "fp16" in dtypes
    assert set(dtypes) <= {"fp16", "bf16", "fp8", "fp4"}


def test_names_and_instance_families_are_the_tables() -> None:
    names = [gpu.name for gpu in gpus()]
    assert len(names) == len(set(names))
    assert set(TABLE["aws_instance_families"].values()) <= set(names)


@pytest.mark.parametrize(
    ("written", "name"),
    [
        ("H100-80GB", "H100-SXM-80GB"),  # the marker's spelling
        ("nvidia-h100-80gb", "H100-SXM-80GB"),  # GKE's accelerator label
        ("NVIDIA-H100-80GB-HBM3", "H100-SXM-80GB"),  # the GPU operator's gpu.product
        ("h100", "H100-SXM-80GB"),  # a Slurm gres
        ("NVIDIA H100 PCIe", "H100-PCIE-80GB"),
        ("nvidia-tesla-t4", "T4"),
        ("Tesla-V100-SXM2-16GB", "V100-16GB"),
        ("a100_80g", "A100-SXM4-80GB"),
        ("NVIDIA-A100-SXM4-40GB", "A100-SXM4-40GB"),
        ("H200", "H200-141GB"),
        ("NVIDIA-GeForce-RTX-4090", "RTX-4090-24GB"),
        ("AMD Instinct MI300X", "MI300X-192GB"),
        ("mi355x", "MI355X-288GB"),
    ],
)
def test_names_match_leniently(written: str, name: str) -> None:
    gpu = find_gpu(written)
    assert gpu is not None and gpu.name == name


def test_unknown_names_match_nothing_and_get_suggestions() -> None:
    assert find_gpu("H100-96GB") is None  # another memory size is another GPU
    assert find_gpu("K80") is None
    assert "H100-SXM-80GB" in suggestions("H1OO-80GB")


def test_instance_types() -> None:
    assert instance_gpu("p5.48xlarge") == "H100-SXM-80GB"
    assert instance_gpu("g6e.12xlarge") == "L40S"
    assert instance_gpu("m5.large") is None
