"""A walk says what it skips, and what cannot be looked at is "not found": `check DIR`
reports every entry and folder it could not read on stderr and exits 2 (as for a named
file it cannot read); a Hugging Face cache that cannot be entered and a deleted working
directory leave the model "not found", never an internal error. The unreadable things are
built so that they stay unreadable for root too (link loops, dangling links, FIFOs, paths
longer than the system takes); `chmod 000` variants run only where it denies reads."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support import CACHED_MODEL, HF_CACHE, bounded_cli, cache_env, limit_memory

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs, links, RLIMIT_AS")
as_root = pytest.mark.skipif(
    os.geteuid() == 0, reason="root reads a folder whatever its mode (chmod denies nothing)"
)

BAD = "model: m\nmax-num-seqs: lots\n"
#: Longer than a file name may be (255 bytes on Linux and macOS): stat fails ENAMETOOLONG.
TOO_LONG = "n" * 300


def _unreadable_entries(folder: Path) -> dict[str, str]:
    """Entries no one can read, by name, with the reason the walk must give."""
    (folder / "loop.vllm.yaml").symlink_to("loop.vllm.yaml")
    (folder / "gone.vllm.yaml").symlink_to("missing.vllm.yaml")
    os.mkfifo(folder / "pipe.vllm.yaml")
    return {
        "loop.vllm.yaml": "Too many levels of symbolic links",
        "gone.vllm.yaml": "No such file or directory",
        "pipe.vllm.yaml": "not a regular file",
    }


def _reported(stderr: str) -> dict[str, str]:
    out = {}
    for line in stderr.splitlines():
        path, _, reason = line.partition(": cannot read: ")
        if reason:
            out[Path(path).name] = reason
    return out


def test_a_walk_reports_each_entry_it_cannot_read(tmp_path: Path) -> None:
    expected = _unreadable_entries(tmp_path)
    (tmp_path / "bad.vllm.yaml").write_text(BAD)
    result = bounded_cli("check", "--format", "json", str(tmp_path))
    assert result.returncode == 2, result.stderr
    assert _reported(result.stderr) == expected
    assert [Path(r["file"]).name for r in json.loads(result.stdout)] == ["bad.vllm.yaml"]


def test_a_walk_that_read_nothing_does_not_say_it_found_nothing(tmp_path: Path) -> None:
    expected = _unreadable_entries(tmp_path)
    result = bounded_cli("check", str(tmp_path))
    assert result.returncode == 2
    assert "no vLLM config files found" not in result.stderr
    assert _reported(result.stderr) == expected


def test_a_folder_that_cannot_be_listed_is_reported(tmp_path: Path) -> None:
    """Nested folders whose path is longer than the system takes (PATH_MAX, 4096 bytes on
    Linux): made through folder descriptors, listed by no one."""
    descriptor = os.open(tmp_path, os.O_RDONLY)
    try:
        for _ in range(20):
            os.mkdir("d" * 250, dir_fd=descriptor)
            inner = os.open("d" * 250, os.O_RDONLY, dir_fd=descriptor)
            os.close(descriptor)
            descriptor = inner
    finally:
        os.close(descriptor)
    (tmp_path / "bad.vllm.yaml").write_text(BAD)
    result = bounded_cli("check", "--format", "json", str(tmp_path))
    assert result.returncode == 2, result.stderr
    reasons = set(_reported(result.stderr).values())
    assert reasons == {"File name too long"}, result.stderr
    assert [Path(r["file"]).name for r in json.loads(result.stdout)] == ["bad.vllm.yaml"]


@as_root
def test_locked_folders_and_files_are_reported(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "inside.vllm.yaml").write_text(BAD)
    (tmp_path / "secret.vllm.yaml").write_text(BAD)
    (tmp_path / "secret.vllm.yaml").chmod(0)
    locked.chmod(0)
    try:
        result = bounded_cli("check", str(tmp_path))
    finally:
        locked.chmod(0o755)
    assert result.returncode == 2
    assert _reported(result.stderr) == {
        "locked": "Permission denied",
        "secret.vllm.yaml": "Permission denied",
    }


def _model_rows(
    tmp_path: Path,
    hub: Path,
    cwd: Path | None = None,
    preexec: Callable[[], None] = limit_memory,
) -> list[dict[str, str]]:
    config = tmp_path / "serve.vllm.yaml"
    config.write_text(CACHED_MODEL)
    result = bounded_cli(
        "check", "--format", "json", str(config), env=cache_env(hub), cwd=cwd, preexec=preexec
    )
    assert result.returncode in (0, 1), result.stderr
    rows: list[dict[str, str]] = json.loads(result.stdout)
    assert not [r for r in rows if r["code"] == "VC000"], rows  # no internal error
    return rows


def test_a_cache_path_that_cannot_be_looked_at_is_not_found(tmp_path: Path) -> None:
    rows = _model_rows(tmp_path, tmp_path / TOO_LONG / "hub")
    assert [r["code"] for r in rows] == ["VC600"]


@as_root
def test_a_cache_the_user_cannot_enter_is_not_found(tmp_path: Path) -> None:
    hub = tmp_path / "hub"
    shutil.copytree(HF_CACHE, hub)
    hub.chmod(0)
    try:
        rows = _model_rows(tmp_path, hub)
    finally:
        hub.chmod(0o755)
    assert [r["code"] for r in rows] == ["VC600"]


def test_a_deleted_working_directory_leaves_the_cache_to_look_in(tmp_path: Path) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()

    def remove_working_directory() -> None:
        limit_memory()
        os.rmdir(os.getcwd())

    rows = _model_rows(tmp_path, HF_CACHE, cwd=gone, preexec=remove_working_directory)
    assert "VC601" in {r["code"] for r in rows}
