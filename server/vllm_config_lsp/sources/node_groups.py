"""How many nodes form one vLLM instance, where a host says it.

One vLLM instance may span several nodes, and only the host knows how many: a
LeaderWorkerSet group of `size` pods (the leader starts the server, the others join it),
a Slurm job of `--nodes` that starts a Ray cluster over them, a launch with vLLM's own
`--nnodes`/`--node-rank`. The hosts read their own syntax (`sources.kubernetes` the
LeaderWorkerSet's template, `sources.shell` the `#SBATCH` lines) and feed it here; this
module decides whether the start spans the group, and how (`NodeGroup.launcher`), and
gives the claim the target is made of (`vllm.hardware`): the rules read the group from
the invocation's target, never from the host's text.

A group spans its nodes only when something makes it do so: the leader starts Ray
(`multi-node-serving.sh leader`, the script vLLM's LWS example runs, `ray start --head`,
LWS's `ray_init.sh leader`), or vLLM's argv has `--nnodes`. Without either, every node
runs its own server and the group says nothing about one server's GPUs.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from vllm_config_lsp.sources.invocation import GpuClaim, Invocation, NodeGroup

#: A command that starts a Ray head (or vLLM's and LWS's scripts that do) outside a comment.
_RAY_HEAD = re.compile(
    r"^[^#\n]*?(?:multi-node-serving\.sh[\"']?\s+leader\b|ray_init\.sh[\"']?\s+leader\b"
    r"|\bray\s+start\b[^\n;&|]*--head\b)",
    re.MULTILINE,
)
#: `#SBATCH --nodes=2`, `#SBATCH -N 2` (a range `2-4` says no one number).
_SBATCH_NODES = re.compile(
    r"^#SBATCH[ \t]+(?:[^\n]*?[ \t])?(?:--nodes[= ]|-N[ \t]*)(?P<nodes>[0-9]{1,4})(?![0-9-])",
    re.MULTILINE,
)


def launcher(script: str, invocation: Invocation) -> str | None:
    """How the start spans its group: "nnodes" when its argv launches vLLM's own
    multi-node world, "ray" when the script starts a Ray head; None when neither."""
    if any(word.text.split("=", 1)[0] == "--nnodes" for word in invocation.args):
        return "nnodes"
    if _RAY_HEAD.search(script):
        return "ray"
    return None


def group_claim(
    origin: str,
    span: tuple[int, int],
    per_node: Sequence[int | None],
    how: str | None,
) -> GpuClaim | None:
    """The claim that a start spans `len(per_node)` nodes, each with the GPUs given (None
    where the host does not say); None for one node or no launcher."""
    if how is None or len(per_node) < 2:
        return None
    known = [count for count in per_node if count is not None]
    gpus = sum(known) if len(known) == len(per_node) else None
    group = NodeGroup(len(per_node), how, origin, gpus)
    return GpuClaim(origin, span[0], span[1], group=group)


def leader_worker_set(
    size: str | None,
    span: tuple[int, int],
    script: str,
    invocation: Invocation,
    gpus: tuple[int | None, int | None],
) -> GpuClaim | None:
    """A LeaderWorkerSet start: `leaderWorkerTemplate.size` pods, the leader's GPUs and
    each worker's (`gpus`: leader, worker; a set without `leaderTemplate` runs the worker
    template for the leader too). `script` is the text of the container's command and
    args."""
    if size is None or not (size.isascii() and size.isdigit()) or len(size) > 4:
        return None
    leader, worker = gpus
    nodes = int(size)
    per_node = [leader, *([worker] * (nodes - 1))]
    return group_claim(
        "LeaderWorkerSet leaderWorkerTemplate.size", span, per_node, launcher(script, invocation)
    )


def slurm(script: str, invocation: Invocation, per_node: int | None) -> GpuClaim | None:
    """A batch script's start: `#SBATCH --nodes` nodes (the last statement wins), each
    with the GPUs its `--gres`/`--gpus-per-node` give."""
    stated = list(_SBATCH_NODES.finditer(script))
    if not stated:
        return None
    found = stated[-1]
    span = (found.start("nodes"), found.end("nodes"))
    nodes = int(found.group("nodes"))
    return group_claim("#SBATCH --nodes", span, [per_node] * nodes, launcher(script, invocation))
