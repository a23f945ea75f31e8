"""Where vLLM starts in a word list: the one start matcher every host uses.

A host hands over the words of one command line as the program receives them (a shell
command's words, a container's `command` + `args`, a Dockerfile's ENTRYPOINT + CMD, a Python
argv list), and `match` says what they run:

* `Start`: vLLM itself, with the words its parser receives (`vllm serve`, `python3 [-u -O
  -X opt -W x …] -m vllm.entrypoints.openai.api_server` or the older
  `vllm.entrypoints.api_server`, `-m vllm.entrypoints.cli.main serve`, `uvx vllm@X serve`,
  NVIDIA Dynamo's `-m dynamo.vllm`, whose own flags `sources.dynamo` takes out),
  possibly behind environment assignments and wrappers (`exec`, `nohup`, `env A=B`, `srun
  …`, `apptainer exec IMG`, `ray job submit … --`, `uv run`, `hatch run --`, `tini --`) or a
  container runtime (`docker run … IMAGE`, `apptainer run IMAGE`) whose image runs vLLM as
  its entrypoint (`image_entrypoint`, a table);
* `Script`: a string a shell runs (`sh -c '…'`, `bash -lc`, `eval "…"`), for the caller to
  read as shell (this module knows no shell grammar);
* None: something else, or nothing that decides.

`container` is how a container runtime combines an image's entrypoint with a command
(Kubernetes `command`/`args`, compose `entrypoint`/`command`, a workflow's `docker://` step).
Nothing here reads a document: the words carry their offsets, and `invocation` makes the
`Invocation` a host reports. A container runtime's own environment options (`docker run -e
NAME=value`, `--env-file`) travel with what it starts (`Container`).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from vllm_config_lsp.sources import dynamo
from vllm_config_lsp.sources.invocation import EnvVar, GpuClaim, Invocation, Word, assignment

__all__ = [
    "Container",
    "Script",
    "Start",
    "container",
    "image_entrypoint",
    "in_container",
    "invocation",
    "is_vllm_image",
    "match",
]

#: Python modules that run vLLM's server, and the entrypoint each is (`api_server`: both API
#: server modules build their parser from the engine arguments plus host/port/SSL options).
_MODULES = {
    "vllm.entrypoints.openai.api_server": "api_server",
    "vllm.entrypoints.api_server": "api_server",
}
_CLI_MAIN = "vllm.entrypoints.cli.main"
_PYTHON = re.compile(r"python(?:\d+(?:\.\d+)*)?")
#: `uvx vllm@0.8.5`, `vllm==0.8.5` as uv names a tool at a release.
_TOOL_AT = re.compile(r"vllm(?:\[[^\]]*\])?(?:@|==)([0-9][0-9A-Za-z.+!-]*)")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
#: uv's commands that run a command in an environment they build (`uvx`, `uv run`).
_UVS = frozenset({"uv", "uvx"})
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash"})
_DOCKERS = frozenset({"docker", "podman", "nvidia-docker"})
_APPTAINERS = frozenset({"apptainer", "singularity"})

#: Commands that run their arguments as a command line (with options of their own in front):
#: the words after one are scanned for the first that starts something.
WRAPPERS = frozenset(
    {
        "exec",
        "nohup",
        "time",
        "env",
        "command",
        "builtin",
        "sudo",
        "doas",
        "nice",
        "ionice",
        "chrt",
        "taskset",
        "numactl",
        "stdbuf",
        "timeout",
        "setsid",
        "unbuffer",
        "systemd-run",
        "srun",
        "salloc",
        "mpirun",
        "mpiexec",
        "singularity",
        "apptainer",
        "ray",
        "hatch",
        "uv",
        "uvx",
        "poetry",
        "pipenv",
        "pdm",
        "rye",
        "pixi",
        "conda",
        "mamba",
        "micromamba",
        "kubectl",
        "xargs",
        "tini",
        "dumb-init",
        "catatonit",
    }
)
#: Commands whose arguments are data: scanning a wrapper's tail stops at them, so `srun echo
#: vllm serve` or `$SUDO pkill -f vllm serve` is not a start.
DATA_COMMANDS = frozenset(
    {
        "echo",
        "printf",
        "print",
        "grep",
        "egrep",
        "fgrep",
        "rg",
        "pgrep",
        "pkill",
        "kill",
        "killall",
        "ps",
        "which",
        "type",
        "whereis",
        "cat",
        "tee",
        "sed",
        "awk",
        "curl",
        "wget",
        "git",
        "pip",
        "pip3",
        "logger",
        "test",
        "[",
    }
)
#: vLLM subcommands (and options) that are not the server.
_NOT_SERVE = frozenset(
    {"bench", "chat", "complete", "collect-env", "run-batch", "--version", "-v", "--help", "-h"}
)

# -- images --------------------------------------------------------------------------------

#: Image names that carry "vllm" but run something else than the server.
_NOT_SERVER_IMAGES = ("router", "mock", "proxy", "sidecar", "scheduler", "epp", "bench", "syncer")
#: A release in a tag (bounded: a 5,000-digit "version" is no number Python converts).
_VERSION_TAG = re.compile(r"v?(\d{1,6})\.(\d{1,6})(?!\d)")
#: What a vLLM image's ENTRYPOINT starts, first match wins: (test of the repository, the
#: entrypoint, the release from which on it is `vllm serve` when the tag names one).
_IMAGE_TABLE: tuple[tuple[Callable[[str], bool], str, tuple[int, int] | None], ...] = (
    # OPEA's vllm-gaudi/vllm-rocm builds run `python3 -m vllm.entrypoints.openai.api_server`.
    (lambda repo: repo.startswith("opea/") or "/opea/" in repo, "api_server", None),
    # vllm/vllm-openai and its rebuilds (lmcache/, aibrix/): api_server before the v0.7 tags.
    (lambda repo: "vllm-openai" in repo, "serve", (0, 7)),
    # The project's other images (vllm/vllm-tpu, rocm/vllm) and builds named after it.
    (lambda repo: True, "serve", None),
)
#: Prefixes naming where an image comes from rather than what it is.
_TRANSPORTS = ("docker://", "docker-daemon:", "oras://", "library://")


def _repository(image: str) -> str:
    """`docker.io/vllm/vllm-openai:v0.8.5@sha256:…` → `docker.io/vllm/vllm-openai`."""
    name = image.strip().strip("\"'").lower().split("@", 1)[0]
    for transport in _TRANSPORTS:
        name = name.removeprefix(transport)
    slash = name.rfind("/")
    colon = name.rfind(":")
    return name[:colon] if colon > slash else name


def _tag(image: str) -> str:
    """`vllm/vllm-openai:v0.8.5` → `v0.8.5` (a registry port is not a tag)."""
    name = image.strip().strip("\"'").split("@", 1)[0]
    slash = name.rfind("/")
    colon = name.rfind(":")
    return name[colon + 1 :] if colon > slash else ""


def is_vllm_image(image: str | None) -> bool:
    """Whether an image runs the vLLM server as its entrypoint: `vllm/vllm-openai` and its
    rebuilds (`lmcache/vllm-openai`, `…/aibrix/vllm-openai`), the project's other images
    (`vllm/vllm-tpu`, `rocm/vllm`) and third-party builds named after it (`opea/vllm-gaudi`,
    `ghcr.io/…/vllm-avx2-docker`, an apptainer `vllm-openai_latest.sif`); not the routers,
    mocks and schedulers that carry the name."""
    if not image:
        return False
    repository = _repository(image)
    name = repository.rsplit("/", 1)[-1]
    if any(part in name for part in _NOT_SERVER_IMAGES):
        return False
    if "vllm-openai" in repository or repository.startswith("vllm/") or "/vllm/" in repository:
        return True
    return (
        name == "vllm"
        or name.startswith(("vllm-", "vllm_"))
        or name.endswith(("-vllm", "_vllm", "/vllm"))
    )


def image_entrypoint(image: str) -> str:
    """What a vLLM image's ENTRYPOINT starts (`_IMAGE_TABLE`): `vllm serve` since the v0.7
    images, `python3 -m vllm.entrypoints.openai.api_server` before them and in OPEA's
    builds."""
    repository = _repository(image)
    for test, entrypoint, serve_from in _IMAGE_TABLE:
        if not test(repository):
            continue
        version = _VERSION_TAG.match(_tag(image)) if serve_from is not None else None
        if version and serve_from and (int(version[1]), int(version[2])) < serve_from:
            return "api_server"
        return entrypoint
    return "serve"


# -- what a word list runs -----------------------------------------------------------------


@dataclass(frozen=True)
class Container:
    """The environment a container runtime gives what it starts (`docker run -e NAME=value`,
    `--env NAME=value`), and whether it adds variables not written (`--env-file`). The
    caller's own environment (a script's exports) does not reach the container. `gpus`:
    the GPUs `--gpus` gives it."""

    environ: tuple[EnvVar, ...] = ()
    environ_open: bool = False
    gpus: tuple[GpuClaim, ...] = ()


@dataclass(frozen=True)
class Start:
    """vLLM starts: `args` are what its parser receives. `exe` is the word the start spans
    (`vllm`, `python3`, the image of `docker run`); None when the image's own entrypoint
    runs the args (the host anchors the start on the first argument or its image)."""

    entrypoint: str
    exe: Word | None
    args: tuple[Word, ...]
    image: str | None = None
    #: The release the words install (`uvx vllm@0.8.5`).
    pinned: str | None = None
    #: The word before the args (`serve`, the module, the image): where a flag is inserted
    #: when there are none.
    last: Word | None = None
    #: The container runtime the words start it in (`docker run`), None outside one.
    container: Container | None = None


@dataclass(frozen=True)
class Script:
    """A string a shell runs (`sh -c`, `eval`): the caller reads it as shell."""

    script: Word
    image: str | None = None
    #: The container runtime the script runs in (`docker run --entrypoint sh IMG -c …`).
    container: Container | None = None
    #: The words after a `sh -c` script: its `$0`, then `$1`… (`"$@"` in the script).
    parameters: tuple[Word, ...] = ()


Match = Start | Script | None


def _text(word: Word) -> str:
    return word.text


def _name(word: Word) -> str:
    """The command a word names: `/usr/bin/vllm` and `.venv/bin/vllm` are `vllm`."""
    return word.text.rsplit("/", 1)[-1]


def _is_expansion(word: Word) -> bool:
    """A word that is nothing but expansions (`"$RUNNER"`, Python's `{sys.executable}`):
    possibly a wrapper or an interpreter."""
    if not word.unresolved or word.splat:
        return bool(word.unresolved)
    rest = word.text
    for part in word.unresolved:
        rest = rest.replace(part, "", 1)
    return not rest.strip("{}")


def match(
    words: Sequence[Word],
    *,
    image: str | None = None,
    resolve: Callable[[Word], str] = _text,
) -> Match:
    """What the command line `words` runs, when it starts vLLM or a script (see the module
    docstring). `image` is the container the words run in; `resolve` gives the image a word
    names (the shell resolves `$IMAGE` through the script's assignments)."""
    return _Matcher(words, resolve).match(0, image, 0)


def container(
    image: str | None,
    command: Sequence[Word],
    *,
    entrypoint: Sequence[Word] | None = None,
    resolve: Callable[[Word], str] = _text,
    runs: str | None = None,
) -> Match:
    """A container started from `image`: `entrypoint` (when the host overrides it) with
    `command` appended, or `command` alone after an entrypoint script that runs it
    (`_entrypoint_script`); otherwise `command` when it starts something itself (an image
    without an entrypoint of its own), or the image's entrypoint with `command` as its
    arguments when the image is a vLLM image. `runs` is that entrypoint when the host
    knows it otherwise (an image built from a Dockerfile beside it), instead of the
    image table's."""
    if entrypoint is not None:
        found = _Matcher([*entrypoint, *command], resolve).match(0, image, 0)
        if found is None and _entrypoint_script(entrypoint):
            return _Matcher(command, resolve).match(0, image, 0)
        return found
    return _Matcher(command, resolve).image_run(image, None, 0, 0, runs)


#: What names an entrypoint script: `/vllm-entrypoint.sh`, `docker-entrypoint`, `start.sh`.
_SCRIPT_NAME = re.compile(r"[^/]*(?:\.sh|entrypoint[^/]*)")


def _entrypoint_script(entrypoint: Sequence[Word]) -> bool:
    """An entrypoint that is a script of its own (`["/vllm-entrypoint.sh"]`, `[bash,
    /start.sh]`): by the convention of entrypoint scripts it prepares the container and
    ends in `exec "$@"`, so a command that starts vLLM by itself (`python -m
    vllm.entrypoints.openai.api_server …`) is what runs. A command that starts nothing
    alone (`--model m`) stays the script's arguments, whatever it makes of them."""
    words = [word for word in entrypoint if word.resolved]
    if len(words) != len(entrypoint) or not 1 <= len(words) <= 2:
        return False
    if len(words) == 2 and (_name(words[0]) not in _SHELLS or words[1].text.startswith("-")):
        return False
    return _SCRIPT_NAME.fullmatch(_name(words[-1])) is not None


def invocation(
    found: Start,
    source: str,
    *,
    anchor: tuple[int, int] | None = None,
    image: str | None = None,
) -> Invocation:
    """The `Invocation` a host reports for a start: it spans `exe`, or for an image's own
    entrypoint the first argument (`anchor`, the image, when there is none); fixes that
    insert a flag go after the last word. `image` fills in a container the words did not
    name."""
    args = list(found.args)
    if found.exe is not None:
        start, end = found.exe.start, found.exe.end
    elif args:
        start, end = args[0].start, args[0].end
    else:
        start, end = anchor if anchor is not None else (0, 0)
    if args:
        insert = args[-1].end
    elif found.last is not None:
        insert = found.last.end
    else:
        insert = end
    return in_container(
        Invocation(
            source,
            found.entrypoint,
            start,
            end,
            args,
            image=found.image if found.image is not None else image,
            pinned_version=found.pinned,
            insert_at=insert,
        ),
        found.container,
    )


def in_container(invocation: Invocation, container: Container | None) -> Invocation:
    """`invocation` with the environment its container runtime sets in front of its own."""
    if container is None:
        return invocation
    return replace(
        invocation,
        environ=(*container.environ, *invocation.environ),
        environ_open=invocation.environ_open or container.environ_open,
        gpus=(*container.gpus, *invocation.gpus),
    )


#: Container runtimes nest (`sudo docker run … IMG apptainer exec …`): a cap keeps a
#: pathological argv linear.
_MAX_DEPTH = 8


class _Matcher:
    """One word list; every step works on an index into it (a wrapper's tail of 40,000
    words is scanned without copying it once per word)."""

    def __init__(self, words: Sequence[Word], resolve: Callable[[Word], str]) -> None:
        self.words = words
        self.resolve = resolve

    def start(
        self,
        entrypoint: str,
        exe: int | None,
        first: int,
        image: str | None,
        pinned: str | None = None,
    ) -> Start:
        """vLLM runs with the words from `first` as its arguments."""
        words = self.words
        last = words[first - 1] if 0 < first <= len(words) else None
        exe_word = None if exe is None else words[exe]
        return Start(entrypoint, exe_word, tuple(words[first:]), image, pinned, last)

    def match(self, at: int, image: str | None, depth: int) -> Match:
        """The start in the argv from `at` (`run`)."""
        return self.run(at, image, depth)[1]

    def run(self, at: int, image: str | None, depth: int) -> tuple[bool, Match]:
        """The start in the argv from `at`: its command itself, or after the environment
        assignments and wrappers in front of it. A wrapper's tail is scanned for the first
        word that decides, stopping at commands that only take data (`echo`, `pkill`).
        Whether a command decided comes first (`python train.py` does, `--model m` not)."""
        words = self.words
        while at < len(words) and words[at].resolved and _ASSIGNMENT.match(words[at].text):
            at += 1
        if at >= len(words) or depth > _MAX_DEPTH:
            return False, None
        decided, found = self.decide(at, image, depth)
        if decided:
            return True, found
        head = words[at]
        if not (_name(head) in WRAPPERS or head.splat or _is_expansion(head)):
            return False, None
        for index in range(at + 1, len(words)):
            word = words[index]
            if word.resolved and word.text in DATA_COMMANDS:
                return True, None
            decided, found = self.decide(index, image, depth)
            if decided:
                if isinstance(found, Start) and found.pinned is None and _name(head) in _UVS:
                    found = replace(found, pinned=_uv_requirement(words[at + 1 : index]))
                return True, found
        return False, None

    def decide(self, at: int, image: str | None, depth: int) -> tuple[bool, Match]:
        """Whether `words[at]` is a command that decides the matter (True even when it is
        not vLLM, e.g. `python train.py`: what follows are its arguments), and what it
        runs."""
        words = self.words
        head = words[at]
        following = words[at + 1].text if at + 1 < len(words) else None
        if _is_expansion(head) and following is not None and following.startswith("-"):
            found = self.python(at, image)  # `$PYTHON -m …`, `{sys.executable} -u -m …`
            if found is not None:
                return True, found
        if head.splat:
            return False, None
        name = _name(head)
        tool = _TOOL_AT.fullmatch(name) if head.resolved else None
        if name == "vllm" or tool is not None:
            if following == "serve":
                pinned = tool.group(1) if tool is not None else None
                return True, self.start("serve", at, at + 2, image, pinned=pinned)
            return following in _NOT_SERVE, None
        if _PYTHON.fullmatch(name):
            return True, self.python(at, image)
        if name in _SHELLS:
            return True, self.shell(at, image)
        if name == "eval":
            if following is None:
                return False, None
            return True, Script(_joined(words[at + 1 :]), image)
        if name in _DOCKERS:
            return True, self.docker(at, depth)
        if name == "pm2" and following == "start":
            return True, self.pm2_start(at, image, depth)
        if name in _APPTAINERS and following == "run":
            ran = self.apptainer_run(at + 2, image, depth)
            return ran is not None, ran
        if name in _APPTAINERS and following == "instance" and self.text_at(at + 2) == "run":
            ran = self.apptainer_run(at + 3, image, depth, instance=True)
            return ran is not None, ran
        return False, None

    def python(self, at: int, image: str | None) -> Start | None:
        """`python3 [options] -m <module>`: interpreter options (`-u`, `-O`, `-B`, `-X opt`,
        `-W x`, clusters like `-uB`) may precede `-m`; a script or `-c` is another program."""
        words = self.words
        index = at + 1
        module: str | None = None
        while index < len(words) and module is None:
            word = words[index]
            text = word.text
            if word.splat or not text.startswith("-") or text in ("-", "--"):
                return None
            index += 1
            if text.startswith("--"):
                index += 1 if text == "--check-hash-based-pycs" else 0
                continue
            letters = text[1:]
            for position, letter in enumerate(letters):
                rest = letters[position + 1 :]
                if letter == "c":
                    return None
                if letter == "m":
                    if rest:
                        module = rest
                    elif index < len(words):
                        module, index = words[index].text, index + 1
                    else:
                        return None
                    break
                if letter in "WX":
                    if not rest:
                        index += 1  # the value is the next word
                    break
        if module in _MODULES:
            return self.start(_MODULES[module], at, index, image)
        if module == _CLI_MAIN and index < len(words) and words[index].text == "serve":
            return self.start("serve", at, index + 1, image)
        if module == dynamo.MODULE:  # vLLM's engine arguments, Dynamo's own flags taken out
            found = self.start("api_server", at, index, image)
            return replace(found, args=dynamo.engine_words(found.args))
        return None

    def shell(self, at: int, image: str | None) -> Script | None:
        """`sh -c script`, `/bin/bash -lc -- script`, `bash -exc script`: the first operand
        after an option cluster holding `c` is a script (later words are its `$0`, `$1`…)."""
        words = self.words
        runs_string = False
        index = at + 1
        while index < len(words):
            text = words[index].text
            if text == "--":
                index += 1
                break
            if text in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
                index += 2
                continue
            if len(text) < 2 or not text.startswith(("-", "+")):
                break
            if not text.startswith("--") and "c" in text[1:]:
                runs_string = True
            index += 1
        if not runs_string or index >= len(words):
            return None
        return Script(words[index], image, parameters=tuple(words[index + 1 :]))

    def pm2_start(self, at: int, image: str | None, depth: int) -> Match:
        """`pm2 start PROGRAM [pm2 options] [-- args]`: pm2 runs PROGRAM with the words
        after `--` (its own options, `--name`, `--interpreter`…, stay its own); a PROGRAM
        string with blanks (`pm2 start "vllm serve m"`) is a command line of its own."""
        words = self.words
        if at + 2 >= len(words):
            return None
        program = words[at + 2]
        if " " in program.text:
            return Script(program, image)
        tail = next(
            (index for index in range(at + 3, len(words)) if words[index].text == "--"), None
        )
        args = list(words[tail + 1 :]) if tail is not None else []
        return _Matcher([program, *args], self.resolve).match(0, image, depth + 1)

    def docker(self, at: int, depth: int) -> Match:
        """`docker run [options] IMAGE [args]`: the image's entrypoint (`--entrypoint` when
        given) receives the args; `docker exec [options] CONTAINER cmd...` runs a command."""
        words = self.words
        index = at + 1
        if index < len(words) and words[index].text == "container":
            index += 1
        if index >= len(words) or words[index].text not in ("run", "create", "exec"):
            return None
        subcommand = words[index].text
        first = index + 1
        index, entrypoint = _docker_options(words, first, self.resolve)
        if index >= len(words):
            return None
        found: Match
        if subcommand == "exec":
            found = self.match(index + 1, None, depth + 1)
        elif entrypoint is not None:
            image = self.resolve(words[index])
            rest = words[index + 1 :]
            head = [entrypoint] if entrypoint.text else []
            found = _Matcher([*head, *rest], self.resolve).match(0, image, depth + 1)
        else:
            found = self.image_run(self.resolve(words[index]), index, index + 1, depth)
        if found is None:
            return None
        return replace(found, container=_docker_env(words[first:index], found.container))

    def image_run(
        self, image: str | None, exe: int | None, first: int, depth: int, runs: str | None = None
    ) -> Match:
        """An image run with the words from `first` after its entrypoint: the command they
        are when they name one (`bash`, `vllm serve m`: an image without an entrypoint of
        its own), else the image's own entrypoint when it is vLLM's."""
        if first < len(self.words):
            decided, found = self.run(first, image, depth + 1)
            if decided:  # `IMAGE vllm serve m`, `IMAGE bash` (an image run without its own)
                return found
        if runs is not None:
            return self.start(runs, exe, first, image)
        if image is not None and is_vllm_image(image):
            return self.start(image_entrypoint(image), exe, first, image)
        return None

    def text_at(self, at: int) -> str | None:
        return self.words[at].text if at < len(self.words) else None

    def apptainer_run(
        self, at: int, image: str | None, depth: int, *, instance: bool = False
    ) -> Match:
        """`apptainer run [options] IMAGE [args]` (the options from `at`): the image's
        runscript (a Docker image's ENTRYPOINT) receives the args; `apptainer instance run
        [options] IMAGE NAME [args]` runs it too, in the instance NAME."""
        words = self.words
        index = at
        while index < len(words):
            text = words[index].text
            if _is_expansion(words[index]) and (self.text_at(index + 1) or "").startswith("-"):
                index += 1  # `$GPU_FLAGS --bind …`: options the file does not spell out
                continue
            if not text.startswith("-") or words[index].splat:
                break
            index += 1 if "=" in text or text in _APPTAINER_FLAGS else 2
        if index >= len(words):
            return None
        named = self.resolve(words[index])
        first = index + 2 if instance else index + 1
        if not is_vllm_image(named):
            return self.match(first, image, depth + 1)
        return self.start(image_entrypoint(named), index, first, named)


#: `apptainer run` options that take no value (the others take one).
_APPTAINER_FLAGS = frozenset(
    {
        "--nv",
        "--nvccli",
        "--rocm",
        "--cleanenv",
        "-e",
        "--contain",
        "-c",
        "--containall",
        "-C",
        "--writable",
        "-w",
        "--writable-tmpfs",
        "--no-home",
        "--fakeroot",
        "-f",
        "--userns",
        "-u",
        "--compat",
        "--no-mount",
        "--no-privs",
        "--disable-cache",
        "--ipc",
        "-i",
        "--pid",
        "-p",
        "--net",
        "-n",
        "--quiet",
        "-q",
        "--silent",
        "-s",
        "--debug",
        "-d",
        "--verbose",
        "-v",
    }
)


#: `docker run` options that take no value (every other option takes one).
_DOCKER_FLAGS = frozenset(
    {
        "--rm",
        "--detach",
        "--interactive",
        "--tty",
        "--privileged",
        "--init",
        "--read-only",
        "--publish-all",
        "--no-healthcheck",
        "--oom-kill-disable",
        "--disable-content-trust",
        "--quiet",
        "--help",
    }
)
_DOCKER_SHORT_FLAGS = frozenset("ditPq")


def _docker_options(
    words: Sequence[Word], index: int, resolve: Callable[[Word], str]
) -> tuple[int, Word | None]:
    """Skip `docker run` options; return the index of the image and any `--entrypoint`.
    An expansion is the image when the script assigns it one (`$IMAGE`); any other
    (`$DOCKER_OPTS`) is taken for options."""
    entrypoint: Word | None = None
    while index < len(words):
        word = words[index]
        text = resolve(word) if word.splat else word.text
        if word.splat and text == word.text:
            index += 1
            continue
        if text == "--":
            return index + 1, entrypoint
        if not text.startswith("-") or text == "-":
            break
        if text.startswith("--"):
            name, equals, _ = text.partition("=")
            takes_value = not equals and name not in _DOCKER_FLAGS
            if name == "--entrypoint":
                if equals:
                    entrypoint = _suffix(word, len(name) + 1)
                elif index + 1 < len(words):
                    entrypoint = words[index + 1]
            index += 2 if takes_value else 1
            continue
        letters = text[1:]
        takes_value = False
        for position, letter in enumerate(letters):
            if letter not in _DOCKER_SHORT_FLAGS:
                takes_value = position == len(letters) - 1
                break
        index += 2 if takes_value else 1
    return index, entrypoint


def _docker_env(options: Sequence[Word], inner: Container | None) -> Container:
    """`-e NAME=value`, `--env NAME=value`, `--env=NAME=value`, `-eNAME=value` (a bare
    `NAME` passes the caller's value through: not known here) and whether `--env-file`
    adds variables not written here; a container started inside it (`docker exec` of a
    `docker run`) sets its own after these."""
    found: list[EnvVar] = []
    is_open = False
    at = 0
    while at < len(options):
        text = options[at].text
        value: Word | None = None
        if text in ("-e", "--env") and at + 1 < len(options):
            value, at = options[at + 1], at + 1
        elif text.startswith("--env="):
            value = _suffix(options[at], len("--env="))
        elif text.startswith("-e") and len(text) > 2 and not text.startswith("--"):
            value = _suffix(options[at], 2)
        elif text.startswith("--env-file"):
            is_open = True
        if value is not None and value.text and not value.splat:
            found.append(assignment(value, "docker -e"))
        at += 1
    gpus = _docker_gpus(options)
    if inner is not None:
        return Container(
            (*found, *inner.environ), is_open or inner.environ_open, inner.gpus or gpus
        )
    return Container(tuple(found), is_open, gpus)


def _docker_gpus(options: Sequence[Word]) -> tuple[GpuClaim, ...]:
    """The GPUs one `--gpus VALUE` (`--gpus=VALUE`) gives the container, as docker's CLI
    reads it (docker/cli opts/gpus.go `GpuOpts.Set`): the value is one CSV record; a field
    without `=` is the count, `count=N` too, `device=0,1` (quoted, one field) names the
    devices, and a request with neither gets one GPU. `all` (every GPU of the host), a
    value the shell fills in, a malformed value and a repeated `--gpus` (one device
    request each) give no count."""
    values = [
        (options[at + 1] if text == "--gpus" else _suffix(options[at], len("--gpus=")))
        for at, text in enumerate(word.text for word in options)
        if (text == "--gpus" and at + 1 < len(options)) or text.startswith("--gpus=")
    ]
    if len(values) != 1 or values[0].unresolved or values[0].splat:
        return ()
    count = _gpu_request_count(values[0].text)
    if count is None:
        return ()
    word = values[0]
    return (GpuClaim("docker --gpus", word.start, word.end, count=count),)


def _gpu_request_count(value: str) -> int | None:
    """The count of one `--gpus` device request (None: all of them, or not one docker takes)."""
    try:
        (fields,) = list(csv.reader([value]))
    except (csv.Error, ValueError):
        return None
    count: int | None = None
    devices: list[str] | None = None
    seen: set[str] = set()
    for field in fields:
        key, equals, value_of = field.partition("=")
        name = key if equals else "count"
        if name in seen:
            return None
        seen.add(name)
        if name == "count":
            text = value_of if equals else key
            if not (text.isascii() and text.isdigit()) or len(text) > 5:
                return None  # `all`, or a count docker refuses
            count = int(text)
        elif name == "device":
            devices = [part for part in value_of.split(",") if part.strip()]
        elif name not in ("driver", "capabilities", "options"):
            return None
    if count is not None and devices is not None:
        return None  # the daemon refuses both
    if devices is not None:
        return len(devices) or None
    return 1 if count is None else (count or None)


def _uv_requirement(options: Sequence[Word]) -> str | None:
    """The release uv's `--with`/`--from` requirement `vllm==X` (the next word, or after
    `=`) gives the command it runs: `uvx --with 'vllm==0.8.4' vllm serve …`."""
    for index, word in enumerate(options):
        name, equals, attached = word.text.partition("=")
        if name not in ("--with", "--from") or not word.resolved:
            continue
        if not equals and index + 1 < len(options) and options[index + 1].resolved:
            attached = options[index + 1].text
        tool = _TOOL_AT.fullmatch(attached)
        if tool is not None and "==" in attached:
            return tool.group(1)
    return None


def _suffix(word: Word, skip: int) -> Word:
    """The part of a word after its first `skip` characters (`--entrypoint=bash`)."""
    start = word.starts[skip] if skip < len(word.starts) else word.end
    return replace(
        word,
        text=word.text[skip:],
        start=start,
        starts=word.starts[skip:],
        ends=word.ends[skip:],
        unresolved=tuple(part for part in word.unresolved if part in word.text[skip:]),
    )


def _joined(words: Sequence[Word]) -> Word:
    """`eval a b` runs `a b`: the arguments joined by spaces, each space mapped to the gap
    between the words it stands for."""
    text: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for index, word in enumerate(words):
        if index:
            previous = words[index - 1]
            text.append(" ")
            starts.append(previous.end)
            ends.append(word.start)
        text.append(word.text)
        starts.extend(word.starts)
        ends.extend(word.ends)
    return Word(
        "".join(text),
        words[0].start,
        words[-1].end,
        tuple(starts),
        tuple(ends),
        unresolved=tuple(part for word in words for part in word.unresolved),
    )
