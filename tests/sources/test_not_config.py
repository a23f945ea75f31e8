"""A document is a `--config` file only when its content could be one (issue 27, item 6).

On the real files of other formats in `data/not-config/` (SOURCES.md cites each: Helm
helpers and values, a Cerebrium TOML template, SkyPilot tasks, Baseten/Truss and BentoML
configs, a Kubernetes Deployment template, Makefiles, a dstack run, a Modal template, a
workflow, an action), `check FILE` prints nothing and exits 0, with `-v` one line on stderr;
every real `--config` file of the corpus and of `examples/` is still detected when named on
the command line; an explicit association (marker comment, the user's globs) still wins.
"""

from __future__ import annotations

import bisect
import json
from pathlib import Path

import pytest
from support import CORPUS, REPO, cli
from vllm_config_lsp.sources.association import (
    STRUCTURAL_KEYS,
    AssociationSettings,
    Reason,
    classify,
)
from vllm_config_lsp.sources.detect import CONFIG, detect
from vllm_config_lsp.vllm.catalogue import available_versions, catalogue_path, detection_flag_names

FLAGS = detection_flag_names()
DATA = Path(__file__).resolve().parent / "data" / "not-config"
NOT_CONFIG = sorted(p for p in DATA.rglob("*") if p.is_file() and p.name != "SOURCES.md")
#: Files that start vLLM through a host that reads them (not as a `--config` file): the
#: compose file's `--model` gets the real VC384 warning (exit 0); the SkyPilot tasks' starts
#: are read from their `run:` scripts (tests/sources/test_skypilot.py), with no error; the
#: templates are read as the TOML, the Kubernetes manifest and the Truss config they render to
#: (issue 28, item 3; a Truss config's `docker_server.start_command` is a launcher's).
HOSTS = {
    "vllm-compose.yml": "compose",
    ".dstack.yml": "dstack",
    "serve.yaml": "skypilot",
    "vllm.sky.yaml": "skypilot",
    "cerebrium.toml.tpl": "template",
    "config.yaml.tpl": "template",  # a Truss config: `docker_server.start_command` is read
    "vllm-reasoning.yaml.tpl": "template",
}
CONFIGS = sorted(
    [
        *(CORPUS / "real").glob("*.yaml"),
        *(CORPUS / "rejected").glob("*.yaml"),
        *(p for p in (REPO / "examples").glob("*.yaml") if p.name != "k8s-deployment.yaml"),
    ]
)


def test_the_data_covers_every_kind_and_is_cited() -> None:
    kinds = {path.relative_to(DATA).parts[0] for path in NOT_CONFIG}
    assert kinds >= {
        "action",
        "baseten",
        "bentoml",
        "cerebrium",
        "compose",
        "dstack",
        "helm",
        "kubernetes",
        "makefile",
        "modal",
        "skypilot",
        "workflow",
    }
    cited = (DATA / "SOURCES.md").read_text(encoding="utf-8")
    for path in NOT_CONFIG:
        assert f"| {path.relative_to(DATA).as_posix()} |" in cited, path


