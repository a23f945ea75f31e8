"""What a host document says about the GPUs a start of vLLM gets, as written.

Each host says it its own way: a Kubernetes container's `resources.limits` and its pod's
node selectors, a compose service's device reservations, a batch script's `#SBATCH` lines,
`CUDA_VISIBLE_DEVICES=0,1` in front of the command. The claims carry the text and its
offsets only; `vllm.hardware` matches the names against the GPU table.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from yaml.nodes import MappingNode, Node

from vllm_config_lsp.sources import yaml_hosts
from vllm_config_lsp.sources.invocation import GpuClaim, Invocation

#: Extended resources of the GPU device plugins, and the vendor each names.
_RESOURCES = {"nvidia.com/gpu": "nvidia", "amd.com/gpu": "amd"}
#: Node labels that name the GPU model (GKE, the GPU operator's feature discovery,
#: Karpenter, and the instance type EKS nodes carry).
_NAME_LABELS = (
    "cloud.google.com/gke-accelerator",
    "nvidia.com/gpu.product",
    "karpenter.k8s.aws/instance-gpu-name",
    "node.kubernetes.io/instance-type",
    "beta.kubernetes.io/instance-type",
)


def _written_count(text: str | None, digits: int) -> int | None:
    """A GPU count as the hosts' own parsers take it: ASCII digits only (`str.isdigit`
    also holds for `²` and other scripts' digits, which `int()` refuses or the host does
    not mean), at most `digits` of them, which keeps a pasted number from claiming a world."""
    if text is None or not (text.isascii() and text.isdigit() and len(text) <= digits):
        return None
    return int(text)


def _count(node: Node | None) -> int | None:
    return _written_count(yaml_hosts.text_of(node), 5)


def kubernetes(
    frame: yaml_hosts.Frame, pod: MappingNode, container: MappingNode
) -> tuple[GpuClaim, ...]:
    """The container's GPU limit (requests when no limit), then the model its pod's node
    selectors or required node affinity name."""
    claims: list[GpuClaim] = []
    resources = yaml_hosts.get(container, "resources")
    for section in ("limits", "requests"):
        for key, value in yaml_hosts.pairs(yaml_hosts.get(resources, section)):
            vendor = _RESOURCES.get(yaml_hosts.text_of(key) or "")
            count = _count(value)
            if vendor is not None and count is not None and not claims:
                start, end = yaml_hosts.node_span(frame, value)
                origin = f"resources.{section} {yaml_hosts.text_of(key)}"
                claims.append(GpuClaim(origin, start, end, count=count, vendor=vendor))
    claims.extend(_selectors(frame, pod))
    return tuple(claims)


def _selectors(frame: yaml_hosts.Frame, pod: MappingNode) -> Iterator[GpuClaim]:
    for key, value in yaml_hosts.pairs(yaml_hosts.get(pod, "nodeSelector")):
        label = yaml_hosts.text_of(key)
        name = yaml_hosts.text_of(value)
        if label in _NAME_LABELS and name:
            start, end = yaml_hosts.node_span(frame, value)
            yield GpuClaim(f"nodeSelector {label}", start, end, name=name)
    affinity = yaml_hosts.get(yaml_hosts.get(pod, "affinity"), "nodeAffinity")
    required = yaml_hosts.get(affinity, "requiredDuringSchedulingIgnoredDuringExecution")
    yield from _terms(frame, yaml_hosts.get(required, "nodeSelectorTerms"))


def _terms(frame: yaml_hosts.Frame, terms: Node | None) -> Iterator[GpuClaim]:
    """The GPU model required `nodeSelectorTerms` name (one value `In` a model label)."""
    for term in yaml_hosts.items(terms):
        for expression in yaml_hosts.items(yaml_hosts.get(term, "matchExpressions")):
            label = yaml_hosts.text_of(yaml_hosts.get(expression, "key"))
            values = yaml_hosts.items(yaml_hosts.get(expression, "values"))
            operator = yaml_hosts.text_of(yaml_hosts.get(expression, "operator"))
            if label in _NAME_LABELS and operator == "In" and len(values) == 1:
                name = yaml_hosts.text_of(values[0])
                if name:
                    start, end = yaml_hosts.node_span(frame, values[0])
                    yield GpuClaim(f"nodeAffinity {label}", start, end, name=name)


def production_stack(frame: yaml_hosts.Frame, spec: MappingNode) -> tuple[GpuClaim, ...]:
    """A production-stack chart `modelSpec[]` entry's GPUs, as the chart renders them
    (vllm-project/production-stack helm/templates/_helpers.tpl@18328b50 `chart.resources`:
    `requestGPU` above 0 becomes `<requestGPUType, default nvidia.com/gpu>: N` in requests
    and limits; deployment-vllm-multi.yaml@010004ee: `nodeSelectorTerms`, when no
    `nodeName`, become the pod's required node affinity). A GPU type of another resource
    (a MIG slice) says nothing here."""
    claims: list[GpuClaim] = []
    value = yaml_hosts.get(spec, "requestGPU")
    kind = yaml_hosts.text_of(yaml_hosts.get(spec, "requestGPUType")) or "nvidia.com/gpu"
    count = _count(value)
    if value is not None and count and kind in _RESOURCES:
        start, end = yaml_hosts.node_span(frame, value)
        claims.append(GpuClaim("requestGPU", start, end, count=count, vendor=_RESOURCES[kind]))
    if yaml_hosts.get(spec, "nodeName") is None:
        claims.extend(_terms(frame, yaml_hosts.get(spec, "nodeSelectorTerms")))
    return tuple(claims)


def dstack(frame: yaml_hosts.Frame, resources: Node | None) -> tuple[GpuClaim, ...]:
    """A dstack run's `resources.gpu`, as dstack reads it (dstackai/dstack
    src/dstack/_internal/core/models/resources.py@7058a369 `GPUSpec.parse`): a string of
    `:`-separated tokens — a vendor (`nvidia`, `amd`), a name (a token starting with a
    letter; `A100,H100` are alternatives), a memory (`24GB`, `40GB..`), a count (`2`,
    `1..2`) — or a mapping of `name`/`count`/`memory`. The count, one GPU when not written,
    holds only when fixed; the name only when one is written and, for an A100 (40 or 80 GB),
    with its memory."""
    value = yaml_hosts.get(resources, "gpu")
    if value is None:
        return ()
    spec: dict[str, str] = {}
    if isinstance(value, MappingNode):
        for key in ("vendor", "name", "count", "memory"):
            written = yaml_hosts.text_of(yaml_hosts.get(value, key))
            if written is not None:
                spec[key] = written.replace(" ", "")
    else:
        for token in (yaml_hosts.text_of(value) or "").replace(" ", "").split(":"):
            kind = _dstack_token(token)
            if not token or kind in spec:
                return ()  # dstack refuses the spec
            spec[kind] = token
    vendor = spec.get("vendor", "").lower() or None
    name = spec.get("name")
    if vendor in ("tpu", "google") or (name is not None and _TPU_SLICE.fullmatch(name)):
        return ()  # a TPU slice: no GPU at all
    low, dots, high = spec.get("count", "1").partition("..")
    count_text = low if not dots or high == low else ""  # a range holds only when fixed
    count = _written_count(count_text, 4)
    if name is not None and "," in name:
        name = None  # alternatives
    if name is not None and name.upper() == "A100":
        memory = spec.get("memory", "").upper()
        name = f"A100-{memory}" if memory in ("40GB", "80GB") else None
    if not count and name is None:
        return ()
    start, end = yaml_hosts.node_span(frame, value)
    return (GpuClaim("resources.gpu", start, end, count or None, name, vendor),)


#: Google TPU slices (`v5litepod-4`, `v6e-8`, `tpu-v3-8`), which dstack reads as TPU names.
_TPU_SLICE = re.compile(r"(?:tpu-)?v\d+[a-z]*-\d+", re.IGNORECASE)


def _dstack_token(token: str) -> str:
    """What one token of a dstack GPU spec is, in `GPUSpec.parse`'s order."""
    if token.lower() in ("nvidia", "amd", "intel", "tpu", "google", "tenstorrent"):
        return "vendor"
    if token[:1].isalpha():  # a GPU name starts with a letter
        return "name"
    return "memory" if any(char.isalpha() for char in token) else "count"


