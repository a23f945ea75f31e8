"""The environment rules per release (VC240, VC241, VC508 with the environment), through
the CLI on host files: each command line is judged with the catalogue of the release its
image names (schemas/envs-<version>.json), so a variable a later release removed is
valid for the image that still has it."""

from __future__ import annotations

import json
from pathlib import Path

from support import cli
from vllm_config_lsp.vllm.catalogue import available_versions
from vllm_config_lsp.vllm.environ import load_environ

COMPOSE = """services:
  vllm:
    image: vllm/vllm-openai:{tag}
    command: ["--model", "Qwen/Qwen3-8B"{extra}]
    environment:
{env}
"""


def _check(tmp_path: Path, tag: str, env: dict[str, str], extra: str = "") -> list[dict]:
    lines = "\n".join(f"      {k}: {json.dumps(v)}" for k, v in env.items())
    path = tmp_path / "compose.yaml"
    path.write_text(COMPOSE.format(tag=tag, extra=extra, env=lines), encoding="utf-8")
    out = cli("check", "--format", "json", "--select", "VC240,VC241,VC508", str(path))
    return list(json.loads(out.stdout))


def test_every_catalogued_release_has_its_environment() -> None:
    for version in available_versions():
        catalogue = load_environ(version)
        assert catalogue is not None and len(catalogue.variables) > 50, version
    assert load_environ("0.33.0").validate_environ  # type: ignore[union-attr]
    assert load_environ("0.30.0").validate_environ is None  # type: ignore[union-attr]


def test_removed_variable_is_valid_for_the_release_that_has_it(tmp_path: Path) -> None:
    env = {"VLLM_ATTENTION_BACKEND": "FLASHINFER"}
    [now] = _check(tmp_path, "v0.33.0", env)
    assert now["code"] == "VC240" and now["severity"] == "warning"
    assert "--attention-backend" in now["message"]
    assert _check(tmp_path, "v0.14.1", env) == []


def test_invalid_value_per_release(tmp_path: Path) -> None:
    """`bool(int("true"))` raises in both; 0.33.0's engine core reads every variable on
    every start (an error), 0.10.2 only where the code uses it (a warning)."""
    env = {"VLLM_USE_V1": "true"}
    [old] = _check(tmp_path, "v0.10.2", env)
    assert old["code"] == "VC241" and old["severity"] == "warning"
    assert "invalid literal for int() with base 10: 'true'" in old["message"]
    [new] = _check(tmp_path, "v0.33.0", {"VLLM_USE_DEEP_GEMM": "true"})
    assert new["code"] == "VC241" and new["severity"] == "error"


def test_strict_validation_and_grpc_port(tmp_path: Path) -> None:
    [strict] = _check(
        tmp_path, "v0.33.0", {"VLLM_LOGGING_LEVL": "DEBUG"}, ', "--fail-on-environ-validation"'
    )
    assert strict["severity"] == "error" and "VLLM_LOGGING_LEVEL" in strict["message"]
    [refused] = _check(tmp_path, "v0.33.0", {"HF_HOME": "/data"}, ', "--grpc-port", "50051"')
    assert refused["code"] == "VC508" and refused["severity"] == "error"
    assert (
        _check(tmp_path, "v0.33.0", {"VLLM_USE_RUST_FRONTEND": "1"}, ', "--grpc-port", "50051"')
        == []
    )
