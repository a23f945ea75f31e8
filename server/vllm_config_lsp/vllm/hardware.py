"""The GPUs a file runs on, once something says so: what the PLATFORM rules and the memory
budget judge against. Nothing is guessed: without a target those checks say nothing."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Gpu:
    """One row of the GPU table (`schemas/gpus.json`)."""

    name: str
    vendor: str  # "nvidia" or "amd"
    memory_bytes: int
    #: NVIDIA compute capability (8, 0); None for AMD.
    compute_capability: tuple[int, int] | None = None
    #: AMD gfx architecture ("gfx942"); None for NVIDIA.
    gfx_arch: str | None = None
    #: Dtypes the tensor cores run: a subset of {"fp16", "bf16", "fp8", "fp4"}.
    dtypes: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Target:
    """What the file (or the editor setting, or the CLI) says the server runs on."""

    gpu: Gpu | None
    #: GPUs the server gets (per node); None when only the model of GPU is known.
    count: int | None
    #: Where it was read, for hover and messages ("# vllm-config: gpu=…",
    #: "resources.limits nvidia.com/gpu", "--gpu", "setting vllmConfig.gpu", …).
    origin: str
    #: Offsets of the text that says it in this document; (-1, -1) when it came from outside.
    start: int = -1
    end: int = -1
