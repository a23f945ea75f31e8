"""Per-release checking: the same config is right for one vLLM and wrong for another, the
release is chosen from the file and its workspace, and the loader follows the release."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import Finding, Severity, apply_edits
from vllm_config_lsp.vllm.catalogue import (
    DEFAULT_VERSION,
    available_versions,
    load_catalogue,
    nearest_release,
)
from vllm_config_lsp.vllm.versions import choose_version


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

    from vllm_config_lsp.vllm.catalogue import schema_dir

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


@pytest.mark.parametrize(
    ("words", "valid_on", "refused_on"),
    [
        ("-O3", "0.11.2", None),  # 0.11: the dotted key -O.mode=3 (no --optimization-level)
        ("-O 3", "0.10.2", None),  # 0.9-0.10: -O.level 3
        ("-O.mode=3", "0.11.2", "0.13.0"),  # 0.13 reads `.mode=3` as the level
        ("-O.mode=3", "0.12.0", "0.33.0"),  # 0.12: -cc.mode=3
    ],
)
def test_o_shorthand_follows_the_release(words: str, valid_on: str, refused_on: str | None) -> None:
    """`parse_args` rewrites `-O…` differently per release (`x-vllm.loader.o_level`)."""
    script = f"vllm serve m {words}\n"

    def errors(version: str) -> list[str]:
        found = lint(script, version=version, host="shell").findings
        return [f"{f.code} {f.message}" for f in found if f.severity == Severity.ERROR]

    assert errors(valid_on) == []
    if refused_on is not None:
        assert errors(refused_on)[0].startswith("VC206 Input should be 0, 1, 2 or 3")


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


def test_an_upgrade_in_the_venv_is_seen(tmp_path: Path) -> None:
    """The site-packages listing is kept between files of one `check DIR` (issue 30: a
    20,000-entry venv was listed again for each of 1,000 files), until it changes."""
    site = tmp_path / ".venv" / "lib" / "python3.11" / "site-packages"
    (site / "vllm-0.10.2.dist-info").mkdir(parents=True)
    file = tmp_path / "serve.yaml"
    assert choose_version("model: m\n", file_path=file)[0] == "0.10.2"
    (site / "vllm-0.10.2.dist-info").rename(site / "vllm-0.11.2.dist-info")
    os.utime(site, ns=(1, 1))  # the same second as before on a coarse file system: a new mtime
    assert choose_version("model: m\n", file_path=file)[0] == "0.11.2"


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


# -- version-specific findings (VC121-VC123 and the history wording of other rules) ----------
def _findings(text: str, version: str, code: str) -> list[Finding]:
    return [f for f in lint(text, version=version).findings if f.code == code]


def _fixed(text: str, finding: Finding) -> str:
    fix = finding.fixes[0]
    return apply_edits(text, list(fix.edits))


LEVEL_JSON = "model: m\ncompilation-config: '{\"level\": 3}'\n"


def test_renamed_field_with_both_names_is_a_safe_rename() -> None:
    """0.12 accepts `level` and `mode`; 0.18 refuses `level`; 0.10 has only `level`."""
    (found,) = _findings(LEVEL_JSON, "0.12.0", "VC121")
    assert found.severity == Severity.WARNING
    assert found.message == (
        "`compilation-config.level` was renamed `mode` in vLLM 0.11; vLLM 0.12.0 still "
        "accepts the old name, vLLM 0.18 refuses it"
    )
    assert found.safe_fix is not None
    fixed = _fixed(LEVEL_JSON, found)
    assert fixed == "model: m\ncompilation-config: '{\"mode\": 3}'\n"
    assert _errors(fixed, "0.12.0") == [] and _errors(fixed, "0.33.0") == []
    assert not _findings(fixed, "0.12.0", "VC121")
    # one finding for the key: VC120 (removed in a newer release) leaves it to VC121
    assert not _findings(LEVEL_JSON, "0.12.0", "VC120")
    assert not _findings(LEVEL_JSON, "0.10.2", "VC121") and _errors(LEVEL_JSON, "0.10.2") == []


def test_new_name_on_an_older_release_is_renamed_back() -> None:
    text = "model: m\ncompilation-config: '{\"mode\": 3}'\n"
    assert _errors(text, "0.12.0") == []
    (found,) = _findings(text, "0.10.2", "VC204")
    assert found.message.endswith(
        "added in vLLM 0.11 as the new name of `level`; this file is checked against vLLM "
        "0.10.2, which calls it `level`"
    )
    assert found.safe_fix is not None and _errors(_fixed(text, found), "0.10.2") == []
    (flag,) = _findings("model: m\ncudagraph-capture-sizes: [1, 2]\n", "0.10.2", "VC101")
    assert "as the new name of `cuda-graph-sizes`" in flag.message
    assert flag.safe_fix is not None


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("enable_noop", "eliminate_noops"),
        ("enable_attn_fusion", "fuse_attn_quant"),
        ("enable_fi_allreduce_fusion", "fuse_allreduce_rms"),
        ("enable_sequence_parallelism", "enable_sp"),
        ("enable_async_tp", "fuse_gemm_comms"),
    ],
)
def test_pass_config_renames(old: str, new: str) -> None:
    """0.12 has both names (the old one deprecated, its text quoted); 0.13 refuses the old."""
    text = f'model: m\ncompilation-config: \'{{"pass_config": {{"{old}": true}}}}\'\n'
    (found,) = _findings(text, "0.12.0", "VC121")
    assert found.message.startswith(
        f"`compilation-config.pass_config.{old}` was renamed `{new}` in vLLM 0.12; vLLM "
        "0.12.0 still accepts the old name, vLLM 0.13 refuses it (vLLM 0.12.0 says: "
        f"Deprecated in: v0.12.0. Use {new} instead."
    )
    assert not _findings(text, "0.12.0", "VC122")  # the deprecation is in VC121's message
    fixed = _fixed(text, found)
    assert _errors(fixed, "0.12.0") == [] and _errors(fixed, "0.13.0") == []
    errors = _errors(text, "0.13.0")
    assert len(errors) == 1 and errors[0].endswith(f"removed in vLLM 0.13; renamed `{new}`")


def test_renamed_flag_with_both_names() -> None:
    text = "model: m\noverride-pooler-config: '{\"normalize\": true}'\n"
    (found,) = _findings(text, "0.11.2", "VC121")
    assert found.message.startswith(
        "`override-pooler-config` was renamed `pooler-config` in vLLM 0.11; vLLM 0.11.2 still "
        "accepts the old name, vLLM 0.12 refuses it"
    )
    assert not _findings(text, "0.11.2", "VC110")  # no second finding for its deprecation
    assert _fixed(text, found).startswith("model: m\npooler-config:")


def test_deprecated_field_quotes_the_release() -> None:
    """`logit_bias` is plain in 0.19, deprecated in 0.20-0.22 (text of that release, and the
    release that removes it), refused by 0.23."""
    text = "model: m\npooler-config:\n  logit_bias: 0.5\n"
    assert not _findings(text, "0.19.1", "VC122") and _errors(text, "0.19.1") == []
    (found,) = _findings(text, "0.21.0", "VC122")
    assert found.message == (
        "`pooler-config.logit_bias` is deprecated in vLLM 0.21.0: Deprecated: Use logit_mean "
        "instead. Will be removed in v0.21. (vLLM 0.23 removes it)"
    )
    assert [fix.title for fix in found.fixes] == [
        "Rename `logit_bias` to `logit_mean`",
        "Remove `logit_bias`",
    ]
    assert not _findings(text, "0.21.0", "VC120")
    errors = _errors(text, "0.23.0")
    assert len(errors) == 1 and "removed in vLLM 0.23" in errors[0]


def test_deprecated_field_rename_only_when_the_value_fits() -> None:
    text = "model: m\nattention-config:\n  use_fp4_indexer_cache: true\n"
    (found,) = _findings(text, "0.29.0", "VC122")
    assert "Deprecated alias for `indexer_kv_dtype`" in found.message
    assert "(vLLM 0.30 removes it)" in found.message
    assert [fix.title for fix in found.fixes] == ["Remove `use_fp4_indexer_cache`"]


def test_deprecated_flag_follows_the_release() -> None:
    text = "model: m\ntask: generate\n"
    assert not _findings(text, "0.9.2", "VC110")
    (found,) = _findings(text, "0.12.0", "VC110")
    assert found.message.startswith(
        "`--task` is deprecated in vLLM 0.12.0 (vLLM 0.13 removes it; --task is not a vllm "
        "serve option."
    )
    assert not _findings(text, "0.12.0", "VC120")  # the removal is in VC110's message
    own_text = "model: m\nlog-config-file: log.json\n"
    (found,) = _findings(own_text, "0.32.0", "VC110")
    assert found.message.startswith("--log-config-file is deprecated and will be removed")


def test_mapping_advice_follows_the_loader() -> None:
    """Before 0.16 a YAML mapping reaches argparse as Python text: the advice and the fix
    write a JSON string, which every release accepts."""
    text = "model: m\nhf-overrides:\n  rope_theta: 1000000\n"
    (found,) = _findings(text, "0.15.1", "VC205")
    assert "write the value as a YAML mapping" not in found.message
    assert found.message.endswith(
        "vLLM 0.15.1 passes a YAML mapping as Python text, not JSON (YAML mappings work from "
        "vLLM 0.16 on): write the JSON string '{\"rope_theta\": 1000000}'"
    )
    assert found.safe_fix is not None
    fixed = _fixed(text, found)
    assert fixed == "model: m\nhf-overrides: '{\"rope_theta\": 1000000}'\n"
    assert _errors(fixed, "0.15.1") == [] and _errors(fixed, "0.16.0") == []
    bad = "model: m\nlimit-mm-per-prompt: image=5\n"
    (old,) = _findings(bad, "0.12.0", "VC205")
    assert old.message.endswith("; write the value as a JSON string")
    (new,) = _findings(bad, "0.16.0", "VC205")
    assert new.message.endswith("; write the value as a YAML mapping, or as a JSON string")


def test_model_key_before_08() -> None:
    """0.6 and 0.7 take the model only as `vllm serve`'s positional argument."""
    text = "model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 8192\n"
    assert _errors(text, "0.8.5.post1") == []
    for release in ("0.6.6.post1", "0.7.3"):
        (error,) = _errors(text, release)
        assert error.startswith(
            f"VC123 vLLM {release}'s `vllm serve` takes the model only on the command line"
        )
        assert error.endswith(
            "With `vllm serve`, you should provide the model as a positional argument instead "
            "of via the `--model` option."
        )
        assert _errors("max-model-len: 8192\n", release) == []
    (ignored,) = _findings("model: facebook/opt-125m\n", "0.6.6.post1", "VC123")
    assert ignored.severity == Severity.WARNING and "ignored" in ignored.message


