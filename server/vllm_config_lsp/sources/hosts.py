"""Which host syntax a document is written in, and the vLLM invocations it holds.

The decision is by name first (what editors use too: `Dockerfile`, `*.sh`, `*.md`), then by
content for YAML: a Kubernetes object (`apiVersion` + `kind`), a compose file (`services:`),
a Ray Serve config (`applications:` with Ray Serve LLM configs, read by the Kubernetes reader
as KubeRay's `serveConfigV2`) or a GitHub workflow (`jobs:`) is a host of command lines and
never a `--config` file, even when its name contains `vllm`; so is a launcher config whose
keys name its launcher (`sources.launchers`), a dstack run, a SkyPilot task or a Ray cluster
config (`run:`, `cluster_name:` with their launcher's keys: `sources.skypilot`), and a Helm
chart's values file on disk (`chart_folder`), read through the chart's templates. Any other
YAML is left to `association` (a `--config` file or nothing). A JSON file is a host only as
Triton's vLLM backend names it, `model.json`, and only when its keys are vLLM's engine
arguments (`sources.triton`): the flag names it decides with are passed in from `vllm/`, as
to `association`. Each host module reads its syntax with a real parser; this one only
dispatches.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.sources.association import TEMPLATE_SUFFIXES
from vllm_config_lsp.sources.invocation import Invocation
from vllm_config_lsp.sources.safe_read import is_dir, is_file

SHELL_SUFFIXES = {".sh", ".bash", ".zsh", ".ksh", ".slurm", ".sbatch", ".pbs", ".job"}
MARKDOWN_SUFFIXES = {".md", ".markdown", ".mdx"}
YAML_SUFFIXES = {".yaml", ".yml", ".tftpl"}
NOTEBOOK_SUFFIX = ".ipynb"
#: A file to copy to the name under this suffix (`start.sh.example`, `compose.yml.dist`,
#: `serve.sh.sample`): what it starts is what the copy starts.
COPY_SUFFIXES = frozenset({".example", ".sample", ".dist"})
#: Triton's `<model>/<version>/model.json`, and copies kept beside it (`llama_model.json`).
_TRITON_NAME = re.compile(r"(?:^|[._-])model\.json$")


#: Editor language ids of Jinja templates (VS Code's Better Jinja): each a template of a
#: format the template host reads under it.
_JINJA_LANGUAGES = ("jinja", "jinja-yaml", "jinja-toml", "jinja-shell", "jinja-dockerfile")


@dataclass(frozen=True)
class Host:
    """One host of vLLM command lines, as it declares itself: its `kind` (what `host_of`
    returns and the engine reads it as), the `sources` module whose `find_invocations`
    reads it (imported when a document of its kind is first read: tree-sitter,
    markdown-it and the readers are about 170 ms of start-up a `--config` file never
    needs), the editor language ids that name it whatever the file name (VS Code's, and
    Neovim/Emacs file types), the language ids whose documents it may be told in by
    content (`yaml` for the YAML hosts, `json` for Triton), whether it is told by its
    vLLM keys rather than a command line (a directory walk picks it without `vllm` in
    it), and whether its reader reads files next to the document (a chart's templates,
    the Dockerfile a compose service builds from)."""

    kind: str
    reader: str
    languages: tuple[str, ...] = ()
    content_languages: tuple[str, ...] = ()
    keyed: bool = False
    reads_next_to_path: bool = False
    #: Its reader reads the document as another host's (a template as the file it renders
    #: to): it is handed `inner_host` and `find_invocations`.
    nested: bool = False
    #: Its command lines sit inside strings of the document's own syntax (a notebook's
    #: cells are JSON strings): its reader's `document_fixes` writes each fix's text there.
    escapes_fixes: bool = False


#: Every host, in the order `host_of` tries them by content; `tests/editors/
#: test_client_languages.py` ties the VS Code client's language list to these ids.
HOSTS: dict[str, Host] = {
    host.kind: host
    for host in (
        Host("shell", "shell_script", ("shellscript", "sh", "bash")),
        Host("dockerfile", "dockerfile", ("dockerfile",)),
        Host("markdown", "markdown", ("markdown",)),
        Host("python", "python_argv", ("python",)),
        Host("makefile", "makefile", ("makefile",)),
        Host("justfile", "justfile", ("just",)),
        Host("toml", "toml_file", ("toml",)),
        Host("template", "templates", _JINJA_LANGUAGES, nested=True),
        Host("workflow", "workflow", content_languages=("yaml",)),
        Host("compose", "compose", ("dockercompose",), ("yaml",), reads_next_to_path=True),
        Host("kubernetes", "kubernetes", content_languages=("yaml",), reads_next_to_path=True),
        Host("launcher", "launchers", content_languages=("yaml",)),
        Host("dstack", "dstack", content_languages=("yaml",)),
        Host("skypilot", "skypilot", content_languages=("yaml",)),
        Host("helm-values", "helm_chart", content_languages=("yaml",), reads_next_to_path=True),
        Host("triton", "triton", content_languages=("json",), keyed=True),
        Host("notebook", "notebook", content_languages=("json",), escapes_fixes=True),
        #: One code cell of a notebook, as an editor sends it (VS Code: a `python`
        #: document whose URI's path is the `.ipynb`).
        Host("ipython", "ipython", content_languages=("python",)),
    )
}
#: Hosts told by their vLLM keys rather than by a command line: they need not name vLLM
#: for a directory walk to pick them (`files.looks_like_config`).
KEYED_HOSTS = frozenset(kind for kind, host in HOSTS.items() if host.keyed)
#: Editor language ids that name a host, whatever the file's name.
LANGUAGES = {language: kind for kind, host in HOSTS.items() for language in host.languages}
#: Every language id whose documents some host, or a `--config` file (YAML), may be: what
#: an editor should send the server.
SERVED_LANGUAGES = frozenset(
    {"yaml", *LANGUAGES, *(id_ for host in HOSTS.values() for id_ in host.content_languages)}
)
#: `Dockerfile`, `Dockerfile.gpu`, `gpu.Dockerfile`, `Containerfile`.
_DOCKERFILE = re.compile(r"(?:^|[._-])(?:docker|container)file(?:[._-]|$)")
#: `Makefile`, `makefile`, `GNUmakefile`, `Makefile.gpu`, `serve.mk` (a template of one,
#: `Makefile.j2`, is not one as written).
_MAKEFILE = re.compile(r"^(?:gnu)?makefile(?:\.[^.]+)?$|\.(?:mk|mak)$")
#: `justfile`, `Justfile`, `.justfile`, and the modules a justfile imports (`utils.just`).
_JUSTFILE = re.compile(r"^\.?justfile$|\.just$")
_SHEBANG = re.compile(r"\A#![^\n]*\b(?:ba|z|k|da)?sh\b")
#: A Jinja statement (`{% if %}`, `{% extends "base.sh" %}`, `{%- block command %}`), which
#: no shell writes: a script under its own name that an application renders with Jinja
#: (`templates/serve.sh`) is a template, read as the script it renders to.
_JINJA_STATEMENT = re.compile(
    r"\{%-?[ \t]*(?:if|for|block|extends|set|include|macro|import|from|raw|with)\b[^\n]*?%\}"
)
_K8S = re.compile(r"^(?:apiVersion|kind):", re.M)
#: Helm values of charts that map their keys to vLLM flags (production-stack), and KubeAI's
#: models chart (`catalog.<name>` Model specs with `engine: VLLM`).
_CHART_VALUES = re.compile(r"^(?:servingEngineSpec|vllmConfig):|^    engine: VLLM\s*$", re.M)
_COMPOSE = re.compile(r"^services:\s*$", re.M)
#: A dstack run configuration (`.dstack.yml`): `type: service|task|dev-environment` with
#: `commands:` (`sources.dstack`).
_DSTACK_TYPE = re.compile(r"^type:\s*(?:service|task|dev-environment)\s*$", re.M)
_DSTACK_COMMANDS = re.compile(r"^commands:", re.M)
_WORKFLOW = re.compile(r"^jobs:\s*$", re.M)
#: A SkyPilot task (`sources.skypilot`): a top-level `run:` with one more of its keys; a
#: Ray cluster launcher config: `cluster_name:` with head commands or node types.
_SKYPILOT_RUN = re.compile(r"^run:", re.M)
_SKYPILOT_KEYS = re.compile(
    r"^(?:resources|envs|secrets|setup|num_nodes|service|file_mounts|workdir):", re.M
)
#: A Ray Serve config file (`serve run`/`serve deploy`) whose applications build Ray Serve
#: LLM deployments: read by the Kubernetes reader, which reads a RayService's too.
_SERVE_CONFIG = (
    re.compile(r"^applications:", re.M),
    re.compile(r"^[ \t-]+import_path:", re.M),
    re.compile(r"^[ \t-]+(?:llm_configs|engine_kwargs):", re.M),
)
_RAY_CLUSTER = re.compile(r"^cluster_name:", re.M)
_RAY_CLUSTER_KEYS = re.compile(
    r"^(?:setup_commands|head_setup_commands|head_start_ray_commands|available_node_types):",
    re.M,
)
#: Launcher configs (`sources.launchers`), each by the keys its schema requires together:
#: vector-inference (`models:` entries with `vllm_args:`), InferenceX AMD disaggregation
#: (`prefill_flags:`/`decode_flags:` strings), vllm-ascend nightly (`server_cmd:`,
#: `server_cmd_template:`), ramalama engine specs (`commands:` of `inference_engine:`),
#: vLLM recipes (`model:` and a `guide:` block), srt-slurm (`backend:` with `vllm_config:`).
_LAUNCHERS = (
    (re.compile(r"^models:[ \t]*(?:#.*)?$", re.M), re.compile(r"^[ \t]+vllm_args:", re.M)),
    (re.compile(r"^[ \t]+(?:prefill|decode)_flags:[ \t]*\S", re.M),),
    (re.compile(r"^(?:[ \t]*-)?[ \t]*server_cmd(?:_template)?:", re.M),),
    (re.compile(r"^commands:", re.M), re.compile(r"^[ \t]+inference_engine:", re.M)),
    (re.compile(r"^model:", re.M), re.compile(r"^guide:[ \t]*[|>]", re.M)),
    (re.compile(r"^backend:", re.M), re.compile(r"^[ \t]+vllm_config:", re.M)),
    (re.compile(r"^docker_server:", re.M), re.compile(r"^[ \t]+start_command:", re.M)),
)


def host_of(
    path: str,
    text: str,
    language_id: str | None = None,
    *,
    flag_names: frozenset[str] = frozenset(),
) -> str | None:
    """The source kind whose finder reads this document, or None for YAML that is not a
    host of command lines (a `--config` file, or no vLLM file at all) and any other file.
    `flag_names` (`vllm.catalogue.detection_flag_names`) tell a Triton `model.json`;
    without them none is recognised."""
    name = PurePosixPath(path).name
    lower = name.lower()
    suffix = PurePosixPath(lower).suffix
    if suffix == NOTEBOOK_SUFFIX and language_id != "markdown":
        return "ipython" if language_id == "python" else "notebook"
    if language_id in LANGUAGES:
        return LANGUAGES[language_id]
    if suffix in COPY_SUFFIXES:
        copied = path[: -len(suffix)]
        return host_of(copied, text, language_id, flag_names=flag_names)
    if suffix in TEMPLATE_SUFFIXES and not _yaml_tftpl(lower):
        return "template" if _renders_a_host(path, text) else None
    if _DOCKERFILE.search(lower):
        return "dockerfile"
    if _MAKEFILE.search(lower):
        return "makefile"
    if _JUSTFILE.search(lower):
        return "justfile"
    if suffix in SHELL_SUFFIXES or (not suffix and _SHEBANG.match(text)):
        return "template" if _JINJA_STATEMENT.search(text) else "shell"
    if suffix in MARKDOWN_SUFFIXES:
        return "markdown"
    if suffix == ".py":
        return "python"
    if suffix == ".toml":
        return "toml"
    if _TRITON_NAME.search(lower) and flag_names and _is_model_json(text, flag_names):
        return "triton"  # whatever language an editor gave it: JSON is YAML too
    if suffix in YAML_SUFFIXES or language_id == "yaml":
        kind = _yaml_host(path.lower(), text)
        if kind is None and chart_folder(path) is not None:
            return "helm-values"
        return kind
    return None


def named_like_a_host(path: str) -> bool:
    """Whether a file's name alone lets it be a host or a `--config` file: then its whole
    text, not only its head, may decide (a `model.json` whose JSON closes past the head, a
    script that names vLLM only near its end). Other names are decided by their head (a
    shebang, a YAML host's keys) or are never read."""
    lower = PurePosixPath(path).name.lower()
    suffix = PurePosixPath(lower).suffix
    if _TRITON_NAME.search(lower) or suffix in YAML_SUFFIXES or suffix in TEMPLATE_SUFFIXES:
        return True
    return host_of(path, "") is not None


def _yaml_tftpl(name: str) -> bool:
    """A Terraform template of YAML (or of nothing named): the YAML hosts read it, with its
    `${…}` and `%{…}` masked (`yaml_hosts.mask_templates`)."""
    path = PurePosixPath(name)
    return path.suffix == ".tftpl" and PurePosixPath(path.stem).suffix in ("", ".yaml", ".yml")


def _renders_a_host(path: str, text: str) -> bool:
    """A template renders to a file some host reads (the text with its holes masked tells
    which, when the name under its suffix does not)."""
    from vllm_config_lsp.sources.templates import inner_name, template_text

    inner = PurePosixPath(path).with_name(inner_name(PurePosixPath(path).name))
    return inner_host(inner.as_posix(), template_text(path, text).text) is not None


def inner_host(path: str, text: str) -> str | None:
    """The host of the file a template renders to, `path` its name under the template's
    suffix and `text` the template with its holes masked: by name, else by content."""
    kind = host_of(path, text)
    if kind is None:
        kind = _yaml_host(path.lower(), text)
    return None if kind == "template" else kind


def chart_folder(path: str | Path) -> Path | None:
    """The chart whose values file `path` is: a `values*.yaml` in a folder that holds
    `Chart.yaml` and `templates/` on disk. Its keys are not flags: what it gives vLLM is
    what the templates make of it (`sources.helm_chart`). The charts whose values map to
    flags by name (production-stack, KubeAI) are read by their mapping before this."""
    given = Path(path)
    if not (given.name.startswith("values") and given.name.endswith(".yaml")):
        return None
    folder = given.parent
    # an unreadable folder, a NUL in an editor's URI: no chart
    return folder if is_file(folder / "Chart.yaml") and is_dir(folder / "templates") else None


def _is_model_json(text: str, flag_names: frozenset[str]) -> bool:
    """Only a file named like Triton's pays for the reader's import (its YAML tree and
    parsers) that telling its content takes."""
    from vllm_config_lsp.sources import triton

    return triton.is_model_json(text, flag_names)


def _yaml_host(name: str, text: str) -> str | None:
    head = text[:65536]
    if "/.github/workflows/" in name or (_WORKFLOW.search(head) and "on:" in head):
        return "workflow"
    if PurePosixPath(name).name.startswith(("compose", "docker-compose")):
        return "compose"
    if _K8S.search(head) or _CHART_VALUES.search(head):
        return "kubernetes"
    if all(key.search(head) for key in _SERVE_CONFIG):
        return "kubernetes"
    if _COMPOSE.search(head):
        return "compose"
    if any(all(key.search(head) for key in keys) for keys in _LAUNCHERS):
        return "launcher"
    if _DSTACK_TYPE.search(head) and _DSTACK_COMMANDS.search(head):
        return "dstack"
    if _SKYPILOT_RUN.search(head) and _SKYPILOT_KEYS.search(head):
        return "skypilot"
    if _RAY_CLUSTER.search(head) and _RAY_CLUSTER_KEYS.search(head):
        return "skypilot"
    return None


def document_fixes(kind: str | None, text: str, findings: list[Finding]) -> list[Finding]:
    """The findings with their fixes written in the document's syntax: a host whose
    command lines sit in strings (`Host.escapes_fixes`) escapes each edit's text; the
    others' fixes are already the document's."""
    host = HOSTS.get(kind) if kind is not None else None
    if host is None or not host.escapes_fixes:
        return findings
    reader = importlib.import_module(f"vllm_config_lsp.sources.{host.reader}")
    escaped: list[Finding] = reader.document_fixes(text, findings)
    return escaped


def find_invocations(kind: str, text: str, path: Path | None = None) -> list[Invocation]:
    """Every vLLM start in a document of that kind, in document order; `path` is where the
    document is on disk, if it is."""
    host = HOSTS[kind]
    reader = importlib.import_module(f"vllm_config_lsp.sources.{host.reader}")
    if host.nested:
        found: list[Invocation] = reader.find_invocations(
            text, path, inner_host=inner_host, read=find_invocations
        )
    elif host.reads_next_to_path:
        found = reader.find_invocations(text, path)
    else:
        found = reader.find_invocations(text)
    return sorted(found, key=lambda invocation: invocation.start)
