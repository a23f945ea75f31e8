"""Helpers shared by the tests: run the installed CLI, lint text, apply fixes."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import yaml
from hypothesis import strategies as st
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import Finding, Fix, apply_edits
from vllm_config_lsp.vllm.catalogue import available_versions, nearest_release

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "corpus"


def cli(
    *args: str,
    cwd: Path | None = None,
    preexec_fn: Callable[[], None] | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """The console command as a user runs it (falls back to `python -m` in a checkout);
    `preexec_fn` runs in the child before it starts (resource limits); `env`, when given,
    is its whole environment."""
    return subprocess.run(
        [*cli_command(), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
        check=False,
        preexec_fn=preexec_fn,
    )


def cli_command() -> list[str]:
    command = shutil.which("vllm-config-lsp")
    return [command] if command else [sys.executable, "-m", "vllm_config_lsp"]


HF_CACHE = REPO / "tests" / "fixtures" / "models" / "hf-cache"
#: A model in HF_CACHE (32 attention heads): tensor-parallel-size 3 is VC601 once its files
#: are found.
CACHED_MODEL = "model: Qwen/Qwen3-30B-A3B\ntensor-parallel-size: 3\n"
#: Files that are no regular file: reading one waits for a writer forever, never ends, or
#: reads the reader's own stdin.
SPECIAL_FILES = ("dev-stdin", "dev-zero", "fifo")


def cache_env(hub: Path) -> dict[str, str]:
    """This environment with `hub` as the only Hugging Face cache, no virtual environment,
    and a model folder configured, so VC600 says why a model was not found (the model
    registry off: it knows CACHED_MODEL)."""
    drop = ("HF_HOME", "VIRTUAL_ENV", "VLLM_CONFIG_MODEL_DIRS")
    environment = {k: v for k, v in os.environ.items() if k not in drop}
    return {
        **environment,
        "HF_HUB_CACHE": str(hub),
        "VLLM_CONFIG_MODEL_DIRS": "/nonexistent",
        "VLLM_CONFIG_MODEL_REGISTRY": "off",
    }


def make_special_file(kind: str, path: Path) -> None:
    """One of SPECIAL_FILES at `path`: a FIFO, or a symbolic link to the device."""
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/" + kind.removeprefix("dev-"))


#: Address space a bounded CLI or server gets: a few times what a check needs, so a read
#: that never ends fails at once (MemoryError) instead of filling the machine's memory.
ADDRESS_SPACE = 1 << 30
#: Catches a hang only: a check takes seconds.
HANG_TIMEOUT = 60
BOUNDED_PYTHON = [sys.executable, "-m", "vllm_config_lsp"]


def limit_memory() -> None:
    """`preexec_fn` of a bounded process: RLIMIT_AS at ADDRESS_SPACE."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def bounded_cli(
    *args: str,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    preexec: Callable[[], None] = limit_memory,
    timeout: float = HANG_TIMEOUT,
) -> subprocess.CompletedProcess[str]:
    """The CLI with bounded memory and time (a hang fails the test), its stdin a pipe that
    stays open and empty, as an editor's or a CI runner's may: reading it would block.
    `preexec` runs in the child, in `cwd`, before Python starts (it must limit_memory)."""
    reader, writer = os.pipe()
    try:
        return subprocess.run(
            [*BOUNDED_PYTHON, *args],
            stdin=reader,
            capture_output=True,
            text=True,
            cwd=cwd,
            env=env,
            timeout=timeout,
            preexec_fn=preexec,
            check=False,
        )
    finally:
        os.close(reader)
        os.close(writer)


