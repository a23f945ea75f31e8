"""The GPUs a file runs on, once something says so: what the PLATFORM rules and the memory
budget judge against. Nothing is guessed: without a target those checks say nothing.

The table is data (`schemas/gpus.json`, documented in schemas/README.md). Names are matched
leniently because every host spells them its own way: `H100-80GB` (the marker),
`nvidia-h100-80gb` (GKE's accelerator label), `NVIDIA-H100-80GB-HBM3` (the GPU operator's
`nvidia.com/gpu.product`), `h100` (a Slurm gres).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from vllm_config_lsp.document.markers import marker_spans
from vllm_config_lsp.sources.invocation import GpuClaim, NodeGroup

_PACKAGED = Path(__file__).parents[1] / "schemas" / "gpus.json"
_CHECKOUT = Path(__file__).resolve().parents[3] / "schemas" / "gpus.json"


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
    #: What `torch.cuda.get_device_capability()` returns, which vLLM's `current_platform`
    #: compares on both vendors (ROCm reports the gfx arch as (9, 4) for gfx942).
    device_capability: tuple[int, int] | None = None

    def describe(self) -> str:
        """`NVIDIA H100-SXM-80GB (79.6 GiB, compute capability 9.0, fp16/bf16/fp8)`."""
        arch = (
            f"compute capability {_dotted(self.compute_capability)}"
            if self.compute_capability is not None
            else f"{self.gfx_arch}"
        )
        kinds = "/".join(d for d in ("fp16", "bf16", "fp8", "fp4") if d in self.dtypes)
        gib = self.memory_bytes / 2**30
        return f"{self.vendor_name} {self.name} ({gib:.1f} GiB, {arch}, {kinds})"

    @property
    def vendor_name(self) -> str:
        return "NVIDIA" if self.vendor == "nvidia" else "AMD"


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
    #: The GPU's name as written; `gpu` is None when the table does not know it.
    written: str | None = None
    #: "nvidia" or "amd" when known (from the GPU, or from `amd.com/gpu`-style resources).
    vendor: str | None = None
    #: Where the count was read, when another statement than the GPU's says it.
    count_origin: str | None = None
    count_start: int = -1
    count_end: int = -1
    #: The nodes one instance spans, where the host says it (`sources.node_groups`):
    #: `count` stays each node's.
    group: NodeGroup | None = None

    def describe(self) -> str:
        """`8 x NVIDIA H100-SXM-80GB (…)`, or what is known of it."""
        what = self.gpu.describe() if self.gpu is not None else "GPUs of an unknown model"
        if self.gpu is None and self.written:
            what = f"{self.written!r} (not in the GPU table)"
        return f"{self.count} x {what}" if self.count is not None else what

    def spans(self) -> list[tuple[int, int, str]]:
        """The document texts that say it, each with where it was read."""
        found = []
        if self.start >= 0:
            found.append((self.start, self.end, self.origin))
        if self.count_start >= 0 and self.count_origin is not None:
            found.append((self.count_start, self.count_end, self.count_origin))
        return found


@dataclass(frozen=True)
class Stated:
    """A target the user gives outside the document: `--gpu NAME --gpus N`, or the editor's
    `vllmConfig.gpu` / `vllmConfig.gpuCount`."""

    gpu: str | None
    count: int | None
    origin: str
    #: Where the count was given (`--gpus`, `setting vllmConfig.gpuCount`).
    count_origin: str = ""


def _dotted(capability: tuple[int, int] | None) -> str:
    return "" if capability is None else f"{capability[0]}.{capability[1]}"


def _capability(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    major, _, minor = text.partition(".")
    return int(major), int(minor or 0)


def _row(row: dict[str, Any]) -> Gpu:
    capability = _capability(row.get("compute_capability"))
    return Gpu(
        name=row["name"],
        vendor=row["vendor"],
        memory_bytes=int(row["memory_mib"]) * 2**20,
        compute_capability=capability,
        gfx_arch=row.get("gfx_arch"),
        dtypes=frozenset(row.get("dtypes", ())),
        device_capability=capability or _capability(row.get("device_capability")),
    )


@cache
def _table() -> dict[str, Any]:
    path = _PACKAGED if _PACKAGED.is_file() else _CHECKOUT
    table: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return table


@cache
def gpus() -> tuple[Gpu, ...]:
    """Every GPU of the table, in its order."""
    return tuple(_row(row) for row in _table()["gpus"])


_PREFIXES = ("nvidia-", "amd-", "tesla-", "geforce-", "instinct-", "radeon-")
_MEMORY = re.compile(r"-(\d+)g(?:i?b)?$")


def _key(name: str) -> str:
    """`NVIDIA Tesla-T4` → `t4`, `a100_80g` → `a100-80gb`: case, separators, vendor words."""
    key = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    stripped = True
    while stripped:
        stripped = False
        for prefix in _PREFIXES:
            if key.startswith(prefix):
                key, stripped = key[len(prefix) :], True
    return _MEMORY.sub(lambda m: f"-{m.group(1)}gb", key)


@cache
def _index() -> dict[str, Gpu]:
    index: dict[str, Gpu] = {}
    for gpu, row in zip(gpus(), _table()["gpus"], strict=True):
        for name in (row["name"], *row.get("aliases", ())):
            index.setdefault(_key(name), gpu)
    return index


def find_gpu(name: str) -> Gpu | None:
    """The table's GPU for a name as some host writes it; None when it is not known. A
    memory size the table does not name (`h100-96gb`) is no match: it is another GPU."""
    key = _key(name)
    index = _index()
    if key in index:
        return index[key]
    bare = _MEMORY.sub("", key)
    if bare != key:
        return None
    family = [gpu for k, gpu in index.items() if _MEMORY.sub("", k) == key]
    return family[0] if len({gpu.name for gpu in family}) == 1 else None


def suggestions(name: str) -> list[str]:
    """The table's names closest to an unknown one (did you mean)."""
    by_key = {_key(gpu.name): gpu.name for gpu in gpus()}
    close = difflib.get_close_matches(_key(name), list(_index()), n=3, cutoff=0.6)
    names = [_index()[key].name for key in close]
    names += [by_key[k] for k in difflib.get_close_matches(_key(name), list(by_key), n=3)]
    return list(dict.fromkeys(names))[:3]