#: Baseten Truss accelerators (basetenlabs/truss truss/base/truss_config.py@0089d44f
#: `Accelerator`, with the later `A100_40GB`, `H200`, `B200`) → the GPU table's name; Baseten's
#: reference gives `A100` and `H100` as the 80 GB parts. `H100_40GB` is a MIG slice: no
#: GPU the table knows (the count still holds).
_TRUSS = {
    "T4": "T4",
    "L4": "L4",
    "A10G": "A10G",
    "V100": "V100",
    "A100": "A100-80GB",
    "A100_40GB": "A100-40GB",
    "H100": "H100-80GB",
    "H100_40GB": None,
    "H200": "H200",
    "B200": "B200",
}


def truss(frame: yaml_hosts.Frame, resources: Node | None) -> tuple[GpuClaim, ...]:
    """A Truss `config.yaml`'s `resources.accelerator` (`H100:2`, `A10G` for one), as
    `AcceleratorSpec.from_str` reads it: the name, then `:count` (1 when not written)."""
    value = yaml_hosts.get(resources, "accelerator")
    text = (yaml_hosts.text_of(value) or "").strip()
    name, colon, written = text.partition(":")
    if value is None or name not in _TRUSS:
        return ()
    count = _written_count(written, 4)
    if colon and not count:
        return ()
    start, end = yaml_hosts.node_span(frame, value)
    claim = GpuClaim("resources.accelerator", start, end, count or 1, _TRUSS[name], "nvidia")
    return (claim,)


