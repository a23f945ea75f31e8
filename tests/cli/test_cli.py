"""`vllm-config-lsp check` and `rules` through the installed console command."""

from __future__ import annotations

import json
from pathlib import Path

from support import REPO, cli, corpus_chart, sarif_errors

BAD = "model: m\nmax-num-seqs: lots\nenable-prefix-caching: false\n"
GOOD = "model: m\nmax-num-seqs: 128\n"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_exit_codes(tmp_path: Path) -> None:
    assert cli("check", str(_write(tmp_path, "good.vllm.yaml", GOOD))).returncode == 0
    assert cli("check", str(_write(tmp_path, "bad.vllm.yaml", BAD))).returncode == 1
    assert cli("check").returncode == 2
    assert cli("check", str(tmp_path / "missing.yaml")).returncode == 2
    assert cli("check", "--format", "xml", str(tmp_path)).returncode == 2


def test_fail_on_warning(tmp_path: Path) -> None:
    warn_only = _write(tmp_path, "w.vllm.yaml", "model: m\nenable-prefix-caching: false\n")
    assert cli("check", str(warn_only)).returncode == 0
    assert cli("check", str(warn_only), "--fail-on", "warning").returncode == 1


def test_json_shape(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.vllm.yaml", BAD)
    rows = json.loads(cli("check", str(path), "--format", "json").stdout)
    assert [(r["code"], r["line"], r["column"], r["severity"]) for r in rows] == [
        ("VC201", 2, 15, "error"),
        ("VC104", 3, 24, "warning"),
    ]
    for row in rows:
        assert set(row) == {
            "file",
            "line",
            "column",
            "end_line",
            "end_column",
            "severity",
            "code",
            "message",
            "fix",
            "related",
            "suppression",
        }
        assert row["file"] == str(path)
        assert row["related"] == []
    assert rows[0]["message"] == "argument --max-num-seqs: invalid int value: 'lots'"
    assert rows[0]["fix"] is None
    fix = rows[1]["fix"]
    assert fix["title"] == "Replace with `no-enable-prefix-caching: true`"
    assert fix["edits"] == [
        {
            "line": 3,
            "column": 1,
            "end_line": 3,
            "end_column": 22,
            "new_text": "no-enable-prefix-caching",
        },
        {"line": 3, "column": 24, "end_line": 3, "end_column": 29, "new_text": "true"},
    ]


def test_warnings_name_the_setting_that_causes_them(tmp_path: Path) -> None:
    """A warning on an overridden setting points at the one that overrides it."""
    text = "model: m\nenforce-eager: true\ncompilation-config:\n  cudagraph_mode: FULL\n"
    path = _write(tmp_path, "eager.vllm.yaml", text)
    [row] = json.loads(cli("check", str(path), "--format", "json").stdout)
    assert (row["code"], row["line"], row["severity"]) == ("VC376", 4, "warning")
    assert row["related"] == [{"line": 2, "column": 1, "message": "`enforce-eager` is set here"}]
    shown = cli("check", str(path)).stdout
    assert "    note: 2:1: `enforce-eager` is set here\n" in shown
    sarif = json.loads(cli("check", str(path), "--format", "sarif").stdout)
    assert sarif_errors(sarif) == []
    [result] = sarif["runs"][0]["results"]
    [related] = result["relatedLocations"]
    assert related["message"]["text"] == "`enforce-eager` is set here"
    assert related["physicalLocation"]["region"] == {
        "startLine": 2,
        "startColumn": 1,
        "endLine": 2,
        "endColumn": 20,  # the whole `enforce-eager: true` entry
    }


def test_github_and_sarif(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.vllm.yaml", BAD)
    github = cli("check", str(path), "--format", "github").stdout.splitlines()
    assert github[0].startswith(
        f"::error file={path},line=2,col=15,endLine=2,endColumn=19,title=VC201::"
    )
    assert github[1].startswith("::warning ")
    sarif = json.loads(cli("check", str(path), "--format", "sarif").stdout)
    assert sarif["version"] == "2.1.0"
    results = sarif["runs"][0]["results"]
    assert [r["ruleId"] for r in results] == ["VC201", "VC104"]
    assert results[0]["locations"][0]["physicalLocation"]["region"]["startLine"] == 2
    rule_ids = {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert {"VC201", "VC104", "VC301"} <= rule_ids


def test_select_and_ignore(tmp_path: Path) -> None:
    path = _write(tmp_path, "bad.vllm.yaml", BAD)
    only = json.loads(cli("check", str(path), "--format", "json", "--select", "VC1").stdout)
    assert [r["code"] for r in only] == ["VC104"]
    rest = json.loads(cli("check", str(path), "--format", "json", "--ignore", "VC104").stdout)
    assert [r["code"] for r in rest] == ["VC201"]


def test_directory_walk_picks_vllm_configs_only(tmp_path: Path) -> None:
    _write(tmp_path, "serve.vllm.yaml", BAD)
    _write(tmp_path, "marked.yaml", "# vllm-config\n" + BAD)
    _write(tmp_path, "deployment.yaml", "apiVersion: apps/v1\nkind: Deployment\nmax-num-seqs: x\n")
    (tmp_path / "node_modules").mkdir()
    _write(tmp_path / "node_modules", "x.vllm.yaml", BAD)
    rows = json.loads(cli("check", str(tmp_path), "--format", "json").stdout)
    assert sorted({Path(r["file"]).name for r in rows}) == ["marked.yaml", "serve.vllm.yaml"]


def test_named_file_is_always_checked(tmp_path: Path) -> None:
    path = _write(tmp_path, "deployment.yaml", BAD)
    assert cli("check", str(path)).returncode == 1


def test_fix_applies_safe_fixes_only(tmp_path: Path) -> None:
    text = (
        "# my server\nmodel: m\ntensor-parallel: 2  # eight GPUs later\n"
        "enable-prefix-caching: false\nswap-space: 4\n"
    )
    path = _write(tmp_path, "serve.vllm.yaml", text)
    result = cli("check", str(path), "--fix")
    assert path.read_text() == (
        "# my server\nmodel: m\ntensor-parallel-size: 2  # eight GPUs later\n"
        "no-enable-prefix-caching: true\nswap-space: 4\n"
    )
    # removing a flag is a decision for a human: reported, not applied
    assert result.returncode == 1
    assert "VC101 unrecognized arguments: --swap-space" in result.stdout


def test_fix_keeps_crlf(tmp_path: Path) -> None:
    path = tmp_path / "serve.vllm.yaml"
    path.write_bytes(b"model: m\r\ntensor-parallel: 2\r\n")
    cli("check", str(path), "--fix")
    assert path.read_bytes() == b"model: m\r\ntensor-parallel-size: 2\r\n"


def test_version_marker_and_option(tmp_path: Path) -> None:
    path = _write(tmp_path, "a.vllm.yaml", GOOD)
    assert cli("check", str(path), "--vllm-version", "0.33.0").returncode == 0
    unknown = cli("check", str(path), "--vllm-version", "9.9.9")
    assert unknown.returncode == 2
    assert "unknown vLLM version '9.9.9'" in unknown.stderr


def test_rules_listing_and_one_rule() -> None:
    listing = cli("rules")
    assert listing.returncode == 0
    assert "VC301  encoder-budgets-positive" in listing.stdout
    one = cli("rules", "VC301")
    assert one.returncode == 0
    assert "## Example" in one.stdout
    assert "vLLM source: vllm/config/compilation.py:1072" in one.stdout
    assert cli("rules", "VC999").returncode == 2


def test_bundled_examples_run(tmp_path: Path) -> None:
    result = cli("check", str(REPO / "examples"), "--format", "json")
    assert result.returncode == 1
    rows = json.loads(result.stdout)
    files_with_seed = {Path(r["file"]).name for r in rows if r["code"] == "VC301"}
    # five --config spellings, a SLURM command line and a Kubernetes Deployment's args
    assert len(files_with_seed) == 7
    slurm = [(r["line"], r["code"]) for r in rows if r["file"].endswith(".slurm")]
    assert slurm == [(9, "VC101"), (11, "VC301")]
    k8s = [
        (r["line"], r["column"], r["code"])
        for r in rows
        if r["file"].endswith("k8s-deployment.yaml")
    ]
    assert k8s == [(30, 83, "VC301")]
    clean = [r for r in rows if Path(r["file"]).name == "llama-3.1-8b-serve.vllm.yaml"]
    assert clean == []


def test_standalone_dstack_configuration(tmp_path: Path) -> None:
    config = tmp_path / "qwen.dstack.yml"
    config.write_text(
        "type: service\nname: qwen\nimage: vllm/vllm-openai:v0.10.2\ncommands:\n  - |\n"
        "    vllm serve Qwen/Qwen3-8B \\\n      --max-num-seqs many\nport: 8000\n",
        encoding="utf-8",
    )
    result = cli("check", "--format", "json", str(tmp_path))
    assert result.returncode == 1
    rows = json.loads(result.stdout)
    assert [(r["line"], r["code"]) for r in rows] == [(7, "VC201")]
    listed = json.loads(cli("argv", "--format", "json", str(config)).stdout)
    assert [(e["source"], e["vllm_version"]) for e in listed] == [("dstack", "0.10.2")]


def test_chart_values_are_checked_through_the_templates(tmp_path: Path) -> None:
    """The corpus's GKE chart (invocations.jsonl, lines 25 and 26) laid out as a chart: its
    values file gives the template's argv with the values in it, on the values' lines, and
    each finding is reported once, by the file that wrote its text."""
    values = corpus_chart(tmp_path)
    template = values.parent / "templates" / "deployment.yaml"
    [entry] = json.loads(cli("argv", "--format", "json", str(values)).stdout)
    assert entry["argv"] == [
        "--model=google/gemma-7b-it",
        "--disable-log-requests",
        "--tensor-parallel-size=1",
        "--max-num-seq=512",
        "--gpu-memory-utilization=0.95",
        "--num-scheduler-steps=8",
        "--max-model-len=512",
    ]
    assert (entry["line"], entry["source"], entry["vllm_version"]) == (27, "helm", "0.19.1")

    def found(*paths: Path) -> list[tuple[str, int, str]]:
        done = cli("check", "--vllm-version", "0.33.0", "--format", "json", *map(str, paths))
        return [(Path(r["file"]).name, r["line"], r["code"]) for r in json.loads(done.stdout)]

    # the removed flag is fixed in the template: the template reports it, the values do not
    assert found(values) == []
    assert ("deployment.yaml", 41, "VC101") in found(template)
    assert found(values.parent) == found(template)
    bad = corpus_chart(
        tmp_path / "bad",
        {"tensorParallelSize: 1": "tensorParallelSize: 0", "maxModelLen: 512": "maxModelLen: abc"},
    )
    assert found(bad) == [("values.yaml", 46, "VC203"), ("values.yaml", 49, "VC201")]
    everything = found(bad.parent)
    assert sorted(everything) == sorted(set(everything))
    assert [row for row in everything if row[0] == "values.yaml"] == found(bad)
    assert [row for row in everything if row[0] != "values.yaml"] == found(template)


def test_merge_keys_are_read_as_yaml_safe_load_reads_them(tmp_path: Path) -> None:
    """`<<` is no YAML error, and an explicit key overriding a merged one is no duplicate."""
    text = "<<: &defaults {model: m, max-num-seqs: 8}\nmax-num-seqs: 16\n"
    result = cli("check", str(_write(tmp_path, "merge.vllm.yaml", text)), "--format", "json")
    assert json.loads(result.stdout) == []
