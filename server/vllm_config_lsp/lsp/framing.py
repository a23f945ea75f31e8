"""LSP frames (`Content-Length: N` header lines, an empty line, N bytes of JSON) read from
the client within a bound, finding a header again after a frame that lied about its length.

pygls 2.1 reads a body with `read(N)` for whatever N the header says (`Content-Length:
99999999999999` ends the server with MemoryError), reads header lines without a bound, and
accepts a header only at the very start of a line: after one frame whose length is wrong,
the rest of a body (JSON has no line break at its end) is glued to the next header line,
and every later message is lost. Here:

* a body is at most `MAX_FRAME` bytes: a longer frame is read in chunks and dropped, only
  its first `HEAD_KEPT` bytes kept (to see the request's id and answer it);
* a header is found anywhere in what is read, header lines and bodies alike. A JSON body
  cannot hold `Content-Length: N` followed by a raw line break (JSON strings have no raw
  control characters, and outside strings those letters are no JSON), so one found in a
  body is the next frame's: the body ends there, and reading goes on from it;
* a body is taken as soon as a header follows it, so a frame that declared more bytes than
  it has costs no more than the bytes of the next header that it swallowed: the caller
  decodes the JSON and hands the bytes after it back (`unread`) to be read as a header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import BinaryIO

#: The largest body read (a document of the 2 MB the engine checks, escaped, fits many times).
MAX_FRAME = 64 * 1024 * 1024
#: What is kept of a frame over `MAX_FRAME`: enough for the envelope before big params.
HEAD_KEPT = 64 * 1024
#: Bytes read at a time (a header line longer than this is read in pieces).
CHUNK = 64 * 1024
HEADER = re.compile(rb"content-length[ \t]{0,8}:[ \t]{0,8}(\d{1,30})[ \t]{0,8}\r?\n", re.I)
#: Longer than any `HEADER` match: a header cut by a chunk boundary is still found.
CARRY = 80


@dataclass
class Frame:
    """One body as read: `body` is all of it, or its head when it was over `MAX_FRAME`."""

    body: bytes
    declared: int
    oversized: bool = False
    #: Bytes read that belonged to no frame (before this frame's header).
    skipped: int = 0


class FrameReader:
    """Frames from a blocking binary stream (stdin); used from one thread at a time.

    What is read from the stream waits in `_data` from `_at` on: each byte is copied once
    on the way through (a frame's remainder is not sliced off anew for every message).
    """

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._data = b""
        self._at = 0

    def unread(self, data: bytes) -> None:
        """Bytes read as part of a body that belong to what follows it."""
        self._data = data + self._data[self._at :]
        self._at = 0

    def next_frame(self) -> Frame | None:
        """The next frame; None at the end of input."""
        declared, skipped = self._header()
        if declared is None:
            return None
        body, oversized = self._body(declared)
        return Frame(body, declared, oversized, skipped)

    def _filled(self) -> bool:
        if self._at >= len(self._data):
            self._data = self._stream.read1(CHUNK)  # type: ignore[attr-defined]
            self._at = 0
        return bool(self._data)

    def _some(self, most: int) -> bytes:
        """Up to `most` bytes (waiting only when none are there); b"" at the end."""
        if not self._filled():
            return b""
        piece = self._data[self._at : self._at + most]
        self._at += len(piece)
        return piece

    def _line(self) -> bytes:
        """Up to the next line break (included) or the end of what is there."""
        if not self._filled():
            return b""
        end = self._data.find(b"\n", self._at)
        stop = len(self._data) if end < 0 else end + 1
        piece = self._data[self._at : stop]
        self._at = stop
        return piece

    def _header(self) -> tuple[int | None, int]:
        """(the declared length, bytes skipped before the header), after the empty line
        that ends the header block; (None, …) at the end of input."""
        declared: int | None = None
        skipped = 0
        line = b""  # the current header line so far
        while piece := self._line():
            line += piece
            if not line.endswith(b"\n"):
                if len(line) > CARRY:  # a line without end: keep only where a header may begin
                    skipped += len(line) - CARRY
                    line = line[-CARRY:]
                continue
            found = HEADER.search(line)
            if found is not None:
                skipped += found.start()
                declared = int(found.group(1))
            elif line.strip():
                skipped += len(line) if declared is None else 0  # not a header of ours
            elif declared is not None:  # the empty line: the body follows
                return declared, skipped
            line = b""
        return None, skipped + len(line)

    def _body(self, declared: int) -> tuple[bytes, bool]:
        """The body (True: it was over `MAX_FRAME`, only its head is kept). It ends early
        where the next frame's header shows, which is handed back to be read again."""
        kept = bytearray()
        oversized = False
        seen = 0
        tail = b""  # the last bytes read, where a header may have begun
        while seen < declared:
            chunk = self._some(min(CHUNK, declared - seen))
            if not chunk:
                break
            window = tail + chunk
            found = HEADER.search(window)
            if found is not None:
                self.unread(window[found.start() :])
                if not oversized:
                    del kept[seen - len(tail) + found.start() :]
                break
            seen += len(chunk)
            if not oversized:
                kept += chunk
                if len(kept) > MAX_FRAME:
                    oversized = True
                    del kept[HEAD_KEPT:]
            tail = window[-CARRY:]
        return bytes(kept), oversized