def test_dotted_keys_before_09() -> None:
    text = "model: m\ncompilation-config.level: 3\n"
    (error,) = _errors(text, "0.8.5.post1")
    assert error == (
        "VC101 unrecognized arguments: --compilation-config.level: vLLM 0.8.5.post1 reads a "
        "dotted key as one option name (dotted keys work from vLLM 0.9 on); set "
        "`compilation-config` to a JSON string instead"
    )


def test_removed_flag_read_as_another_abbreviation() -> None:
    """0.24-0.30 take the removed `device` as the abbreviation of `--device-ids`."""
    (found,) = _findings("model: m\ndevice: cuda\n", "0.25.1", "VC103")
    assert found.message == (
        "vLLM 0.25.1 takes `device` as the abbreviation of --device-ids, a different flag: "
        "`--device` was removed in vLLM 0.10; vLLM detects the platform; delete it"
    )
    assert found.safe_fix is None  # renaming it to `device-ids` would change its meaning


HISTORY_CODES = {"VC101", "VC102", "VC103", "VC110", "VC120", "VC121", "VC122", "VC204"}


@pytest.mark.parametrize(
    "text",
    [
        LEVEL_JSON,
        'model: m\ncompilation-config: \'{"mode": 3, "pass_config": '
        '{"enable_fusion": true, "enable_noop": true}}\'\n',
        "model: m\ntask: generate\ncuda-graph-sizes: [1, 2]\nswap-space: 4\n",
        "model: m\noverride-pooler-config: '{\"softmax\": true}'\n",
        'model: m\npooler-config: \'{"logit_bias": 0.5, "normalize": true}\'\n',
        "model: m\ndisable-cascade-attn: true\nguided-decoding-backend: xgrammar\n",
    ],
)
def test_each_key_is_reported_once_on_every_release(text: str) -> None:
    for release in available_versions():
        spans = [
            (f.start, f.end)
            for f in lint(text, version=release).findings
            if f.code in HISTORY_CODES
        ]
        assert len(spans) == len(set(spans)), (release, lint(text, version=release).findings)
