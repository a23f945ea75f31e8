"""The environment the launchers give a start of vLLM (issue 31): SkyPilot `envs:`/
`secrets:`, Slurm's `--export` (`#SBATCH --export=…` for the job, `srun --export=…` for
the step: the listed variables are the start's environment, `ALL` passes the caller's
too, `NONE` or a list without `ALL` only those), read by the environment rules VC240,
VC241 and VC508 through the CLI and the engine, each fix applied; and Ray's runtime_env
(a Serve config's applications, `ray.init` and the worker decorators in Python).

Slurm's semantics are sbatch(1)/srun(1) `--export`: "ALL … all of the user's environment
will be loaded", "NONE … only SLURM_* variables", "[ALL,]<environment_variables> …
exports all SLURM_* environment variables along with explicitly defined variables";
a name without `=` takes the submitting environment's value.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from source_support import single
from support import cli
from vllm_config_lsp import engine
from vllm_config_lsp.findings import Finding, apply_edits
from vllm_config_lsp.sources import python_argv, shell, skypilot
from vllm_config_lsp.sources.invocation import Invocation


def _environ(invocation: Invocation) -> list[tuple[str, str | None, str]]:
    return [
        (var.name.text, None if var.value is None else var.value.text, var.origin)
        for var in invocation.environ
    ]


# -- Slurm --export ----------------------------------------------------------------------

_SLURM_CASES = {
    "sbatch-all": (
        "#!/bin/bash\n#SBATCH --export=ALL,VLLM_LOGGING_LEVEL=DEBUG\n"
        "export VLLM_USE_V1=1\nvllm serve m\n",
        [("VLLM_LOGGING_LEVEL", "DEBUG", "sbatch --export"), ("VLLM_USE_V1", "1", "export")],
        False,
    ),
    "sbatch-none": (
        "#!/bin/bash\n#SBATCH --export=NONE\nexport VLLM_USE_V1=1\nvllm serve m\n",
        [("VLLM_USE_V1", "1", "export")],  # the script's own exports still hold
        True,
    ),
    "srun-list": (
        "export VLLM_USE_V1=1\nexport HF_HOME=/x\n"
        "srun --export=VLLM_USE_V1,VLLM_PORT=8001 vllm serve m\n",
        [("VLLM_USE_V1", "1", "srun --export"), ("VLLM_PORT", "8001", "srun --export")],
        True,  # HF_HOME does not reach the step
    ),
    "srun-all": (
        "export VLLM_USE_V1=1\nsrun -N1 --export ALL,VLLM_PORT=8001 vllm serve m\n",
        [("VLLM_USE_V1", "1", "export"), ("VLLM_PORT", "8001", "srun --export")],
        False,
    ),
    "vllm-own-words": (
        "export VLLM_USE_V1=1\nsrun -N1 vllm serve m --export=NONE\n",
        [("VLLM_USE_V1", "1", "export")],  # vLLM's argument, not srun's option
        False,
    ),
}


@pytest.mark.parametrize("case", sorted(_SLURM_CASES))
def test_slurm_export(case: str) -> None:
    text, environ, complete = _SLURM_CASES[case]
    start = single(shell.find_invocations(text))
    assert _environ(start) == environ
    assert start.environ_complete is complete
    for var in start.environ:
        assert text[var.name.start : var.name.end] == var.name.text


def _check(text: str, name: str) -> engine.Checked:
    return engine.check(engine.Document(text, path=Path("/nonexistent") / name))


def _only(checked: engine.Checked, code: str) -> Finding:
    [found] = [f for f in checked.findings if f.code == code]
    return found


def _fixed(text: str, found: Finding) -> str:
    [fix] = found.fixes
    return apply_edits(text, fix.edits)


def test_grpc_port_is_decided_by_the_step_environment(tmp_path: Path) -> None:
    """`--grpc-port` needs VLLM_USE_RUST_FRONTEND=1 (VC508): the script's export reaches
    `srun --export=ALL` (nothing said), not `srun --export=NONE` (vLLM's error); without
    any `--export` the caller's environment may set it (a warning)."""
    body = "#!/bin/bash\n#SBATCH --gres=gpu:1\nexport VLLM_USE_RUST_FRONTEND=1\n"
    serve = " vllm serve Qwen/Qwen2.5-7B-Instruct --grpc-port 50051\n"
    severities = {}
    for export in ("--export=ALL", "--export=NONE", ""):
        path = tmp_path / f"job{len(severities)}.sbatch"
        path.write_text(body + f"srun {export}".rstrip() + serve, encoding="utf-8")
        rows = json.loads(cli("check", "--format", "json", str(path)).stdout)
        severities[export] = [row["severity"] for row in rows if row["code"] == "VC508"]
    assert severities == {"--export=ALL": [], "--export=NONE": ["error"], "": []}


def test_slurm_export_values_are_checked_and_fixed() -> None:
    """A misspelled name in `#SBATCH --export` (VC240, renamed by its fix) and a boolean
    written `true` in `srun --export` (VC241, `1` by its fix), on their characters."""
    text = (
        "#!/bin/bash\n#SBATCH --export=NONE,VLLM_LOGGING_LEVL=DEBUG\n"
        "srun --export=ALL,VLLM_USE_DEEP_GEMM=true vllm serve Qwen/Qwen2.5-7B-Instruct\n"
    )
    checked = _check(text, "job.sbatch")
    typo = _only(checked, "VC240")
    assert text[typo.start : typo.end] == "VLLM_LOGGING_LEVL"
    boolean = _only(checked, "VC241")
    assert text[boolean.start : boolean.end] == "true" and boolean.severity.name == "ERROR"
    fixed = _fixed(_fixed(text, boolean), typo)
    assert "VLLM_LOGGING_LEVEL=DEBUG" in fixed and "VLLM_USE_DEEP_GEMM=1 vllm" in fixed
    assert not {"VC240", "VC241"} & {f.code for f in _check(fixed, "job.sbatch").findings}


def test_argv_json_shows_the_slurm_environment(tmp_path: Path) -> None:
    job = "#SBATCH --export=NONE,VLLM_LOGGING_LEVEL=INFO\nexport HF_HOME=/scratch/hf\n"
    path = tmp_path / "job.sbatch"
    path.write_text(f"#!/bin/bash\n{job}srun --export=ALL vllm serve m\n", encoding="utf-8")
    [entry] = json.loads(cli("argv", "--format", "json", str(path)).stdout)
    assert entry["environment"] == [
        {"name": "VLLM_LOGGING_LEVEL", "value": "INFO", "origin": "sbatch --export"},
        {"name": "HF_HOME", "value": "/scratch/hf", "origin": "export"},
    ]
    assert entry["environment_open"] is False


# -- SkyPilot envs -----------------------------------------------------------------------

_TASK = (
    "resources:\n  accelerators: L4:1\n"
    "envs:\n  MODEL_NAME: Qwen/Qwen2.5-7B-Instruct\n"
    "  VLLM_LOGGING_LEVL: DEBUG\n"
    '  VLLM_USE_DEEP_GEMM: "true"\n'
    "secrets:\n  HF_TOKEN: null\n"
    "run: |\n  export VLLM_WORKER_MULTIPROC_METHOD=spawn\n  vllm serve $MODEL_NAME\n"
)


def test_skypilot_envs_are_the_environment() -> None:
    start = single(skypilot.find_invocations(_TASK))
    assert _environ(start) == [
        ("MODEL_NAME", "Qwen/Qwen2.5-7B-Instruct", "envs"),
        ("VLLM_LOGGING_LEVL", "DEBUG", "envs"),
        ("VLLM_USE_DEEP_GEMM", "true", "envs"),
        ("HF_TOKEN", None, "secrets"),
        ("VLLM_WORKER_MULTIPROC_METHOD", "spawn", "export"),
    ]
    assert not start.environ_complete  # `sky launch --env` adds to it


def test_skypilot_envs_are_checked_and_fixed() -> None:
    checked = _check(_TASK, "task.sky.yaml")
    assert checked.host == "skypilot"
    typo = _only(checked, "VC240")
    assert _TASK[typo.start : typo.end] == "VLLM_LOGGING_LEVL"
    boolean = _only(checked, "VC241")
    assert _TASK[boolean.start : boolean.end] == '"true"'
    fixed = _fixed(_fixed(_TASK, boolean), typo)
    assert "  VLLM_LOGGING_LEVEL: DEBUG\n" in fixed and '  VLLM_USE_DEEP_GEMM: "1"\n' in fixed
    again = _check(fixed, "task.sky.yaml")
    assert not {"VC240", "VC241"} & {f.code for f in again.findings}


# -- Ray Serve application runtime_env ---------------------------------------------------

#: A `serve run` config as Ray Serve LLM's docs write one (ray-project/ray
#: doc/source/serve/llm: `applications[].args.llm_configs`), with an application-level
#: `runtime_env` (ray python/ray/serve/schema.py `ServeApplicationSchema.runtime_env`).
_SERVE_CONFIG = """applications:
- name: llm
  route_prefix: /
  import_path: ray.serve.llm:build_openai_app
  runtime_env:
    env_vars:
      VLLM_USE_DEEP_GEMM: "true"
      VLLM_LOGGING_LEVEL: INFO
  args:
    llm_configs:
    - model_loading_config:
        model_id: qwen
        model_source: Qwen/Qwen2.5-7B-Instruct
      engine_kwargs:
        max_model_len: 8192
      runtime_env:
        env_vars:
          VLLM_LOGGING_LEVEL: DEBUG
"""


def test_serve_config_application_runtime_env(tmp_path: Path) -> None:
    """The application's variables come first, the deployment's own win a name both set;
    the Ray nodes' environment is not shown (open). A bare Serve config is read as a
    RayService's `serveConfigV2` is."""
    path = tmp_path / "serve_config.yaml"
    path.write_text(_SERVE_CONFIG, encoding="utf-8")
    [entry] = json.loads(cli("argv", "--format", "json", str(path)).stdout)
    assert entry["argv"] == ["--max-model-len", "8192"]  # the model: `model_source`
    assert entry["environment"] == [
        {"name": "VLLM_USE_DEEP_GEMM", "value": "true", "origin": "application runtime_env"},
        {"name": "VLLM_LOGGING_LEVEL", "value": "INFO", "origin": "application runtime_env"},
        {"name": "VLLM_LOGGING_LEVEL", "value": "DEBUG", "origin": "runtime_env"},
    ]
    assert entry["environment_open"] is True
    checked = _check(_SERVE_CONFIG, "serve_config.yaml")
    boolean = _only(checked, "VC241")
    assert _SERVE_CONFIG[boolean.start : boolean.end] == '"true"'
    fixed = _fixed(_SERVE_CONFIG, boolean)
    assert 'VLLM_USE_DEEP_GEMM: "1"' in fixed
    assert "VC241" not in {f.code for f in _check(fixed, "serve_config.yaml").findings}


def test_rayservice_application_runtime_env() -> None:
    """The same application inside a RayService's `serveConfigV2` string: the names land
    on the manifest's characters."""
    embedded = "".join(f"    {line}\n" for line in _SERVE_CONFIG.splitlines())
    text = (
        "apiVersion: ray.io/v1\nkind: RayService\nmetadata:\n  name: llm\nspec:\n"
        f"  serveConfigV2: |\n{embedded}"
    )
    checked = _check(text, "rayservice.yaml")
    [model] = checked.result.invocations if checked.result is not None else []
    start = model.invocation
    assert start is not None
    names = [(var.name.text, text[var.name.start : var.name.end]) for var in start.environ]
    assert names == [
        ("VLLM_USE_DEEP_GEMM", "VLLM_USE_DEEP_GEMM"),
        ("VLLM_LOGGING_LEVEL", "VLLM_LOGGING_LEVEL"),
        ("VLLM_LOGGING_LEVEL", "VLLM_LOGGING_LEVEL"),
    ]
    assert "VC241" in {f.code for f in checked.findings}


# -- Ray's runtime_env in Python ---------------------------------------------------------

#: A Ray job as Ray's docs write one (doc/source/ray-core/handling-dependencies.rst:
#: `ray.init(runtime_env={"env_vars": ...})`, a task's own `runtime_env`), whose task starts
#: vLLM; the driver's own start gets none of it.
_RAY_JOB = """import subprocess

import ray
from ray import serve

ray.init(runtime_env={"env_vars": {"VLLM_USE_DEEP_GEMM": "true", "HF_HOME": "/data/hf"}})


@ray.remote(num_gpus=1, runtime_env={"env_vars": {"VLLM_LOGGING_LEVL": "DEBUG"}})
def serve_model():
    subprocess.run(["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--port", "8000"])


@serve.deployment(ray_actor_options={"runtime_env": {"env_vars": {"VLLM_PORT": "8001"}}})
class Server:
    def __init__(self):
        subprocess.Popen(["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct"])


def local():
    subprocess.run(["vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--port", "9000"])
"""


def test_ray_runtime_env_reaches_the_starts_in_ray_workers() -> None:
    starts = python_argv.find_invocations(_RAY_JOB)
    assert [_environ(start) for start in starts] == [
        [
            ("VLLM_USE_DEEP_GEMM", "true", "ray.init"),
            ("HF_HOME", "/data/hf", "ray.init"),
            ("VLLM_LOGGING_LEVL", "DEBUG", "runtime_env"),
        ],
        [
            ("VLLM_USE_DEEP_GEMM", "true", "ray.init"),
            ("HF_HOME", "/data/hf", "ray.init"),
            ("VLLM_PORT", "8001", "runtime_env"),
        ],
        [],  # the driver's own process: ray.init's runtime_env is its workers'
    ]
    assert [start.environ_open for start in starts] == [True, True, False]


def test_ray_runtime_env_is_checked_and_fixed() -> None:
    checked = _check(_RAY_JOB, "job.py")
    typo = _only(checked, "VC240")
    assert _RAY_JOB[typo.start : typo.end] == "VLLM_LOGGING_LEVL"
    booleans = [f for f in checked.findings if f.code == "VC241"]
    assert {_RAY_JOB[f.start : f.end] for f in booleans} == {'"true"'}
    fixed = _fixed(_fixed(_RAY_JOB, typo), booleans[0])  # the later edit first
    ast.parse(fixed)
    assert '{"VLLM_LOGGING_LEVEL": "DEBUG"}' in fixed and '"VLLM_USE_DEEP_GEMM": "1"' in fixed
    assert not {"VC240", "VC241"} & {f.code for f in _check(fixed, "job.py").findings}
