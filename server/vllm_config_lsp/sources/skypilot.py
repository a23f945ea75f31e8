"""vLLM starts in SkyPilot task YAML (`sky launch`, `sky serve up`) and in Ray cluster
launcher YAML (`ray up`): the other cloud launchers beside `sources.dstack`.

A SkyPilot task (sky/utils/schemas.py `get_task_schema`) runs `setup:` once, then `run:`,
each a shell script (a start in either is read, by the shell source through the block
scalar's source map), on every node (`num_nodes:`), with the task's environment: `envs:`
and `secrets:` (a `null` secret is passed with `--secret NAME`), then SkyPilot's own
`SKYPILOT_NODE_RANK`, `SKYPILOT_NODE_IPS`, `SKYPILOT_NUM_NODES` and
`SKYPILOT_NUM_GPUS_PER_NODE`. So:

* the words of the scripts get `$NAME` filled in where the task fixes its value (an `envs:`
  value, `SKYPILOT_NUM_NODES` from `num_nodes`, `SKYPILOT_NUM_GPUS_PER_NODE` from the
  accelerators' count), unless the script assigns the name itself; the settings of
  `envs:`/`secrets:` come before the script's own exports in `Invocation.environ`;
* `resources.accelerators` (`H100:8`, `H100` for one, a mapping `{H100: 8}` or flow set
  `{H100:8, H200:8}`, a list of alternatives, and the same in `resources.any_of`/
  `ordered`) is the GPU claim: SkyPilot takes any one alternative, so only what all of
  them agree on is claimed (the count of `{H100:8, H200:8}`, nothing of `{L4:1, A100:8}`);
* `resources.image_id: docker:IMAGE` is the container the scripts run in (its tag names
  the release); a `pip install vllm==X` in `setup:` pins it as in a script;
* `num_nodes: N` is a group of N nodes only where the run spans them (the head starts Ray,
  as SkyPilot's and vLLM's multi-node examples do, or vLLM's own `--nnodes`):
  `sources.node_groups`.

A Ray cluster YAML (ray/autoscaler/ray-schema.json) runs `setup_commands` on every node,
then `head_setup_commands` and `head_start_ray_commands` on the head: the head's lists are
one shell session, read together like dstack's `commands`. The head's node type
(`available_node_types.<head_node_type>.resources`: `GPU: 8`, `accelerator_type:H100: 1`)
is the GPU claim.

Nothing here raises on malformed input, and every pass is linear in the text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from vllm_config_lsp.sources import node_groups, shell, task_env
from vllm_config_lsp.sources.dstack import joined_script
from vllm_config_lsp.sources.invocation import GpuClaim, Invocation
from vllm_config_lsp.sources.yaml_hosts import (
    Frame,
    documents,
    env_mapping,
    get,
    get_pair,
    items,
    node_span,
    pairs,
    relocate,
    scalar_frame,
    text_of,
)

__all__ = ["find_invocations", "is_ray_cluster", "is_task"]

SOURCE = "skypilot"
#: Top-level keys of a SkyPilot task besides `run` (sky/utils/schemas.py): one of them
#: with a `run:` script says SkyPilot.
TASK_KEYS = frozenset(
    {"resources", "envs", "secrets", "setup", "num_nodes", "service", "file_mounts", "workdir"}
)
#: The keys of a Ray cluster launcher config that run commands on the head, in order.
_RAY_HEAD_LISTS = ("setup_commands", "head_setup_commands", "head_start_ray_commands")
#: `$NAME` / `${NAME}` as a whole unresolved part (no default, no operator).
#: `H100`, `H100:8`, `A100-80GB:0.5` (a fraction says no whole GPU count).
_ACCELERATOR = re.compile(r"\s*(?P<name>[A-Za-z][\w.-]*)\s*(?::\s*(?P<count>[0-9.]+))?\s*")


def is_task(root: Node | None) -> bool:
    """A SkyPilot task: a mapping with a `run` script and one more of the task's keys."""
    if not isinstance(root, MappingNode) or get(root, "run") is None:
        return False
    return any(text_of(key) in TASK_KEYS for key, _ in pairs(root))


