"""Ray cluster launcher configs (`ray up cluster.yaml`; `sources.skypilot` reads them) on
the real files of `data/ray_cluster/` (SOURCES.md cites them): the head's commands
(`setup_commands`, `head_setup_commands`, `head_start_ray_commands`) are one script run in
the head's container (`docker.head_image`, else `docker.image`), the head node type's
`resources` the GPU claim. The real configs start Ray only: they get nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from source_support import single, texts
from support import cli
from vllm_config_lsp.engine import Document, check
from vllm_config_lsp.findings import apply_edits
from vllm_config_lsp.sources.hosts import host_of
from vllm_config_lsp.sources.skypilot import find_invocations

DATA = Path(__file__).resolve().parent / "data" / "ray_cluster"
REAL = sorted(DATA.glob("*.yaml"))
RAYLLM = DATA / "ray-project__ray-llm__deploy__ray__rayllm-cluster.yaml"


@pytest.mark.parametrize("path", REAL, ids=lambda path: path.name)
def test_a_real_cluster_config_that_starts_ray_only_gets_nothing(path: Path) -> None:
    assert f"| {path.name} |" in (DATA / "SOURCES.md").read_text(encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    assert host_of(str(path), text) == "skypilot"  # read as a Ray cluster config
    assert json.loads(cli("argv", "--format", "json", str(path)).stdout) == []
    result = cli("check", str(path))
    assert (result.returncode, result.stdout) == (0, ""), result.stdout


def _rayllm_starting_vllm(*, head_image: bool, pin: bool = True) -> str:
    """RayLLM's real cluster config with its head starting vLLM after Ray: a release
    installed in `setup_commands` (`pin`), four A10G GPUs on the head node type."""
    text = RAYLLM.read_text(encoding="utf-8")
    edits = {
        "--dashboard-host=0.0.0.0\n": "--dashboard-host=0.0.0.0\n"
        "    - (conda activate || true) && nohup vllm serve m -tp 4 --port 8000 &\n",
        "      head_node: 1\n": (
            "      head_node: 1\n      GPU: 4\n      accelerator_type:A10G: 1\n"
        ),
    }
    if pin:
        edits["setup_commands:\n    - echo"] = (
            "setup_commands:\n    - pip install vllm==0.9.1\n    - echo"
        )
    if head_image:
        edits['    image: "anyscale/ray-llm:latest"\n'] = (
            '    image: "anyscale/ray-llm:latest"\n    head_image: "vllm/vllm-openai:v0.10.1"\n'
        )
    for old, new in edits.items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


@pytest.mark.parametrize(
    ("head_image", "image"),
    [(True, "vllm/vllm-openai:v0.10.1"), (False, "anyscale/ray-llm:latest")],
)
def test_the_heads_start_runs_in_the_head_image(head_image: bool, image: str) -> None:
    text = _rayllm_starting_vllm(head_image=head_image)
    start = single(find_invocations(text))
    assert texts(start) == ["m", "-tp", "4", "--port", "8000"]
    assert text[start.start : start.end] == "vllm"
    assert start.image == image and start.pinned_version == "0.9.1"
    [claim] = start.gpus
    assert (claim.name, claim.count, text[claim.start : claim.end]) == ("A10G", 4, "4")


def test_a_start_wider_than_the_head_is_found(tmp_path: Path) -> None:
    """Tensor parallelism over more GPUs than the head node type advertises, the backend
    left unset: vLLM's refusal (VC703) on the flag, the claim named as the head's
    `resources` (the image names no release: the newest's check; before 0.11 vLLM chose
    the Ray backend itself, and a head image of v0.10.1 gets nothing). The fix applied is
    still a cluster config, its start within the head's GPUs."""
    path = tmp_path / "cluster.yaml"
    text = _rayllm_starting_vllm(head_image=False, pin=False).replace("-tp 4", "-tp 8")
    path.write_text(text, encoding="utf-8")
    found = json.loads(cli("check", "--format", "json", str(path)).stdout)
    line = text[: text.index("-tp 8")].count("\n") + 1
    assert [(f["code"], f["line"]) for f in found] == [("VC703", line)], found
    assert "from available_node_types resources" in found[0]["message"]
    [refusal] = check(Document(text, path=path)).findings
    fix = next(fix for fix in refusal.fixes if fix.title == "Set `-tp 4`")
    fixed = apply_edits(text, fix.edits)
    assert yaml.safe_load(fixed)["cluster_name"] == "rayllm-deploy"
    assert texts(single(find_invocations(fixed)))[:3] == ["m", "-tp", "4"]
    assert check(Document(fixed, path=path)).findings == []
    other = _rayllm_starting_vllm(head_image=True, pin=False).replace("-tp 4", "-tp 8")
    assert check(Document(other, path=path)).findings == []
