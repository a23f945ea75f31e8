"""Reading the files a config, a folder or a setting points at, so that what a file says
cannot make the server read what it likes.

A config names paths (`model:`, `revision:`, `--config`), and a folder holds files someone
else committed (`.venv/…/METADATA`, Dockerfiles, chart templates): any of them may be a FIFO
(an open without O_NONBLOCK waits for a writer forever), `/dev/zero` (a read never ends),
`/dev/stdin` (the editor's own JSON-RPC stream), a device whose open has effects, a huge
file, or a loop of symbolic links. So every such read goes through `read_capped`: the path
must `stat` as a regular file before it is opened (no device or FIFO is ever opened), it
is opened with O_NONBLOCK, `fstat` must show the same regular file after opening, and at
most `limit` bytes are read. Every failure is an OSError whose `strerror` says why; the
`read_bytes`/`read_text` wrappers and the `is_file`/`is_dir` tests turn any failure into
"not found", because a file that cannot be read is one the server does not know about,
never an internal error.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

#: Flags that only exist on some platforms (O_BINARY: Windows; the others: POSIX).
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
_CHUNK = 1 << 16


def read_capped(path: str | os.PathLike[str], limit: int, *, head: bool = False) -> bytes:
    """The bytes of the regular file at `path` (symbolic links followed): all of them, or
    with `head` the first `limit`. A larger file without `head` raises EFBIG."""
    try:
        before = os.stat(path)
    except ValueError as error:  # a NUL in the path
        raise OSError(errno.EINVAL, str(error)) from None
    if not stat.S_ISREG(before.st_mode):
        raise OSError(errno.EINVAL, "not a regular file")
    if before.st_size > limit and not head:
        raise OSError(errno.EFBIG, f"larger than {limit:,} bytes")
    descriptor = os.open(path, _OPEN_FLAGS)
    try:
        after = os.fstat(descriptor)
        same = (after.st_dev, after.st_ino) == (before.st_dev, before.st_ino)
        if not (stat.S_ISREG(after.st_mode) and same):  # replaced since the stat
            raise OSError(errno.EINVAL, "not a regular file")
        chunks: list[bytes] = []
        left = limit if head else limit + 1  # one more tells a file that grew past it
        while left > 0 and (chunk := os.read(descriptor, min(left, _CHUNK))):
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(descriptor)
    data = b"".join(chunks)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit:,} bytes")
    return data


def read_bytes(path: str | os.PathLike[str], limit: int, *, head: bool = False) -> bytes | None:
    """`read_capped`, or None when the file cannot be read within the bounds."""
    try:
        return read_capped(path, limit, head=head)
    except OSError:
        return None


def read_text(path: str | os.PathLike[str], limit: int) -> str | None:
    """The whole file as UTF-8 (what vLLM and transformers decode JSON and refs with), or
    None when it cannot be read within `limit` bytes or is not UTF-8."""
    data = read_bytes(path, limit)
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def is_file(path: Path) -> bool:
    """Whether `path` is a regular file; False, not an exception, when it cannot be looked
    at (a folder without permission, a name too long, a link loop, a NUL in the name)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def is_dir(path: Path) -> bool:
    """Whether `path` is a folder; False when it cannot be looked at (see `is_file`)."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def walk(
    top: str | os.PathLike[str], onerror: Callable[[OSError], object] | None = None
) -> Iterator[tuple[str, list[str], list[str]]]:
    """`os.walk(top, onerror=onerror)` (top down, links to folders listed but not followed,
    `dirs` pruned in place by the caller) without recursion: Python 3.11's `os.walk` recurses
    once per level, so a tree 1,000 folders deep raised RecursionError."""
    stack = [os.fspath(top)]
    while stack:
        root = stack.pop()
        try:
            with os.scandir(root) as listing:
                entries = list(listing)
        except OSError as error:
            if onerror is not None:
                onerror(error)
            continue
        dirs: list[str] = []
        files: list[str] = []
        for entry in entries:
            try:
                folder = entry.is_dir()
            except OSError:
                folder = False
            (dirs if folder else files).append(entry.name)
        yield root, dirs, files
        for name in reversed(dirs):
            path = os.path.join(root, name)
            if not os.path.islink(path):
                stack.append(path)