#: Cerebrium's `[cerebrium.hardware] compute` names (docs.cerebrium.ai/docs/hardware/
#: cpu-and-memory, the CLI's GPU table in CerebriumAI's `cerebrium` package) → the GPU
#: table's name; None where the name does not say which part (`ADA_L40`: an L40 or an L40S;
#: `AMPERE_A100`: 40 or 80 GB) or the table has none (the count still holds). `CPU`, `TRN1`
#: and `INF2` are no GPU.
_CEREBRIUM = {
    "TURING_T4": "T4",
    "ADA_L4": "L4",
    "AMPERE_A10": "A10",
    "ADA_L40": None,
    "AMPERE_A100": None,
    "AMPERE_A100_40GB": "A100-40GB",
    "AMPERE_A100_80GB": "A100-80GB",
    "HOPPER_H100": "H100",
    "HOPPER_H200": "H200",
    "BLACKWELL_B200": "B200",
    "BLACKWELL_B300": None,
    "BLACKWELL_RTX6000": None,
}


def cerebrium(
    compute: object, gpu_count: object, span: tuple[int, int] | None
) -> tuple[GpuClaim, ...]:
    """A `cerebrium.toml`'s `[cerebrium.hardware]`: `compute` (one name, or a list that
    Cerebrium tries in order: no one GPU) and `gpu_count`, as `tomllib` read them; `span`
    is where they are written."""
    written = compute if isinstance(compute, list) else [compute]
    names = [name for name in written if isinstance(name, str) and name in _CEREBRIUM]
    if not names or len(names) != len(written):
        return ()  # no GPU, a template's placeholder or a name Cerebrium does not have
    count = gpu_count if type(gpu_count) is int and 0 < gpu_count < 10_000 else None
    name = _CEREBRIUM[names[0]] if len(names) == 1 else None
    if span is None or (count is None and name is None):
        return ()
    return (GpuClaim("[cerebrium.hardware]", *span, count, name, "nvidia"),)


#: KubeAI's `resourceProfile: <profile>:<multiple>`: each GPU profile of its chart's
#: defaults (charts/kubeai/values.yaml) limits one GPU of its kind, which the controller
#: multiplies by `<multiple>` (internal/modelcontroller/model_controller.go:274-300). The
#: value is the GPU's name as the GPU table knows it, None where the table has no such GPU
#: (the count still holds). A profile of another name is the cluster's own: nothing known.
_KUBEAI_PROFILES = {
    "nvidia-gpu-t4": "T4",
    "nvidia-gpu-l4": "L4",
    "nvidia-gpu-l40s": "L40S",
    "nvidia-gpu-h100": "H100",
    "nvidia-gpu-gh200": None,
    "nvidia-gpu-a100-80gb": "A100-80GB",
    "nvidia-gpu-a100-40gb": "A100-40GB",
    "nvidia-gpu-a16": None,
    "nvidia-gpu-rtx4070-8gb": None,
    "amd-gpu-mi300x": "MI300X",
}


def kubeai(frame: yaml_hosts.Frame, model: MappingNode) -> tuple[GpuClaim, ...]:
    """A KubeAI `Model`'s `resourceProfile` (`nvidia-gpu-l4:1`): the GPU and how many."""
    value = yaml_hosts.get(model, "resourceProfile")
    profile, _, multiple = (yaml_hosts.text_of(value) or "").strip().partition(":")
    if value is None or profile not in _KUBEAI_PROFILES:
        return ()
    count = _written_count(multiple, 4)
    if count is None:
        return ()
    start, end = yaml_hosts.node_span(frame, value)
    vendor = profile.split("-", 1)[0]
    name = _KUBEAI_PROFILES[profile]
    claim = GpuClaim("KubeAI resourceProfile", start, end, count, name, vendor)
    return (claim,) if claim.count else ()


