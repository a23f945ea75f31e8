"""Project settings discovered like ruff's, through the console command: `[tool.vllm-config]`
in the nearest `pyproject.toml`, or `vllm-config.toml` / `.vllm-config.toml` above each
checked file; command-line options override them; `--show-settings` says what applies and
from where; unknown keys and bad values are reported with the file and line (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

from support import cli

BAD = "model: m\nmax-num-seqs: lots\nenable-prefix-caching: false\n"
PYPROJECT = """\
[project]
name = "deployments"

[tool.vllm-config]
ignore = ["VC104"]
fail-on = "warning"
exclude = ["old/**"]
include = ["serving/*.yaml"]

[tool.vllm-config.per-file-ignores]
"deploy/*.yaml" = ["VC201"]
"""


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for folder in ("deploy", "old", "serving", "team"):
        (root / folder).mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT)
    for name in ("deploy/a.vllm.yaml", "old/b.vllm.yaml", "top.vllm.yaml", "team/c.vllm.yaml"):
        (root / name).write_text(BAD)
    (root / "serving" / "llama.yaml").write_text("model: m\nmax-model-len: long\n")
    # a nearer settings file wins for its folder (no merging)
    (root / "team" / ".vllm-config.toml").write_text('select = ["VC104"]\nfail-on = "warning"\n')
    return root


def _found(root: Path, *args: str) -> list[tuple[str, str]]:
    result = cli("check", "--format", "json", str(root), *args)
    assert result.returncode in (0, 1), result.stderr
    return sorted(
        (Path(row["file"]).relative_to(root).as_posix(), row["code"])
        for row in json.loads(result.stdout)
    )


def test_settings_apply_per_file(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    assert _found(root) == [
        # deploy/: VC201 ignored there; old/ excluded; serving/llama.yaml included
        ("serving/llama.yaml", "VC201"),
        ("team/c.vllm.yaml", "VC104"),  # its own file: only VC104 selected
        ("top.vllm.yaml", "VC201"),
    ]
    # fail-on = "warning" from team/'s file: the VC104 warning fails
    assert cli("check", str(root / "team" / "c.vllm.yaml")).returncode == 1
    # command-line options override the file
    assert cli("check", str(root / "team" / "c.vllm.yaml"), "--fail-on", "error").returncode == 0
    assert ("top.vllm.yaml", "VC104") in _found(root, "--ignore", "VC9")
    # --select replaces `select`; the file's `ignore` stays unless --ignore replaces it
    assert _found(root, "--select", "VC104") == [("team/c.vllm.yaml", "VC104")]
    assert _found(root, "--select", "VC104", "--ignore", "VC9") == [
        ("deploy/a.vllm.yaml", "VC104"),
        ("team/c.vllm.yaml", "VC104"),
        ("top.vllm.yaml", "VC104"),
    ]
    # a named file is checked even when excluded; --only-detected (pre-commit) drops it
    assert cli("check", str(root / "old" / "b.vllm.yaml")).returncode == 1
    assert cli("check", "--only-detected", str(root / "old" / "b.vllm.yaml")).returncode == 0


def test_show_settings_says_what_applies_and_from_where(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    pyproject = (root / "pyproject.toml").resolve()
    shown = cli("check", "--show-settings", str(root / "deploy" / "a.vllm.yaml"), "--gpus", "2")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert f"  settings file: {pyproject} [tool.vllm-config]" in lines
    assert f"  ignore = [VC104]  # {pyproject}:5" in lines
    assert f"  fail-on = warning  # {pyproject}:6" in lines
    assert f"  per-file-ignores 'deploy/*.yaml' = [VC201]  # {pyproject}:10" in lines
    assert "  gpus = 2  # --gpus" in lines
    assert "  select = every rule  # default" in lines
    team = cli("check", "--show-settings", str(root / "team" / "c.vllm.yaml")).stdout
    nearer = (root / "team" / ".vllm-config.toml").resolve()
    assert f"  settings file: {nearer}" in team and f"select = [VC104]  # {nearer}:1" in team


def test_unknown_keys_and_bad_values_are_reported_with_file_and_line(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    settings = root / "vllm-config.toml"
    settings.write_text(
        'selct = ["VC2"]\nignore = ["VC104"]\ngpu = "H100-81GB"\nfail-on = "fatal"\n'
        'vllm-version = "0.1"\nselect = ["XX1"]\n'
    )
    config = root / "a.vllm.yaml"
    config.write_text(BAD)
    result = cli("check", str(config))
    assert result.returncode == 2
    problems = result.stderr.splitlines()
    where = settings.resolve()
    assert problems[0].startswith(
        f"vllm-config-lsp: {where}:1: unknown key 'selct' (did you mean 'select'?)"
    )
    assert [line.split(": ", 2)[1] for line in problems] == [
        f"{where}:{n}" for n in (1, 3, 4, 5, 6)
    ]
    assert "unknown GPU 'H100-81GB'" in problems[1]
    assert "expected one of error, warning, info, got 'fatal'" in problems[2]
    # the valid keys still apply: VC104 ignored
    assert "VC104" not in result.stdout and "VC201" in result.stdout
    settings.write_text("select = [\n")
    broken = cli("check", str(config))
    assert broken.returncode == 2 and f"{where}:1: invalid TOML" in broken.stderr
