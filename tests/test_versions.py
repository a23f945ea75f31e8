"""Per-release checking: the same config is right for one vLLM and wrong for another, the
release is chosen from the file and its workspace, and the loader follows the release."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from vllm_config_lsp.catalogue import DEFAULT_VERSION, available_versions, load_catalogue
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import Severity
from vllm_config_lsp.versions import choose_version, nearest_release


def _errors(text: str, version: str) -> list[str]:
    return [
        f"{f.code} {f.message}"
        for f in lint(text, version=version).findings
        if f.severity == Severity.ERROR
    ]


# -- the catalogues ---------------------------------------------------------------------------
def test_every_minor_from_06_is_generated() -> None:
    versions = available_versions()
    minors = [tuple(int(p) for p in v.split(".")[:2]) for v in versions]
    assert minors == [(0, m) for m in range(6, 34)]
    assert versions[0] == "0.6.6.post1" and versions[-1] == DEFAULT_VERSION == "0.33.0"


def test_catalogue_reproduces_the_standalone_schema() -> None:
    """The compact store joins back to exactly the x-vllm object of the full schema."""
    import json

    from vllm_config_lsp.catalogue import schema_dir

    full = json.loads((schema_dir() / "vllm-0.33.0.schema.json").read_text(encoding="utf-8"))
    assert load_catalogue("0.33.0")._data == full["x-vllm"]


@pytest.mark.parametrize(
    ("spelling", "release"),
    [
        ("0.10.1", "0.10.2"),
        ("v0.11.0rc1", "0.11.2"),
        ("0.8.5", "0.8.5.post1"),
        ("0.6", "0.6.6.post1"),
    ],
)
def test_spellings_map_to_the_minor(spelling: str, release: str) -> None:
    assert nearest_release(spelling) == release
    assert load_catalogue(spelling).version == release


def test_unknown_minors() -> None:
    assert nearest_release("0.5.4") is None and nearest_release("9.9.9") is None
    assert nearest_release("0.5.4", clamp=True) == "0.6.6.post1"
    assert nearest_release("0.40.0", clamp=True) == DEFAULT_VERSION


# -- valid on one release, refused by another --------------------------------------------------
@pytest.mark.parametrize(
    ("text", "valid_on", "refused_on", "message"),
    [
        (
            "model: m\nswap-space: 4\n",
            "0.17.1",
            "0.18.1",
            "VC101 unrecognized arguments: --swap-space: removed in vLLM 0.18; CPU swap space "
            "for preemption is gone; delete it",
        ),
        (
            "model: m\nattention-backend: FLASH_ATTN\n",
            "0.13.0",
            "0.11.2",
            "VC101 unrecognized arguments: --attention-backend: added in vLLM 0.13; this file "
            "is checked against vLLM 0.11.2",
        ),
        (
            "model: m\ncompilation-config:\n  level: 3\n",
            "0.17.1",
            "0.18.1",
            "VC204 Unexpected keyword argument: `compilation-config.level` is not a field of "
            "CompilationConfig: removed in vLLM 0.18; `level` was renamed `mode`",
        ),
        (
            "model: m\ndisable-prefix-caching: true\n",
            "0.33.0",
            "0.32.0",
            "VC101 unrecognized arguments: --disable-prefix-caching: added in vLLM 0.33; this "
            "file is checked against vLLM 0.32.0",
        ),
        (
            'model: m\nrope-scaling: \'{"rope_type": "dynamic", "factor": 2.0}\'\n',
            "0.10.2",
            "0.11.2",
            "VC101 unrecognized arguments: --rope-scaling: removed in vLLM 0.11; set it through "
            "`hf-overrides: {rope_scaling: …}`",
        ),
        (  # dotted keys arrived in 0.9
            "model: m\ncompilation-config.level: 3\n",
            "0.9.2",
            "0.8.5.post1",
            "VC101 unrecognized arguments: --compilation-config.level",
        ),
        (  # before 0.16 a YAML mapping reaches argparse as its Python repr, not JSON
            "model: m\nhf-overrides:\n  rope_theta: 1000000\n",
            "0.16.0",
            "0.15.1",
            "VC205 argument --hf-overrides: Value {'rope_theta': 1000000} cannot be converted",
        ),
    ],
)
def test_valid_here_refused_there(text: str, valid_on: str, refused_on: str, message: str) -> None:
    assert _errors(text, valid_on) == []
    errors = _errors(text, refused_on)
    assert len(errors) == 1 and errors[0].startswith(message), errors


def test_removed_flag_rename_is_a_safe_fix_only_where_the_target_exists() -> None:
    finding = next(f for f in lint("model: m\ncuda-graph-sizes: [1, 2]\n").findings)
    fix = finding.safe_fix
    assert finding.code == "VC101" and fix is not None
    assert fix.edits[0].new_text == "cudagraph-capture-sizes"


def test_lists_before_010_are_one_token() -> None:
    """0.9: `str([...])` is one token, so `nargs=2` flags refuse a YAML list."""
    model = lint("model: m\nserved-model-name: [a, b]\n", version="0.9.2").model
    assert model is not None
    assert [t.text for t in model.tokens][-1] == "['a', 'b']"
    model = lint("model: m\nserved-model-name: [a, b]\n", version="0.10.2").model
    assert model is not None and [t.text for t in model.tokens][-2:] == ["a", "b"]


def test_loader_facts_per_era() -> None:
    eras = {v: load_catalogue(v).loader for v in ("0.6.6.post1", "0.9.2", "0.10.2", "0.16.0")}
    assert (eras["0.6.6.post1"].dotted_keys, eras["0.6.6.post1"].key_fold) == (False, "whole")
    assert (eras["0.9.2"].dotted_keys, eras["0.9.2"].list) == (True, "str")
    assert (eras["0.10.2"].list, eras["0.10.2"].dict) == ("items", "str")
    assert eras["0.16.0"].dict == "json"


# -- choosing the release -----------------------------------------------------------------------
def test_marker_comes_first(tmp_path: Path) -> None:
    text = "# vllm-config: version=0.10.1\nmodel: m\n"
    version, why = choose_version(text, setting="0.20", file_path=tmp_path / "a.yaml")
    assert version == "0.10.2" and "comment" in why


def test_setting_second() -> None:
    version, why = choose_version("model: m\n", setting="0.20.0")
    assert version == "0.20.2" and "setting" in why
    assert choose_version("model: m\n", setting="auto")[0] == DEFAULT_VERSION


def test_installed_vllm_in_a_parent_venv(tmp_path: Path) -> None:
    dist = tmp_path / ".venv" / "lib" / "python3.11" / "site-packages" / "vllm-0.12.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: vllm\nVersion: 0.12.0\n\nx\n")
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.25.1\n")
    version, why = choose_version("model: m\n", file_path=tmp_path / "deploy" / "serve.yaml")
    assert version == "0.12.0" and ".venv" in why


def test_image_tag_beside_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    (tmp_path / "k8s.yaml").write_text("image: docker.io/vllm/vllm-openai:v0.25.1\n")
    version, why = choose_version("model: m\n", file_path=tmp_path / "serve.vllm.yaml")
    assert version == "0.25.1" and "k8s.yaml" in why
    (tmp_path / "k8s.yaml").write_text("image: vllm/vllm-openai:latest\n")
    assert choose_version("model: m\n", file_path=tmp_path / "serve.vllm.yaml")[0] == (
        DEFAULT_VERSION
    )


def test_virtual_env_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = tmp_path / "env"
    (env / "lib" / "python3.12" / "site-packages" / "vllm-0.8.5.post1.dist-info").mkdir(
        parents=True
    )
    monkeypatch.setenv("VIRTUAL_ENV", os.fspath(env))
    work = tmp_path / "work"
    work.mkdir()
    assert choose_version("model: m\n", file_path=work / "a.yaml")[0] == "0.8.5.post1"


def test_newest_otherwise() -> None:
    version, why = choose_version("# vllm-config: version=0.4.0\nmodel: m\n")
    assert version == DEFAULT_VERSION and "newest" in why and "0.4.0" in why