def instance_gpu(instance_type: str) -> str | None:
    """The GPU of an AWS instance type (`p5.48xlarge` → H100), for EKS node selectors."""
    family = instance_type.lower().split(".", 1)[0]
    families: dict[str, str] = _table().get("aws_instance_families", {})
    return families.get(family)


def _marker_target(text: str, spans: Mapping[str, tuple[str, int, int]] | None) -> list[GpuClaim]:
    spans = marker_spans(text) if spans is None else spans
    claims = []
    if "gpu" in spans:
        value, start, end = spans["gpu"]
        claims.append(GpuClaim("the `# vllm-config:` comment", start, end, name=value))
    if "count" in spans:
        value, start, end = spans["count"]
        # a count of GPUs is positive (`count=0` is no statement, as `count=-1` is)
        if value.isascii() and value.isdigit() and len(value) <= 6 and int(value) > 0:
            claims.append(GpuClaim("the `# vllm-config:` comment", start, end, count=int(value)))
    return claims


def _stated_claims(stated: Stated | None) -> list[GpuClaim]:
    if stated is None:
        return []
    claims = []
    if stated.gpu:
        claims.append(GpuClaim(stated.origin, -1, -1, name=stated.gpu))
    if stated.count is not None:
        claims.append(GpuClaim(stated.count_origin or stated.origin, -1, -1, count=stated.count))
    return claims


def _named_gpu(claim: GpuClaim | None) -> Gpu | None:
    if claim is None or not claim.name:
        return None
    if "instance-type" in claim.origin:
        instance = instance_gpu(claim.name)
        return find_gpu(instance) if instance is not None else None
    return find_gpu(claim.name)


def resolve_target(
    text: str,
    claims: Sequence[GpuClaim] = (),
    stated: Stated | None = None,
    *,
    marker: Mapping[str, tuple[str, int, int]] | None = None,
) -> Target | None:
    """The target, most specific first: the marker comment, then what the user states
    (CLI, editor setting), then what the document says around the command line. The GPU's
    model and the count are each taken from the first statement that has it. `marker`: the
    text's `marker_spans` when the caller has them already."""
    ordered = [*_marker_target(text, marker), *_stated_claims(stated), *claims]
    named = next((c for c in ordered if c.name), None)
    counted = next((c for c in ordered if c.count is not None), None)
    group = next((c.group for c in ordered if c.group is not None), None)
    if named is None and counted is None:
        return None
    gpu = _named_gpu(named)
    vendor = gpu.vendor if gpu is not None else next((c.vendor for c in ordered if c.vendor), None)
    first = named or counted
    assert first is not None
    other = counted if counted is not None and counted is not first else None
    return Target(
        gpu=gpu,
        count=counted.count if counted is not None else None,
        origin=first.origin,
        start=first.start,
        end=first.end,
        written=named.name if named is not None else None,
        vendor=vendor,
        count_origin=other.origin if other is not None else None,
        count_start=other.start if other is not None else -1,
        count_end=other.end if other is not None else -1,
        group=group,
    )


@cache
def platform_table(version: str) -> dict[str, Any]:
    """What a release's platform checks compare with the GPU (`schemas/vllm-<version>.
    platform.json`, generated from its wheel); empty for a release without one."""
    for folder in (_PACKAGED.parent, _CHECKOUT.parent):
        path = folder / f"vllm-{version}.platform.json"
        if path.is_file():
            table: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            return table
    return {}
