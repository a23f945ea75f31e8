"""The methods attrs and cattrs generate, compiled once and kept between starts (issue 35).

Importing `lsprotocol.types` builds ~570 attrs classes, and attrs writes each class's
`__init__`/`__eq__`/`__repr__` as Python source and compiles it: about half of that import
(the largest cost of a server start) is `compile` of the same text on every start. cattrs
does the same for the structure/unstructure functions of each message type it meets.
Both call the module-level `compile` of their code generators; `install` puts a cached
`compile` there that returns the code object compiled from the same text, file name and
flags on an earlier start, and compiles (and keeps) what it has not seen. What runs is
what attrs and cattrs generate, unchanged: only the compilation is remembered, as Python's
own `.pyc` files remember a module's.

The store is one marshal file per Python and attrs version (a code object is found by
its text, name and mode: a changed generator only adds entries) under the user's cache
folder (`VLLM_CONFIG_LSP_CACHE`, else `$XDG_CACHE_HOME`/`~/.cache` + `vllm-config-lsp`),
written by `save` (atomically; not when Python writes no bytecode: `-B`,
`PYTHONDONTWRITEBYTECODE`). A missing, stale or unreadable store only means compiling.
"""

from __future__ import annotations
import __future__

import contextlib
import hashlib
import marshal
import os
import sys
import tempfile
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

#: What the generators' own modules compile with (both use `from __future__ import
#: annotations`, which `compile` would otherwise inherit from its caller).
FLAGS = __future__.annotations.compiler_flag

_codes: dict[bytes, CodeType] = {}
_added = False
_path: Path | None = None


def cache_dir() -> Path:
    named = os.environ.get("VLLM_CONFIG_LSP_CACHE")
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "vllm-config-lsp"


def _compile(source: Any, filename: Any, mode: str, *args: Any, **kwargs: Any) -> Any:
    """`compile`, remembered for the generators' plain calls (`compile(text, name, mode)`)."""
    global _added
    if args or kwargs or not isinstance(source, str) or not isinstance(filename, str):
        return compile(source, filename, mode, *args, **kwargs)
    key = hashlib.blake2b(f"{mode}\0{filename}\0{source}".encode(), digest_size=16).digest()
    code = _codes.get(key)
    if code is None:
        code = compile(source, filename, mode, FLAGS, dont_inherit=True)
        _codes[key] = code
        _added = True
    return code


def install() -> None:
    """Give attrs' and cattrs' code generators the cached `compile`, before the LSP stack
    (lsprotocol's classes) is imported. Anything unexpected leaves them as they are."""
    global _path
    if _path is not None:
        return
    modules: list[ModuleType] = []
    try:
        import attr
        import attr._make

        modules.append(attr._make)
        version = attr.__version__
        with contextlib.suppress(Exception):
            import cattrs.gen

            modules.append(cattrs.gen)
    except Exception:
        return
    name = f"generated-code-{sys.implementation.cache_tag}-attrs{version}.marshal"
    _path = cache_dir() / name
    with contextlib.suppress(Exception):
        stored = marshal.loads(_path.read_bytes())
        if isinstance(stored, dict):
            for key, code in stored.items():
                if isinstance(key, bytes) and isinstance(code, CodeType):
                    _codes[key] = code
    for module in modules:
        module.compile = _compile  # type: ignore[attr-defined]


def save() -> None:
    """Keep what was compiled since the store was read (nothing when nothing new)."""
    global _added
    if _path is None or not _added or sys.dont_write_bytecode:
        return
    _added = False
    with contextlib.suppress(OSError, ValueError):
        _path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=_path.parent, prefix=".generated-code-")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(marshal.dumps(_codes))
            os.replace(temporary, _path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
