"""LeaderWorkerSet (leaderworkerset.x-k8s.io): one vLLM instance over a group of pods.

Transcribes kubernetes-sigs/lws docs/examples/vllm/GPU/lws.yaml@f01674b29576 with
docs/examples/vllm/build/ray_init.sh (`multi-node-serving.sh leader
--ray_cluster_size=$(LWS_GROUP_SIZE)`): the leader starts a Ray cluster of the group's
`size` pods and vLLM spans it; `sources.node_groups` decides whether a start does.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node

from vllm_config_lsp.sources import gpu_claims, node_groups
from vllm_config_lsp.sources.invocation import GpuClaim, Invocation
from vllm_config_lsp.sources.operators.reader import Operator, Reader
from vllm_config_lsp.sources.yaml_hosts import Frame, get, items, node_span, text_of


def _template(reader: Reader, frame: Frame, root: Node, kind: str) -> None:
    """The document's `leaderWorkerTemplate`, if it is one."""
    reader.group = get(get(root, "spec"), "leaderWorkerTemplate")


def _group(
    reader: Reader,
    frame: Frame,
    pod: MappingNode,
    container: MappingNode,
    claims: tuple[GpuClaim, ...],
    invocation: Invocation,
) -> tuple[GpuClaim, ...]:
    """A LeaderWorkerSet's leader start: its group's size, the leader's GPUs and each
    worker's (`sources.node_groups` decides whether the start spans them)."""
    template = reader.group
    leader = get(get(template, "leaderTemplate"), "spec")
    worker = get(get(template, "workerTemplate"), "spec")
    if template is None or pod is not (leader if leader is not None else worker):
        return ()
    own = next((claim.count for claim in claims if claim.count is not None), None)
    workers = own
    if leader is not None and isinstance(worker, MappingNode):
        workers = next(
            (
                claim.count
                for other in items(get(worker, "containers"))
                if isinstance(other, MappingNode)
                for claim in gpu_claims.kubernetes(frame, worker, other)
                if claim.count is not None
            ),
            None,
        )
    size = get(template, "size")
    script = "\n".join(
        text_of(item) or "" for key in ("command", "args") for item in items(get(container, key))
    )
    span = node_span(frame, size) if size is not None else (-1, -1)
    found = node_groups.leader_worker_set(text_of(size), span, script, invocation, (own, workers))
    return (found,) if found is not None else ()


OPERATOR = Operator(
    "LeaderWorkerSet",
    ("LeaderWorkerSet (leaderworkerset.x-k8s.io)",),
    "kubernetes-sigs/lws docs/examples/vllm/GPU/lws.yaml@f01674b29576",
    document=_template,
    claims=_group,
)
