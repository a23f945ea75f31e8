"""The one start matcher (`sources.argv`): where vLLM starts in a word list, whichever host
wrote it. Each row is a command line (words split at spaces; a `$X` word is unresolved, a
`$@`/`${A[@]}` word may be any number of words) and what it runs: a start with its
entrypoint, the word it spans and the words vLLM's parser receives, a script for the shell
to read, or nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from support import cli
from vllm_config_lsp.sources import argv
from vllm_config_lsp.sources.invocation import Word

_SPLAT = re.compile(r"\$@|\"?\$\{\w+\[@\]\}\"?")


def words(line: str) -> list[Word]:
    """The words of `line` at their offsets; `'...'` groups a word with spaces."""
    out: list[Word] = []
    for found in re.finditer(r"'[^']*'|\S+", line):
        text, start = found.group(), found.start()
        quoted = text.startswith("'")
        inner = text[1:-1] if quoted else text
        first = start + 1 if quoted else start
        unresolved = tuple(re.findall(r"\$\{?[\w@\[\]]+\}?", inner)) if not quoted else ()
        field = re.fullmatch(r"\{(.+)\}", inner)  # a Python argv's `{sys.executable}`
        if field:
            unresolved = (field.group(1),)
        out.append(
            Word(
                inner,
                start,
                found.end(),
                tuple(range(first, first + len(inner))),
                tuple(range(first + 1, first + len(inner) + 1)),
                unresolved=unresolved,
                splat=bool(_SPLAT.fullmatch(inner)),
            )
        )
    return out


IMAGES = {"$IMAGE": "vllm/vllm-openai:v0.9.0", "$OTHER": "python:3.12"}


def resolve(word: Word) -> str:
    return IMAGES.get(word.text, word.text)


#: (command line, entrypoint, the word the start spans or None for an image's own
#: entrypoint, the args, the image)
STARTS = [
    ("vllm serve m --port 1", "serve", "vllm", "m --port 1", None),
    ("/opt/venv/bin/vllm serve m", "serve", "/opt/venv/bin/vllm", "m", None),
    ("vllm serve", "serve", "vllm", "", None),
    ("A=1 B=2 vllm serve m", "serve", "vllm", "m", None),
    ("exec vllm serve m", "serve", "vllm", "m", None),
    ("nohup vllm serve m --tp 2", "serve", "vllm", "m --tp 2", None),
    ("env CUDA_VISIBLE_DEVICES=0,1 vllm serve m", "serve", "vllm", "m", None),
    ("srun -N1 --gpus 8 vllm serve m", "serve", "vllm", "m", None),
    ("$SRUN $APPTAINER_CMD vllm serve m", "serve", "vllm", "m", None),
    ('"${PREFIX[@]}" vllm serve m', "serve", "vllm", "m", None),
    ("apptainer exec --nv img.sif vllm serve m", "serve", "vllm", "m", None),
    ("singularity exec --nv docker://python:3 vllm serve m", "serve", "vllm", "m", None),
    (
        "apptainer run --nv -B /data:/data docker://vllm/vllm-openai:v0.9.0 --model m",
        "serve",
        "docker://vllm/vllm-openai:v0.9.0",
        "--model m",
        "docker://vllm/vllm-openai:v0.9.0",
    ),
    ("ray job submit --working-dir . -- vllm serve m", "serve", "vllm", "m", None),
    ("uv run vllm serve m", "serve", "vllm", "m", None),
    ("uv run --with vllm vllm serve m", "serve", "vllm", "m", None),
    ("uvx vllm@0.8.5 serve m", "serve", "vllm@0.8.5", "m", None),
    ("hatch run -- vllm serve m", "serve", "vllm", "m", None),
    ("pixi run vllm serve m", "serve", "vllm", "m", None),
    ("conda run -n env vllm serve m", "serve", "vllm", "m", None),
    ("tini -- vllm serve m", "serve", "vllm", "m", None),
    ("/usr/bin/dumb-init -- vllm serve m", "serve", "vllm", "m", None),
    ("kubectl exec pod -- vllm serve m", "serve", "vllm", "m", None),
    ("timeout 600 numactl --cpunodebind=0 vllm serve m", "serve", "vllm", "m", None),
    (
        "python -m vllm.entrypoints.openai.api_server --model m",
        "api_server",
        "python",
        "--model m",
        None,
    ),
    (
        "python3 -u -m vllm.entrypoints.openai.api_server --model m",
        "api_server",
        "python3",
        "--model m",
        None,
    ),
    (
        "python3 -O -X importtime -W ignore -m vllm.entrypoints.openai.api_server --port 1",
        "api_server",
        "python3",
        "--port 1",
        None,
    ),
    (
        "python3 -Xdev -Wignore -m vllm.entrypoints.openai.api_server",
        "api_server",
        "python3",
        "",
        None,
    ),
    (
        "python3.11 -uB -m vllm.entrypoints.api_server --model m",
        "api_server",
        "python3.11",
        "--model m",
        None,
    ),
    (
        "python -mvllm.entrypoints.openai.api_server --model m",
        "api_server",
        "python",
        "--model m",
        None,
    ),
    ("python -um vllm.entrypoints.openai.api_server", "api_server", "python", "", None),
    ("python3 -m vllm.entrypoints.cli.main serve m", "serve", "python3", "m", None),
    ("/usr/bin/python3 -m vllm.entrypoints.api_server", "api_server", "/usr/bin/python3", "", None),
    (
        "$PYTHON -m vllm.entrypoints.openai.api_server --model m",
        "api_server",
        "$PYTHON",
        "--model m",
        None,
    ),
    (
        "{sys.executable} -u -m vllm.entrypoints.openai.api_server",
        "api_server",
        "{sys.executable}",
        "",
        None,
    ),
    (
        "numactl --cpunodebind=0 python3 -m vllm.entrypoints.openai.api_server --model m",
        "api_server",
        "python3",
        "--model m",
        None,
    ),
    (
        "docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.9.0 --model m",
        "serve",
        "vllm/vllm-openai:v0.9.0",
        "--model m",
        "vllm/vllm-openai:v0.9.0",
    ),
    (
        "docker run vllm/vllm-openai:v0.6.3 --model m",
        "api_server",
        "vllm/vllm-openai:v0.6.3",
        "--model m",
        "vllm/vllm-openai:v0.6.3",
    ),
    (
        "docker run -d --rm --name x -v /m:/m ghcr.io/acme/vllm-avx2-docker:latest /m/q --port 1",
        "serve",
        "ghcr.io/acme/vllm-avx2-docker:latest",
        "/m/q --port 1",
        "ghcr.io/acme/vllm-avx2-docker:latest",
    ),
    (
        "docker run --entrypoint python3 img -m vllm.entrypoints.openai.api_server --model m",
        "api_server",
        "python3",
        "--model m",
        "img",
    ),
    ("docker run img vllm serve m", "serve", "vllm", "m", "img"),
    ("docker container run -it img vllm serve m", "serve", "vllm", "m", "img"),
    ("docker exec -it ctr vllm serve m", "serve", "vllm", "m", None),
    (
        "podman run opea/vllm-gaudi:latest --model m",
        "api_server",
        "opea/vllm-gaudi:latest",
        "--model m",
        "opea/vllm-gaudi:latest",
    ),
    (
        "sudo docker run --ipc=host vllm/vllm-openai --model m",
        "serve",
        "vllm/vllm-openai",
        "--model m",
        "vllm/vllm-openai",
    ),
    (
        "docker run -e A=1 $IMAGE --model m",
        "serve",
        "$IMAGE",
        "--model m",
        "vllm/vllm-openai:v0.9.0",
    ),
    (
        "docker run rocm/vllm:latest --model m",
        "serve",
        "rocm/vllm:latest",
        "--model m",
        "rocm/vllm:latest",
    ),
    # NVIDIA Dynamo's worker: its own flags (and their values) are taken out first
    (
        "python3 -m dynamo.vllm --model m --is-prefill-worker --endpoint dyn://a.b.c --tp 2",
        "api_server",
        "python3",
        "--model m --tp 2",
        None,
    ),
    (
        "python3 -m dynamo.vllm --connector nixl lmcache --no-use-vllm-tokenizer --model m"
        " --disaggregation-mode=prefill --dyn-structural-tag --max-model-len 8k",
        "api_server",
        "python3",
        "--model m --max-model-len 8k",
        None,
    ),
]


@pytest.mark.parametrize(
    ("line", "entrypoint", "exe", "args", "image"), STARTS, ids=[s[0] for s in STARTS]
)
def test_start(line: str, entrypoint: str, exe: str, args: str, image: str | None) -> None:
    found = argv.match(words(line), resolve=resolve)
    assert isinstance(found, argv.Start), found
    assert found.entrypoint == entrypoint
    assert found.exe is not None and found.exe.text == exe
    assert [word.text for word in found.args] == args.split()
    assert found.image == image
    # the words keep their offsets: the start spans the executable as written
    assert line[found.exe.start : found.exe.end].strip("'") == exe


SCRIPTS = [
    ("bash -lc 'vllm serve m'", "vllm serve m"),
    ("sh -c 'ray start --head && vllm serve m'", "ray start --head && vllm serve m"),
    ("/bin/bash -exc -- 'vllm serve m' arg0", "vllm serve m"),
    ("bash -o pipefail -c 'vllm serve m'", "vllm serve m"),
    ("nohup bash -c 'vllm serve m'", "vllm serve m"),
    ("docker run --entrypoint bash img -c 'vllm serve m'", "vllm serve m"),
    ("docker run img /bin/sh -c 'vllm serve m'", "vllm serve m"),
    ("eval vllm serve m", "vllm serve m"),
]


@pytest.mark.parametrize(("line", "script"), SCRIPTS, ids=[s[0] for s in SCRIPTS])
def test_script(line: str, script: str) -> None:
    found = argv.match(words(line))
    assert isinstance(found, argv.Script), found
    assert found.script.text == script


def test_a_script_keeps_the_image_it_runs_in() -> None:
    found = argv.match(words("docker run --entrypoint bash img -c 'vllm serve m'"))
    assert isinstance(found, argv.Script)
    assert found.image == "img"


NOTHING = [
    "",
    "vllm bench serve m",
    "vllm --version",
    "vllm chat",
    "echo vllm serve m",
    "nohup echo vllm serve m",
    "timeout 10 pkill -f vllm serve",
    "srun grep vllm serve",
    "python train.py vllm serve",
    "python -c 'import vllm' -m vllm.entrypoints.openai.api_server",
    "python -m pytest vllm serve",
    "python3 -m vllm.entrypoints.cli.main bench",
    "bash script.sh vllm serve",
    "bash -c",
    "./run.sh vllm serve m",
    "torchrun vllm serve m",
    "docker run vllm/vllm-openai bash",
    "docker run vllm/vllm-router:latest --port 1",
    "docker run python:3.12 --model m",
    "docker run $OTHER --model m",
    "docker build -t vllm/vllm-openai .",
    "docker run",
    "apptainer run docker://python:3 --model m",
    "--model m --port 1",
    "$EXTRA_ARGS",
    # other engines next to vLLM, even with vLLM-like flags (issue 28 item 10)
    "python -m sglang.launch_server --model-path m --port 30000",
    "python3 -m sglang.launch_server --model m --tp 2",
    "docker run lmsysorg/sglang:latest python3 -m sglang.launch_server --model-path m",
    "text-generation-launcher --model-id m --num-shard 2",
    "docker run ghcr.io/huggingface/text-generation-inference:2.0 --model-id m",
    "lmdeploy serve api_server m --tp 2 --server-port 1",
    "trtllm-serve m --tp_size 2 --port 1",
    "llama-server -m model.gguf --port 1 -c 4096",
    "python3 -m dynamo.frontend --http-port 8000",
    "python3 -m dynamo.sglang --model-path m",
    "python3 -m dynamo.trtllm --model-path m",
    "nohup python3 -m sglang.launch_server --model-path m --port 1",
]


@pytest.mark.parametrize("line", NOTHING)
def test_nothing(line: str) -> None:
    assert argv.match(words(line), resolve=resolve) is None


#: (image, command, entrypoint override, entrypoint started or None, args)
CONTAINERS = [
    ("vllm/vllm-openai:latest", "--model m", None, "serve", "--model m"),
    ("vllm/vllm-openai:v0.5.4", "--model m", None, "api_server", "--model m"),
    ("vllm/vllm-openai:latest", "", None, "serve", ""),
    ("lmcache/vllm-openai:2025", "--model m", None, "serve", "--model m"),
    ("python:3.12", "vllm serve m", None, "serve", "m"),
    ("vllm/vllm-openai", "vllm serve m", None, "serve", "m"),
    (
        "vllm/vllm-openai",
        "--x",
        "python3 -m vllm.entrypoints.openai.api_server",
        "api_server",
        "--x",
    ),
    ("img", "--model m", "vllm serve", "serve", "--model m"),
    ("python:3.12", "--model m", None, None, ""),
    ("vllm/vllm-openai", "bash", None, None, ""),
    ("ghcr.io/llm-d/llm-d-inference-scheduler:v0.2", "--port 1", None, None, ""),
    ("img", "m", "/bin/echo", None, ""),
]


@pytest.mark.parametrize(("image", "command", "entrypoint", "started", "args"), CONTAINERS)
def test_container(
    image: str, command: str, entrypoint: str | None, started: str | None, args: str
) -> None:
    override = words(entrypoint) if entrypoint is not None else None
    found = argv.container(image, words(command), entrypoint=override)
    if started is None:
        assert found is None
        return
    assert isinstance(found, argv.Start)
    assert found.entrypoint == started
    assert [word.text for word in found.args] == args.split()


IMAGES_TABLE = [
    ("vllm/vllm-openai:v0.9.0", "serve"),
    ("vllm/vllm-openai:v0.6.6.post1", "api_server"),
    ("vllm/vllm-openai:v0." + "9" * 5000, "serve"),  # no number: no release
    ("docker.io/vllm/vllm-openai:latest@sha256:0123", "serve"),
    ("registry:5000/vllm/vllm-openai:v0.8.5", "serve"),
    ("vllm/vllm-tpu:nightly", "serve"),
    ("rocm/vllm:latest", "serve"),
    ("opea/vllm-gaudi:1.2", "api_server"),
    ("ghcr.io/acme/vllm-avx2-docker:latest", "serve"),
    ("docker://vllm/vllm-openai:v0.9.0", "serve"),
    ("myorg/qwen-vllm:1", "serve"),
    ("vllm/vllm-router:latest", None),
    ("ghcr.io/llm-d/llm-d-routing-sidecar:v0.2", None),
    ("vllm-mock:1", None),
    ("python:3.12", None),
    ("nvcr.io/nvidia/tritonserver:24.01-vllm-python-py3", None),
    ("", None),
]


@pytest.mark.parametrize(("image", "entrypoint"), IMAGES_TABLE)
def test_image_table(image: str, entrypoint: str | None) -> None:
    assert argv.is_vllm_image(image) is (entrypoint is not None)
    if entrypoint is not None:
        assert argv.image_entrypoint(image) == entrypoint


def test_a_pinned_tool_states_the_release() -> None:
    found = argv.match(words("uvx vllm@0.8.5 serve m"))
    assert isinstance(found, argv.Start)
    invocation = argv.invocation(found, "shell")
    assert invocation.pinned_version == "0.8.5"


def test_the_invocation_spans_the_first_argument_of_an_image_start() -> None:
    line = "--model m --port 1"
    found = argv.container("vllm/vllm-openai", words(line))
    assert isinstance(found, argv.Start)
    invocation = argv.invocation(found, "compose", anchor=(100, 120))
    assert (invocation.start, invocation.end) == (0, 7)
    assert invocation.insert_at == len(line)
    bare = argv.container("vllm/vllm-openai", [])
    assert isinstance(bare, argv.Start)
    assert argv.invocation(bare, "compose", anchor=(100, 120)).start == 100


def test_a_flag_goes_after_serve_when_there_are_no_arguments() -> None:
    line = "vllm serve"
    found = argv.match(words(line))
    assert isinstance(found, argv.Start)
    assert argv.invocation(found, "shell").insert_at == len(line)


def test_a_long_wrapped_argv_is_scanned_in_linear_time() -> None:
    many = words("env " + "A " * 40_000 + "vllm serve m")
    found = argv.match(many)
    assert isinstance(found, argv.Start)
    assert [word.text for word in found.args] == ["m"]


# -- real files the old matchers missed (tests/sources/data/real/SOURCES.md) ----------------

REAL = Path(__file__).resolve().parent / "data" / "real"


def _argv(*paths: Path) -> list[dict[str, Any]]:
    done = cli("argv", "--format", "json", *map(str, paths))
    assert done.returncode == 0, done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def test_real_docker_run_of_a_vllm_image_built_under_another_name() -> None:
    (found,) = _argv(REAL / "Hiroaki-Masuzawa__llm_vlm_memo__run_qwen2.5-3b_cpu.sh")
    assert (found["line"], found["source"]) == (8, "shell")  # the image word `vllm-cpu-env`
    # `${MODEL}` holds what the script's `MODEL=` line assigns
    assert found["argv"][:2] == ["--model", "Qwen/Qwen2.5-VL-3B-Instruct"]
    assert found["argv"][-2:] == ["--max_model_len", "116480"]


def test_real_exec_cmd_continued_item_per_line_starts_at_the_cmd() -> None:
    (found,) = _argv(REAL / "bq1024__Llama-3.2-1B__Dockerfile")
    assert (found["line"], found["column"]) == (3, 6)  # `"--host"`, not the FROM line
    assert found["argv"][-2:] == ["--max-model-len", "8128"]
    assert len(found["argv"]) == 11


def test_real_compose_service_built_from_a_vllm_dockerfile(tmp_path: Path) -> None:
    folder = tmp_path / "vllm-server"
    folder.mkdir()
    (folder / "Dockerfile").write_bytes((REAL / "PairZhu__DockerBuilder__Dockerfile").read_bytes())
    compose = tmp_path / "compose.yaml"
    compose.write_text(
        "services:\n"
        "  llm:\n"
        "    build: ./vllm-server\n"
        "    command:\n"
        "      - --model\n"
        "      - Qwen/Qwen3-8B\n"
        "      - --max-model-len\n"
        '      - "8192"\n'
        "  web:\n"
        "    build: ./web\n"
        "    command: --port 8080\n",
        encoding="utf-8",
    )
    (found,) = _argv(compose)
    assert (found["line"], found["source"]) == (5, "compose")
    assert found["argv"] == ["--model", "Qwen/Qwen3-8B", "--max-model-len", "8192"]
