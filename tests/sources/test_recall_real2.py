"""Forms of vLLM starts the second recall round found missed or misread on fresh public
files (tests/sources/data/recall2/, SOURCES.md), each tested on the real file that showed it
where its licence lets it be kept, and on the smallest file of the same form; and files of
other servers (recall2/other-servers/) on which nothing is reported:

* an inline comment written as a backtick substitution (``--dtype auto `# why` \\``) is a
  word bash drops, not the start of a comment that runs to the end of the file;
* `systemd-run [options] CMD …` runs CMD;
* a file to copy (`serve.sh.example`, `compose.yml.dist`, `.sample`) is read as the file it
  is copied to;
* an entrypoint script (`["/vllm-entrypoint.sh"]`, `[bash, /start.sh]`) in front of a
  command that starts vLLM by itself runs that command (`exec "$@"`);
* a script under its own name with Jinja statements in it (`templates/serve.sh` of an
  application that renders it) is a template: its branches are read apart, its holes are
  unknown text (among `docker run` options too), not words of the command line;
* `apptainer instance run [options] IMAGE NAME args` runs the image's runscript with the
  args, and an expansion in front of an option (`$NV --bind …`) is options, not the image;
* `pm2 start PROGRAM [pm2 options] -- args` runs PROGRAM with the args after `--`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support import cli

DATA = Path(__file__).resolve().parent / "data" / "recall2"
OTHERS = sorted(path for path in (DATA / "other-servers").rglob("*") if path.is_file())


def _argv(path: Path) -> list[dict[str, Any]]:
    done = cli("argv", "--format", "json", str(path))
    assert done.returncode == 0, done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def _codes(path: Path) -> list[str]:
    done = cli("check", "--format", "json", str(path))
    assert done.returncode in (0, 1), done.stderr
    return [finding["code"] for finding in json.loads(done.stdout)]


def test_a_backtick_comment_in_a_real_command_line() -> None:
    (start,) = _argv(DATA / "serve_api.sh")
    assert start["line"] == 15  # `python3 -m vllm.entrypoints.api_server \`
    at = start["argv"].index("--dtype")
    assert start["argv"][at : at + 4] == ["--dtype", "auto", "-tp", "${gpu_num}"]
    assert start["argv"][-1] == "--disable-log-stats"
    assert not [word for word in start["argv"] if "`" in word]


@pytest.mark.parametrize(
    ("written", "argv"),
    [
        ("--dtype auto `# why` \\\n  --port 8000", ["--dtype", "auto", "--port", "8000"]),
        ("--dtype auto `# “why”`\\\n  --port 8000", ["--dtype", "auto", "--port", "8000"]),
        ("--port `echo 8000`", ["--port", "`echo 8000`"]),  # a real substitution stays
    ],
)
def test_backtick_comments(tmp_path: Path, written: str, argv: list[str]) -> None:
    script = tmp_path / "serve.sh"
    script.write_text(f"vllm serve org/model \\\n  {written}\n", encoding="utf-8")
    (start,) = _argv(script)
    assert start["argv"] == ["org/model", *argv]


@pytest.mark.parametrize(
    ("command", "starts"),
    [
        (
            "systemd-run --user --scope -p MemoryMax=90% \\\n    python3 -m vllm.entrypoints"
            ".openai.api_server --model org/model",
            1,
        ),
        ("systemd-run --unit=vllm --property=Nice=5 vllm serve org/model", 1),
        ("systemd-run --user echo vllm serve org/model", 0),
    ],
)
def test_systemd_run_runs_its_command(tmp_path: Path, command: str, starts: int) -> None:
    script = tmp_path / "start_vllm.sh"
    script.write_text(f"#!/bin/bash\n{command}\n", encoding="utf-8")
    found = _argv(script)
    assert len(found) == starts, found
    if starts:
        assert found[0]["argv"][-1] == "org/model"
        assert not [env for env in found[0]["environment"] if "MemoryMax" in env["name"]]


@pytest.mark.parametrize(
    ("name", "text", "starts"),
    [
        ("start_model.sh.example", "#!/bin/bash\nvllm serve /models/m --max-model-len 8192\n", 1),
        ("serve.sh.sample", "vllm serve /models/m\n", 1),
        (
            "docker-compose.yml.dist",
            "services:\n  vllm:\n    image: vllm/vllm-openai:v0.10.2\n"
            "    command: --model org/m --max-model-len 8192\n",
            1,
        ),
        (".env.example", "VLLM_MODEL=org/m\n", 0),
    ],
)
def test_a_file_to_copy_is_read_as_its_copy(
    tmp_path: Path, name: str, text: str, starts: int
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    found = _argv(path)
    assert len(found) == starts, found
    if starts:
        assert "8192" in found[0]["argv"] or found[0]["argv"] == ["/models/m"]


_COMPOSE = """services:
  vllm:
    image: local/vllm-openai:custom
    entrypoint: {entrypoint}
    command:
{command}
"""


@pytest.mark.parametrize(
    ("entrypoint", "command", "starts"),
    [
        ('["/vllm-entrypoint.sh"]', ["python", "-m", "vllm.entrypoints.openai.api_server"], 1),
        ('["bash", "/app/start.sh"]', ["vllm", "serve"], 1),
        ('["/docker-entrypoint"]', ["vllm", "serve"], 1),
        ('["/vllm-entrypoint.sh"]', [], 0),  # the script's own arguments, whatever it does
        ('["bash", "-c"]', ["vllm", "serve"], 0),  # `bash -c vllm serve …` runs `vllm` alone
    ],
)
def test_an_entrypoint_script_runs_a_command_that_starts_vllm(
    tmp_path: Path, entrypoint: str, command: list[str], starts: int
) -> None:
    words = [*command, "--model", "org/m", "--max-model-len", "8192"]
    listed = "\n".join(f"      - {word}" for word in words)
    path = tmp_path / "docker-compose.yml"
    path.write_text(_COMPOSE.format(entrypoint=entrypoint, command=listed), encoding="utf-8")
    found = _argv(path)
    assert len(found) == starts, found
    if starts:
        assert found[0]["argv"][-4:] == ["--model", "org/m", "--max-model-len", "8192"]


def test_an_entrypoint_script_of_a_kubernetes_container_and_a_dockerfile(tmp_path: Path) -> None:
    manifest = tmp_path / "deploy.yaml"
    manifest.write_text(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: vllm\nspec:\n  containers:\n"
        "    - name: vllm\n      image: registry.local/vllm:custom\n"
        '      command: ["/entrypoint.sh"]\n'
        '      args: ["vllm", "serve", "org/m", "--max-model-len", "8192"]\n',
        encoding="utf-8",
    )
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(
        'FROM python:3.12\nENTRYPOINT ["/start.sh"]\nCMD ["vllm", "serve", "org/m"]\n',
        encoding="utf-8",
    )
    (pod,) = _argv(manifest)
    assert pod["argv"] == ["org/m", "--max-model-len", "8192"]
    (image,) = _argv(dockerfile)
    assert image["argv"] == ["org/m"]


_JINJA_SCRIPT = """{% extends "base.sh" %}
{% block command %}
{%- if gpus > 1 %}
vllm serve {{ model }} \\
  --tensor-parallel-size {{ gpus }} \\
{%- else %}
vllm serve {{ model }} \\
{%- endif %}
  --port {{ port }}
{%- endblock %}
"""


def test_a_jinja_script_under_its_own_name_is_a_template(tmp_path: Path) -> None:
    path = tmp_path / "serve.sh"
    path.write_text(_JINJA_SCRIPT, encoding="utf-8")
    found = [start["argv"] for start in _argv(path)]
    assert found == [
        ["{{ model }}", "--tensor-parallel-size", "{{ gpus }}", "--port", "{{ port }}"],
        ["{{ model }}", "--port", "{{ port }}"],
    ]
    assert "VC201" not in _codes(path)  # `{{ gpus }}` is unknown, not an invalid int


def test_a_shell_script_with_braces_but_no_jinja_stays_a_script(tmp_path: Path) -> None:
    path = tmp_path / "serve.sh"
    path.write_text(
        'printf "{%s}\\n" done\nvllm serve org/m --tensor-parallel-size abc\n', encoding="utf-8"
    )
    (start,) = _argv(path)
    assert start["argv"] == ["org/m", "--tensor-parallel-size", "abc"]
    assert "VC201" in _codes(path)


def test_a_real_jinja_script_with_holes_among_container_options() -> None:
    docker, apptainer = _argv(DATA / "text_generation_local.sh")
    assert docker["line"] == 8  # the image: `docker run -d {{ … }}` holds options
    assert docker["vllm_version"] == "0.8.5.post1"  # vllm/vllm-openai:v0.8.4
    revision = "/data/snapshots/{{ container_config['revision'] }}"
    assert docker["argv"][:2] == ["--model", revision]
    assert docker["argv"][-1] == "--trust-remote-code"
    assert apptainer["line"] == 16  # `{{ cache_dir }}/images/vllm-openai_v0.10.2.sif`
    assert apptainer["argv"] == docker["argv"]  # the instance name `{{ name }}` is not one
    (slurm,) = _argv(DATA / "text_generation_slurm.sh")
    assert slurm["argv"][:2] == ["--model", revision]


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        (
            "apptainer instance run --nv images/vllm-openai_latest.sif vllm1 --model m",
            ["--model", "m"],
        ),
        (
            "apptainer instance run $NV --bind /m:/d vllm-openai_latest.sif i1 --model m",
            ["--model", "m"],
        ),
        ("singularity run $FLAGS --nv vllm-openai_latest.sif --port 8001", ["--port", "8001"]),
        ("apptainer instance start vllm-openai_latest.sif vllm1 --model m", None),
        ("apptainer run $IMAGE --model m", None),  # the image is not known
    ],
)
def test_apptainer_instances_and_unknown_options(
    tmp_path: Path, command: str, argv: list[str] | None
) -> None:
    script = tmp_path / "serve.sh"
    script.write_text(f"{command}\n", encoding="utf-8")
    found = [start["argv"] for start in _argv(script)]
    assert found == ([] if argv is None else [argv])


@pytest.mark.parametrize(
    ("command", "argv"),
    [
        (
            "pm2 start python3 --name vllm-0 -- -m vllm.entrypoints.openai.api_server --model m",
            ["--model", "m"],
        ),
        ("pm2 start vllm --name v -- serve org/m --port 8002", ["org/m", "--port", "8002"]),
        ('pm2 start "vllm serve org/m --port 8003" --name v3', ["org/m", "--port", "8003"]),
        ("pm2 start app.js --name web -- vllm serve org/m", None),  # app.js gets the words
        ("pm2 start vllm --name v", None),  # `vllm` alone serves nothing
        ("pm2 logs vllm serve", None),
    ],
)
def test_pm2_start_runs_its_program(tmp_path: Path, command: str, argv: list[str] | None) -> None:
    script = tmp_path / "serve.sh"
    script.write_text(f"{command}\n", encoding="utf-8")
    found = [start["argv"] for start in _argv(script)]
    assert found == ([] if argv is None else [argv])


def test_the_recall2_data_is_cited() -> None:
    cited = (DATA / "SOURCES.md").read_text(encoding="utf-8")
    for path in [*OTHERS, *DATA.glob("*.sh")]:
        assert f"| {path.relative_to(DATA).as_posix()} |" in cited


@pytest.mark.parametrize("path", OTHERS, ids=lambda path: path.name)
def test_files_of_other_servers_start_no_vllm(path: Path) -> None:
    assert _argv(path) == []
    assert _codes(path) == []