def is_ray_cluster(root: Node | None) -> bool:
    """A Ray cluster launcher config: `cluster_name` and head commands or node types."""
    if not isinstance(root, MappingNode) or get(root, "cluster_name") is None:
        return False
    return any(get(root, key) is not None for key in (*_RAY_HEAD_LISTS, "available_node_types"))


def find_invocations(text: str) -> list[Invocation]:
    """Every vLLM start in the tasks (a pipeline's documents included) and Ray cluster
    configs of a YAML text, in document order, with document offsets."""
    try:
        frame = Frame(text)
        found: list[Invocation] = []
        for root in documents(text):
            if is_task(root):
                assert isinstance(root, MappingNode)
                found.extend(_task(frame, root))
            elif is_ray_cluster(root):
                assert isinstance(root, MappingNode)
                found.extend(_ray_cluster(frame, root))
        return sorted(found, key=lambda invocation: invocation.start)
    except RecursionError:  # a MemoryError is reported (engine), never "no start"
        return []


# -- SkyPilot ----------------------------------------------------------------------------


def _task(frame: Frame, root: MappingNode) -> list[Invocation]:
    scripts = [
        script
        for key in ("setup", "run")
        for node in [get(root, key)]
        if isinstance(node, ScalarNode)
        for script in [scalar_frame(frame, node)]
        if script is not None and "vllm" in script.text
    ]
    if not scripts:
        return []
    resources = _alternatives(get(root, "resources"))
    image = _image(resources)
    setup = text_of(get(root, "setup")) or ""
    pinned = shell.pinned_version(setup) if "vllm" in setup else None
    environ = (
        *env_mapping(frame, get(root, "envs"), "envs"),
        *env_mapping(frame, get(root, "secrets"), "secrets"),
    )
    claim = _accelerators(frame, resources)
    nodes_pair = get_pair(root, "num_nodes")
    nodes = _whole(text_of(nodes_pair[1])) if nodes_pair is not None else 1
    found = []
    for script in scripts:
        fills = task_env.fills(environ, script.text)
        if nodes is not None and "SKYPILOT_NUM_NODES" not in fills:
            fills["SKYPILOT_NUM_NODES"] = str(nodes)
        if claim is not None and claim.count is not None:
            fills.setdefault("SKYPILOT_NUM_GPUS_PER_NODE", str(claim.count))
        for invocation in shell.find_invocations(script.text, source=SOURCE):
            moved = relocate(invocation, script, image=image)
            gpus: tuple[GpuClaim, ...] = (claim,) if claim is not None else ()
            if nodes_pair is not None and nodes is not None:
                group = node_groups.group_claim(
                    "num_nodes",
                    node_span(frame, nodes_pair[1]),
                    [claim.count if claim is not None else None] * nodes,
                    node_groups.launcher(script.text, invocation),
                )
                gpus += (group,) if group is not None else ()
            found.append(
                replace(
                    moved,
                    args=[task_env.filled(word, fills) for word in moved.args],
                    pinned_version=moved.pinned_version or pinned,
                    gpus=gpus + moved.gpus,
                    environ=(*environ, *moved.environ),
                )
            )
    return found


def _alternatives(resources: Node | None) -> list[MappingNode]:
    """The resource sets a task may run on: `resources` itself, or each of its `any_of`/
    `ordered` items laid over it."""
    if not isinstance(resources, MappingNode):
        return []
    choices = [
        item
        for key in ("any_of", "ordered")
        for item in items(get(resources, key))
        if isinstance(item, MappingNode)
    ]
    return [resources, *choices] if choices else [resources]


