"""Rewriting a checked file (`check --fix`, `--migrate-to`) without ever losing it.

Opening the file with "w" truncates it first: a text that cannot be encoded, a full disk or
a crash then leaves it empty or cut off. The new bytes go to a temporary file beside it
instead, which replaces it in one rename, and only when it still holds the bytes this run
read: an edit saved while the fixes ran (seconds on a big file) is never overwritten.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

BOM = b"\xef\xbb\xbf"


class NotWritten(Exception):
    """Why the file was left as it was."""


def write_in_place(path: Path, before: bytes, text: str) -> bytes:
    """Replace the file `path` whose bytes were `before` by `text`, with the file's BOM and
    mode; line endings are the text's own (fixes keep them). Returns the bytes written.
    Raises NotWritten, the file untouched, when `text` is not valid UTF-8 (a lone surrogate
    a fix copied from a YAML escape), the file changed since it was read, or the write fails."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as error:
        line = text.count("\n", 0, error.start) + 1
        raise NotWritten(
            f"the result is not valid UTF-8 ({text[error.start]!r} on line {line})"
        ) from None
    if before.startswith(BOM):
        data = BOM + data
    target = Path(os.path.realpath(path))  # through a symlink, which stays one
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
        import tempfile  # only `--fix` writes (5 ms of every check's start otherwise)

        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as error:
        raise _cannot_write(error) from None
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        if not _unchanged(target, before):
            raise NotWritten("it changed since it was read; not overwritten")
        os.replace(temporary, target)
    except BaseException as error:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise _cannot_write(error) from None
        raise
    return data


def _cannot_write(error: OSError) -> NotWritten:
    return NotWritten(f"cannot write: {error.strerror or error}")


def _unchanged(path: Path, before: bytes) -> bool:
    """The file still holds `before` (compared byte for byte: a save within the clock's
    resolution keeps mtime and size); a file gone or unreadable has changed."""
    try:
        return path.read_bytes() == before
    except OSError:
        return False
