"""The environment rules (VC240, VC241, VC242, VC508) through the CLI on real public files
whose host sets vLLM variables in the two forms the other tests only write by hand. The
files are the deployment corpus's, unchanged (tests/corpus/deployments/SOURCES.md cites
repository, path, commit):

- a compose `environment:` in LIST form: av/harbor `compose.vllm.yml` at 297c97495706
  (`- VLLM_ATTENTION_BACKEND=${HARBOR_VLLM_ATTENTION_BACKEND}`), and tungedng2710/IDP
  `services/dotsocr/docker-compose.yaml` (c43f7289492a), whose client service sets
  `- VLLM_IP=…` / `- VLLM_PORT=8000` that are not the server's environment;
- Ray Serve LLM `runtime_env: {env_vars: …}` in a RayService: ray-project/kuberay
  `ray-operator/config/samples/ray-service.deepseek.yaml` (b4cd1e279c7f),
  `VLLM_USE_V1: "1"`.

A variable a later release removed is VC240 (a warning: vLLM logs it and starts) on the
variable's own name in the file for 0.33.0, and nothing for a release that still reads it.
"""

from __future__ import annotations

import json
from pathlib import Path

from support import CORPUS, cli

FILES = CORPUS / "deployments" / "files"
HARBOR = FILES / "compose" / "av__harbor__compose.vllm.yml"
DOTSOCR = FILES / "compose" / "tungedng2710__IDP__services__dotsocr__docker-compose.yaml"
DEEPSEEK = (
    FILES / "cr" / "ray-project__kuberay__ray-operator__config__samples__ray-service.deepseek.yaml"
)
RULES = "VC240,VC241,VC242,VC508"


def _check(path: Path, version: str) -> list[dict]:
    out = cli("check", "--format", "json", "--select", RULES, "--vllm-version", version, str(path))
    assert out.returncode in (0, 1), out.stderr
    return list(json.loads(out.stdout))


def _position(path: Path, before: str, needle: str) -> tuple[int, int, int]:
    """1-based line, column and end column of `needle` where it follows `before` (the
    only such place)."""
    text = path.read_text(encoding="utf-8")
    assert text.count(before + needle) == 1, needle
    offset = text.index(before + needle) + len(before)
    line_start = text.rfind("\n", 0, offset) + 1
    column = offset - line_start + 1
    return text.count("\n", 0, offset) + 1, column, column + len(needle)


def _at(finding: dict) -> tuple[int, int, int]:
    assert finding["end_line"] == finding["line"]
    return finding["line"], finding["column"], finding["end_column"]


def test_compose_list_form_removed_variable() -> None:
    """`- VLLM_ATTENTION_BACKEND=${…}`: the name is judged though compose fills in the
    value. (The release is given: beside the corpus's other files, an image tag there
    would choose it.)"""
    [found] = _check(HARBOR, "0.33.0")
    assert found["code"] == "VC240" and found["severity"] == "warning"
    assert _at(found) == _position(HARBOR, "- ", "VLLM_ATTENTION_BACKEND")
    assert "--attention-backend" in found["message"]
    assert _check(HARBOR, "0.14.1") == []  # the last release that reads it


def test_compose_list_form_other_services_environment_is_not_the_servers() -> None:
    """The vLLM service sets only `- CUDA_VISIBLE_DEVICES=1`; `VLLM_IP` (no vLLM
    variable) belongs to the client service, so nothing is reported."""
    assert _check(DOTSOCR, "0.33.0") == []


def test_ray_serve_runtime_env_removed_variable() -> None:
    [found] = _check(DEEPSEEK, "0.33.0")
    assert found["code"] == "VC240" and found["severity"] == "warning"
    assert _at(found) == _position(DEEPSEEK, " ", "VLLM_USE_V1")
    assert "removed after vLLM 0.10.2" in found["message"]
    assert _check(DEEPSEEK, "0.10.2") == []  # "1" is what int() reads there