def _image(resources: list[MappingNode]) -> str | None:
    """`image_id: docker:IMAGE` that every alternative runs (a VM image names no release)."""
    images = {text_of(get(choice, "image_id")) for choice in resources}
    images.discard(None)
    if len(images) != 1:
        return None
    image = images.pop() or ""
    return image.removeprefix("docker:") if image.startswith("docker:") else None


def _accelerators(frame: Frame, resources: list[MappingNode]) -> GpuClaim | None:
    """The GPU claim all the alternatives agree on: their name when they share one, their
    count when they share one; None when they agree on nothing."""
    written: list[tuple[str | None, int | None]] = []
    span: tuple[int, int] | None = None
    for choice in resources:
        node = get(choice, "accelerators")
        if node is None:
            continue
        span = span or node_span(frame, node)
        for entry in _accelerator_entries(node):
            written.append(entry)
    if not written or span is None:
        return None
    names = {name for name, _ in written}
    counts = {count for _, count in written}
    name = names.pop() if len(names) == 1 else None
    count = counts.pop() if len(counts) == 1 else None
    if name is None and count is None:
        return None
    return GpuClaim("resources.accelerators", span[0], span[1], count=count, name=name)


def _accelerator_entries(node: Node) -> Iterable[tuple[str | None, int | None]]:
    """(name, count) of each alternative an `accelerators` value writes; a name or count
    that is not plain (a template, a fraction) is None."""
    if isinstance(node, ScalarNode):
        yield _accelerator(node.value)
    elif isinstance(node, SequenceNode):
        for item in node.value:
            yield from _accelerator_entries(item)
    elif isinstance(node, MappingNode):
        for key, value in pairs(node):
            name, count = _accelerator(text_of(key) or "")
            given = text_of(value)
            if given is not None and not value.tag.endswith(":null"):
                count = _whole(given)
            yield name, count


def _accelerator(text: str) -> tuple[str | None, int | None]:
    found = _ACCELERATOR.fullmatch(text)
    if found is None:
        return None, None
    count = found.group("count")
    return found.group("name"), 1 if count is None else _whole(count)


def _whole(text: str | None) -> int | None:
    value = (text or "").strip()
    return int(value) if value.isascii() and value.isdigit() and 0 < len(value) < 6 else None


# -- Ray cluster launcher ----------------------------------------------------------------


def _ray_cluster(frame: Frame, root: MappingNode) -> list[Invocation]:
    script = joined_script(
        frame, [item for key in _RAY_HEAD_LISTS for item in items(get(root, key))]
    )
    if script is None or "vllm" not in script.text:
        return []
    claim = _head_gpus(frame, root)
    image = _head_image(root)
    return [
        replace(
            relocate(invocation, script, image=image),
            gpus=((claim,) if claim is not None else ()) + invocation.gpus,
        )
        for invocation in shell.find_invocations(script.text, source=SOURCE)
    ]


def _head_image(root: MappingNode) -> str | None:
    """The image the head's commands run in: `docker.head_image`, which overrides
    `docker.image` for the head (Ray's cluster config reference); an empty one is no
    container."""
    docker = get(root, "docker")
    return text_of(get(docker, "head_image")) or text_of(get(docker, "image")) or None


def _head_gpus(frame: Frame, root: MappingNode) -> GpuClaim | None:
    """`available_node_types.<head_node_type>.resources`: `GPU: N` and the accelerator
    type Ray advertises as a resource (`accelerator_type:H100: 1`)."""
    head = text_of(get(root, "head_node_type"))
    node_type = get(get(root, "available_node_types"), head) if head else None
    resources = get(node_type, "resources")
    if not isinstance(resources, MappingNode):
        return None
    count_node = get(resources, "GPU")
    count = _whole(text_of(count_node))
    name = None
    for key, _value in pairs(resources):
        label = text_of(key) or ""
        if label.startswith("accelerator_type:"):
            name = label.partition(":")[2] or None
    if count is None and name is None:
        return None
    start, end = node_span(frame, count_node if count_node is not None else resources)
    return GpuClaim("available_node_types resources", start, end, count=count, name=name)
