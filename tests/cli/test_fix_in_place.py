"""`check --fix` and `--migrate-to` rewrite files without ever losing one (issue 18, point 1).

The file is replaced by a temporary file beside it, only when it still holds what was read,
and only with valid UTF-8; its BOM, mode and line endings stay."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from support import cli
from vllm_config_lsp import engine
from vllm_config_lsp.cli.main import main

BOM = b"\xef\xbb\xbf"
#: Before 0.16 VC205's safe fix writes the mapping as a JSON string, with `ensure_ascii=False`:
#: the YAML escape's lone surrogate lands in the fixed text.
SURROGATE = b'model: m\nhf-overrides:\n  architectures: "\\ud800"\n'


def test_a_fix_that_is_not_utf8_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    broken = tmp_path / "a.vllm.yaml"
    broken.write_bytes(SURROGATE)
    other = tmp_path / "b.vllm.yaml"
    other.write_bytes(b"model: m\ntensor-parallel: 2\n")
    result = cli("check", "--fix", "--vllm-version", "0.10.2", str(broken), str(other))
    assert broken.read_bytes() == SURROGATE
    assert f"{broken}: fixes not applied: the result is not valid UTF-8" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.returncode == 2
    assert "a.vllm.yaml:3:3: error VC205" in result.stdout  # the file as it is
    assert other.read_bytes() == b"model: m\ntensor-parallel-size: 2\n"  # the next file: fixed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.vllm.yaml", "b.vllm.yaml"]


@pytest.mark.parametrize(
    ("options", "before", "after"),
    [
        (
            ["--fix"],
            b"model: m\r\ntensor-parallel: 2\r\n",
            b"model: m\r\ntensor-parallel-size: 2\r\n",
        ),
        (
            ["--migrate-to", "0.33.0"],
            b"model: m\r\ncuda-graph-sizes: [1, 2]\r\n",
            b"model: m\r\ncudagraph-capture-sizes: [1, 2]\r\n",
        ),
    ],
)
def test_rewrite_keeps_bom_mode_line_endings_and_symlink(
    tmp_path: Path, options: list[str], before: bytes, after: bytes
) -> None:
    target = tmp_path / "real" / "serve.vllm.yaml"
    target.parent.mkdir()
    target.write_bytes(BOM + before)
    target.chmod(0o640)
    link = tmp_path / "serve.vllm.yaml"
    link.symlink_to(target)
    cli("check", *options, str(link))
    assert target.read_bytes() == BOM + after
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert link.is_symlink()
    assert [p.name for p in target.parent.iterdir()] == ["serve.vllm.yaml"]  # no leftovers


def test_an_edit_saved_while_fixing_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The fixes are the slow part (seconds on a big file): an editor saves meanwhile, the
    same size and within the clock's resolution, so only the bytes tell."""
    path = tmp_path / "serve.vllm.yaml"
    path.write_bytes(b"model: m\ntensor-parallel: 2\n")
    saved = b"model: m\ntensor-parallel: 4\n"
    fix_all = engine.fix_all

    def the_user_saves_meanwhile(*args: object, **kwargs: object) -> object:
        path.write_bytes(saved)
        return fix_all(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine, "fix_all", the_user_saves_meanwhile)
    assert main(["check", "--fix", str(path)]) == 2
    assert path.read_bytes() == saved
    assert "fixes not applied: it changed since it was read" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["serve.vllm.yaml"]


def test_a_full_disk_leaves_the_file_whole(tmp_path: Path) -> None:
    """The disk fills up (a 4 KB file-size limit) while a 64 KB file is written back."""
    resource = pytest.importorskip("resource")
    path = tmp_path / "serve.vllm.yaml"
    original = b"model: m\ntensor-parallel: 2\n" + b"# padding\n" * 6_500
    path.write_bytes(original)

    def small_disk() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    result = cli("check", "--fix", str(path), preexec_fn=small_disk)
    assert path.read_bytes() == original
    assert f"{path}: fixes not applied: cannot write: File too large" in result.stderr
    assert result.returncode == 2
    assert [p.name for p in tmp_path.iterdir()] == ["serve.vllm.yaml"]