def ray_accelerator(frame: yaml_hosts.Frame, llm_config: MappingNode) -> tuple[GpuClaim, ...]:
    """A Ray Serve `LLMConfig`'s `accelerator_type` (`L40S`): the GPU every replica's
    workers are scheduled on (Ray's accelerator resource); how many is vLLM's parallelism."""
    value = yaml_hosts.get(llm_config, "accelerator_type")
    name = yaml_hosts.text_of(value)
    if value is None or not name or "$" in name or "{" in name:
        return ()
    start, end = yaml_hosts.node_span(frame, value)
    return (GpuClaim(RAY_ACCELERATOR, start, end, name=name),)


#: Where a Ray Serve LLM config names its GPU.
RAY_ACCELERATOR = "Ray Serve accelerator_type"


def compose(frame: yaml_hosts.Frame, service: MappingNode) -> tuple[GpuClaim, ...]:
    """`deploy.resources.reservations.devices`: the GPUs a service reserves (`count: all`
    says nothing about how many)."""
    reservations = yaml_hosts.get(
        yaml_hosts.get(yaml_hosts.get(service, "deploy"), "resources"), "reservations"
    )
    total = 0
    first: Node | None = None
    last: Node | None = None
    vendor = None
    for device in yaml_hosts.items(yaml_hosts.get(reservations, "devices")):
        capabilities = [
            yaml_hosts.text_of(item)
            for item in yaml_hosts.items(yaml_hosts.get(device, "capabilities"))
        ]
        driver = yaml_hosts.text_of(yaml_hosts.get(device, "driver"))
        if "gpu" not in capabilities and driver not in ("nvidia", "amd"):
            continue
        count_node = yaml_hosts.get(device, "count")
        ids = yaml_hosts.items(yaml_hosts.get(device, "device_ids"))
        count = _count(count_node) if count_node is not None else (len(ids) or None)
        if count is None:
            return ()
        total += count
        where = count_node if count_node is not None else yaml_hosts.get(device, "device_ids")
        first = first or where
        last = where
        vendor = vendor or (driver if driver in ("nvidia", "amd") else None)
    if not total or first is None or last is None:
        return ()
    start, end = yaml_hosts.node_span(frame, first)[0], yaml_hosts.node_span(frame, last)[1]
    return (GpuClaim("deploy.resources.reservations.devices", start, end, total, None, vendor),)


_VISIBLE = re.compile(
    r"(?:^|[\s;(])(?P<name>CUDA_VISIBLE_DEVICES|HIP_VISIBLE_DEVICES|ROCR_VISIBLE_DEVICES)="
    r"(?P<value>\"[^\"\n]*\"|'[^'\n]*'|[^\s;]*)"
)
_SBATCH = re.compile(r"^#SBATCH[ \t]+(?P<options>[^\n]*)", re.MULTILINE)
_GRES = re.compile(
    r"(?:--gres[= ]|--gpus-per-node[= ])(?:gpu:)?(?:(?P<name>[A-Za-z][\w.-]*):)?"
    r"(?P<count>[0-9]{1,5})(?![0-9])"
)


def visible_devices(script: str, invocation: Invocation) -> tuple[GpuClaim, ...]:
    """`CUDA_VISIBLE_DEVICES=0,1 vllm serve …`: the devices the command line itself makes
    visible (an assignment written before the command on its line)."""
    line_start = script.rfind("\n", 0, invocation.start) + 1
    prefix = script[line_start : invocation.start]
    claims = []
    for match in _VISIBLE.finditer(prefix):
        value = match.group("value").strip("\"'")
        ids = [part for part in value.split(",") if part.strip()]
        if "$" in value or not ids:
            continue
        start, end = line_start + match.start("name"), line_start + match.end("value")
        # CUDA and ROCm both read CUDA_VISIBLE_DEVICES: only the HIP/ROCr ones say AMD.
        vendor = None if match.group("name") == "CUDA_VISIBLE_DEVICES" else "amd"
        claims.append(GpuClaim(match.group("name"), start, end, count=len(ids), vendor=vendor))
    return tuple(claims[-1:])


def sbatch(script: str) -> tuple[GpuClaim, ...]:
    """`#SBATCH --gres=gpu:h100:8` / `--gpus-per-node=8`: the GPUs each node of the job
    gets (the last statement wins, as sbatch reads its options)."""
    found: GpuClaim | None = None
    for line in _SBATCH.finditer(script):
        for match in _GRES.finditer(line.group("options")):
            offset = line.start("options")
            found = GpuClaim(
                "#SBATCH " + match.group(0).split("=", 1)[0].split(" ", 1)[0],
                offset + match.start(),
                offset + match.end(),
                count=int(match.group("count")),
                name=match.group("name"),
            )
    return (found,) if found is not None else ()