@pytest.mark.parametrize("path", NOT_CONFIG, ids=lambda p: p.relative_to(DATA).as_posix())
def test_check_says_nothing_on_files_that_are_not_configs(path: Path) -> None:
    result = cli("check", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    if path.name in HOSTS:
        assert "VC0" not in result.stdout and "VC1" not in result.stdout, result.stdout
        assert " error " not in result.stdout, result.stdout
    else:
        assert (result.stdout, result.stderr) == ("", "")
    verbose = cli("check", "-v", str(path))
    assert verbose.returncode == 0
    if path.name not in HOSTS:
        assert verbose.stdout == ""
        [line] = verbose.stderr.splitlines()
        assert line.startswith(f"{path}: "), line


@pytest.mark.parametrize("path", NOT_CONFIG, ids=lambda p: p.relative_to(DATA).as_posix())
def test_no_file_of_another_format_is_a_config(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for named in (path.as_posix(), f"/r/{path.stem}-vllm{path.suffix}"):
        detected = detect(named, text, flag_names=FLAGS, named=True)
        assert detected.kind != CONFIG, named
        # a template's name under its suffix says what it renders to: not once renamed
        if path.name in HOSTS and (named == path.as_posix() or path.suffix != ".tpl"):
            assert detected.kind == HOSTS[path.name], (named, detected)


def test_every_real_config_is_still_detected() -> None:
    """Named on the command line, as CI passes them (their names rarely say vLLM)."""
    assert len(CONFIGS) > 230
    missed = [
        path.name
        for path in CONFIGS
        if detect(
            path.as_posix(), path.read_text(encoding="utf-8"), flag_names=FLAGS, named=True
        ).kind
        != CONFIG
    ]
    assert missed == []


def test_the_cli_checks_every_real_config(tmp_path: Path) -> None:
    """One CLI run over all of them: a finding or a clean pass for each, none passed over."""
    result = cli("check", "-v", "--format", "json", *map(str, CONFIGS))
    assert "not a" not in result.stderr, result.stderr
    assert result.returncode in (0, 1), result.stderr
    json.loads(result.stdout)


def test_structural_keys_are_no_flags_in_any_release() -> None:
    """A structural key that were a flag (or a unique prefix of one) would turn a real
    config away."""
    for version in available_versions():
        with catalogue_path(version).open(encoding="utf-8") as handle:
            names = sorted(json.load(handle)["flags"])
        for key in STRUCTURAL_KEYS:
            flag = key.replace("_", "-").lower()
            assert flag not in names, (version, key)
            at = bisect.bisect_left(names, flag)
            following = [name for name in names[at : at + 2] if name.startswith(flag)]
            assert len(following) != 1, (version, key, following)


def test_the_threshold() -> None:
    def named(text: str, path: str = "/r/serve.yaml") -> Reason | None:
        return classify(path, text, flag_names=FLAGS, named=True)

    # a config with a typo in one of two keys is still one (vLLM refuses it: say so)
    assert named("model: x\nmax-nun-seqs: 4\n") is Reason.NAMED
    # abbreviations, as argparse takes them, and an older release's flags
    assert named("tensor-parallel: 2\nswap-space: 4\n") is Reason.NAMED
    # fewer than half flags: a service config, not vLLM's
    assert named("host: 0.0.0.0\nport: 80\ntimeout: 3\nretries: 2\nworkers: 4\n") is None
    # generic flags are flags (the docs' example)
    assert named("host: 127.0.0.1\nport: 6379\nuvicorn-log-level: info\n") is Reason.NAMED
    # one structural key is enough to turn a mapping away
    assert named("tensor-parallel-size: 2\nmax-num-seqs: 4\nresources: {}\n") is None
    # not one mapping, or nothing in it: no config
    assert named("- model: x\n") is None
    assert named("# nothing yet\n") is None
    # a vLLM name and nothing yet: a config being written (completion needs it)
    assert named("", "/r/serve.vllm.yaml") is Reason.GLOB
    assert named("name: x\nresources: {}\n", "/r/serve.vllm.yaml") is None
    # a template is not YAML, whatever its name or the editor's language id
    assert classify("/r/vllm.yaml.tpl", "model: x\n", flag_names=FLAGS, language_id="yaml") is None


def test_an_explicit_association_still_wins() -> None:
    text = (DATA / "skypilot" / "skypilot" / "vllm.sky.yaml").read_text(encoding="utf-8")
    marked = "# vllm-config\n" + text
    assert classify("/r/vllm.sky.yaml", marked, flag_names=FLAGS) is Reason.MARKER
    mine = AssociationSettings(globs=("*.sky.yaml",))
    assert classify("/r/vllm.sky.yaml", text, mine, flag_names=FLAGS) is Reason.GLOB
    assert classify("/r/vllm.sky.yaml", text, flag_names=FLAGS) is None