def check_file(tmp_path: Path, text: str, name: str = "serve.yaml") -> list[dict[str, object]]:
    """`vllm-config-lsp check --format json` of `text` written to `tmp_path / name`."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    result = cli("check", str(path), "--format", "json")
    assert result.returncode in (0, 1), result.stderr
    rows: list[dict[str, object]] = json.loads(result.stdout)
    return rows


def codes(text: str, **kwargs: object) -> list[str]:
    return [f.code for f in lint(text, **kwargs).findings]  # type: ignore[arg-type]


def findings_of(text: str, code: str) -> list[Finding]:
    return [f for f in lint(text).findings if f.code == code]


def apply_fix(text: str, fix: Fix) -> str:
    fixed = apply_edits(text, fix.edits)
    yaml.safe_load(fixed)  # the fixed file must still be YAML
    return fixed


def apply_json_fix(text: str, fix: object) -> str:
    """`text` with the edits of a `check --format json` fix (1-based lines and columns)
    applied."""
    assert isinstance(fix, dict)
    lines = text.splitlines(keepends=True)

    def offset(line: int, column: int) -> int:
        return sum(len(part) for part in lines[: line - 1]) + column - 1

    edits = sorted(fix["edits"], key=lambda e: (e["line"], e["column"]), reverse=True)
    spans = [
        (offset(e["line"], e["column"]), offset(e["end_line"], e["end_column"])) for e in edits
    ]
    for (start, end), edit in zip(spans, edits, strict=True):
        text = text[:start] + edit["new_text"] + text[end:]
    return text


def comment_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.lstrip().startswith("#")]


# -- the corpus's Helm chart, laid out as Helm reads it (sources, CLI and LSP tests) --

_CHART_FILES = CORPUS / "deployments" / "files"
_CHART_NAME = "GoogleCloudPlatform__kubernetes-engine-samples__app-design-center__ai-inference__"
#: Its ground-truth row (tests/corpus/deployments/invocations.jsonl, line 26).
CHART_VALUES_ROW = f"helm-values/{_CHART_NAME}values.yaml"


def small_chart(folder: Path, values: str, template: str) -> Path:
    """A chart `folder/chart/` of one template `templates/deployment.yaml` and `values.yaml`
    (a minimal `Chart.yaml`). Returns the values file."""
    chart = folder / "chart"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: c\nversion: 0.1.0\n")
    (chart / "templates" / "deployment.yaml").write_text(template)
    (chart / "values.yaml").write_text(values)
    return chart / "values.yaml"


def corpus_chart(folder: Path, changes: dict[str, str] | None = None) -> Path:
    """The GKE inference chart of the corpus, which stores its values file and its template
    flattened, as a chart: `folder/chart/` with a minimal `Chart.yaml`, `values.yaml` (each
    text of `changes` replaced) and `templates/deployment.yaml`. Returns the values file."""
    chart = folder / "chart"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: gemma\nversion: 0.1.0\n")
    template = _CHART_FILES / "helm-template" / f"{_CHART_NAME}templates__deployment.yaml"
    (chart / "templates" / "deployment.yaml").write_text(template.read_text())
    values = (_CHART_FILES / CHART_VALUES_ROW).read_text()
    for old, new in (changes or {}).items():
        assert old in values, old
        values = values.replace(old, new)
    (chart / "values.yaml").write_text(values)
    return chart / "values.yaml"


# -- the real corpus's release headers (test_versions_corpus, test_migrate) --

HEADER = re.compile(r"^# vLLM version:\s*(.*)$", re.MULTILINE)
RELEASE = re.compile(r"v?(\d+\.\d+(?:\.\d+)*(?:\.?post\d+|rc\d+)?)")
IMAGE_RELEASE = re.compile(
    r"vllm/vllm-openai[\w-]*:v?(\d+\.\d+\.\d+)|vllm[_ ](\d+\.\d+\.\d+)", re.I
)
MIN_VERSION = re.compile(r"min_vllm_version (\d+\.\d+(?:\.\d+)*)")


def header_version(text: str) -> str | None:
    """The vLLM release a corpus header names (`>=X` for a recipe's minimum), or None."""
    match = HEADER.search(text)
    if not match:
        return None
    body = match.group(1).strip()
    if body.lower().startswith("not"):
        found = MIN_VERSION.search(body)
        return f">={found.group(1)}" if found else None
    if body.lower().startswith(("container image", "image")):
        found = IMAGE_RELEASE.search(body)
        return (found.group(1) or found.group(2)) if found else None
    found = RELEASE.search(body)
    return found.group(1) if found else None


def candidate_releases(version: str) -> list[str]:
    """The generated releases a header allows: its own minor, or for a range (`>=0.20.0`,
    a recipe maintained on main that gains newer options) every release from there on."""
    if version.startswith(">="):
        first = nearest_release(version[2:], clamp=True)
        releases = available_versions()
        return releases[releases.index(first) :] if first else []
    release = nearest_release(version)
    return [release] if release else []


def _versioned() -> list[tuple[str, str]]:
    out = []
    for path in sorted((CORPUS / "real").glob("*.yaml")):
        version = header_version(path.read_text(encoding="utf-8"))
        if version is not None and candidate_releases(version):
            out.append((path.name, version))
    return out


VERSIONED = _versioned()


#: What gets pasted: YAML and JSON punctuation, line breaks, astral characters (two UTF-16
#: units), snippets of other configs.
PASTES = st.one_of(
    st.text(alphabet=st.sampled_from(list("{}[]:,-'\"#&*!|>?\n\r \t\\x0é🚀模")), max_size=6),
    st.sampled_from(
        [
            '"cudagraph_mode": "FULL", ',
            "\n# vllm-config: disable=VC101\n",
            '{"a": [1, 2',
            "  - 8\n",
            "max-num-seqs: -1\n",
            "compilation-config: '{\"mode\": 3}'\n",
            "\ufeff",
            "\x00",
        ]
    ),
)


def node_signature(node: object) -> list[tuple[object, ...]]:
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    out: list[tuple[object, ...]] = []
    #: Each node met, by identity, and where it was listed: an alias is a node met again,
    #: listed by that place, not walked again (a recursive alias is a cycle of nodes, and
    #: aliases of aliases multiply: walking them exhausted memory).
    seen: dict[int, int] = {}
    stack = [node]
    while stack:
        item = stack.pop()
        assert isinstance(item, (MappingNode, ScalarNode, SequenceNode))
        if id(item) in seen:
            out.append(("alias", seen[id(item)]))
            continue
        seen[id(item)] = len(out)
        out.append(
            (
                type(item).__name__,
                item.tag,
                item.start_mark.index,
                item.end_mark.index,
                item.start_mark.line,
                item.start_mark.column,
                getattr(item, "style", None),
                getattr(item, "flow_style", None),
                item.value if isinstance(item, ScalarNode) else None,
            )
        )
        if isinstance(item, MappingNode):
            for key, value in item.value:
                stack.extend((key, value))
        elif isinstance(item, SequenceNode):
            stack.extend(item.value)
    return out


#: A Deployment whose pod asks for `{gpus}` NVIDIA GPUs on nodes of `{accelerator}` (GKE),
#: serving in bfloat16 with tensor-parallel-size 4 (the target-hardware tests).
GPU_MANIFEST = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  template:
    spec:
      nodeSelector:
        cloud.google.com/gke-accelerator: {accelerator}
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.33.0
          args: ["Qwen/Qwen3-8B", "--dtype", "bfloat16", "--tensor-parallel-size", "4"]
          resources:
            limits:
              nvidia.com/gpu: {gpus}
"""


#: Rules the target GPU decides (the platform checks, the GPU memory budget) or a platform
#: plugin (`rules/plugins/`: the oracle runs stock vLLM): the CPU oracle cannot judge them,
#: so comparisons with its verdicts leave them out.
GPU_RULES = (
    "vllm_config_lsp.rules.platforms.",
    "vllm_config_lsp.rules.v1.core.",
    "vllm_config_lsp.rules.plugins.",
)


def model_hosts(model: str, flags: list[tuple[str, str]]) -> dict[str, str]:
    """One file per host, each starting vLLM on `model` with `flags`: a `--config` file, a
    shell line (positional and `--model`), a Kubernetes Deployment, a compose file, a Markdown
    recipe, a KubeAI Model and a Ray Serve config (issue 29's model-everywhere tests)."""
    words = [word for pair in flags for word in pair]
    keys = "".join(f"{flag.removeprefix('--')}: {value}\n" for flag, value in flags)
    line = " ".join(words)
    listed = ", ".join(f'"{word}"' for word in [model, *words])
    kwargs = "".join(
        f"            {flag.removeprefix('--').replace('-', '_')}: {value}\n"
        for flag, value in flags
    )
    return {
        "config.vllm.yaml": f"model: {model}\n{keys}",
        "serve.sh": f"#!/bin/bash\nvllm serve {model} {line}\n",
        "serve-model-flag.sh": f"#!/bin/bash\nvllm serve --model {model} {line}\n",
        "deployment.yaml": (
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: vllm}\nspec:\n"
            "  template:\n    spec:\n      containers:\n      - name: vllm\n"
            "        image: vllm/vllm-openai:latest\n"
            f'        command: ["vllm", "serve"]\n        args: [{listed}]\n'
        ),
        "compose.yaml": (
            f"services:\n  vllm:\n    image: vllm/vllm-openai:latest\n    command: [{listed}]\n"
        ),
        "README.md": f"# Serving\n\n```bash\nvllm serve {model} \\\n  {line}\n```\n",
        "kubeai-model.yaml": (
            "apiVersion: kubeai.org/v1\nkind: Model\nmetadata: {name: llama}\nspec:\n"
            f"  url: hf://{model}\n  engine: VLLM\n  args:\n"
            + "".join(f"  - {flag}={value}\n" for flag, value in flags)
        ),
        "ray-service.yaml": (
            "apiVersion: ray.io/v1\nkind: RayService\nmetadata: {name: llm}\nspec:\n"
            "  serveConfigV2: |\n    applications:\n    - name: llm\n      args:\n"
            "        llm_configs:\n        - model_loading_config:\n"
            f"            model_id: llama\n            model_source: {model}\n"
            f"          engine_kwargs:\n{kwargs}"
        ),
    }


def sarif_errors(log: object) -> list[str]:
    """What SARIF 2.1.0's schema (tests/fixtures/sarif/) finds wrong in a log (Draft 4, as
    the schema says of itself)."""
    import jsonschema

    schema = json.loads((REPO / "tests/fixtures/sarif/sarif-schema-2.1.0.json").read_text())
    return [error.message for error in jsonschema.Draft4Validator(schema).iter_errors(log)]
