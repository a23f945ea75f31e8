"""Code that Python libraries generate as text at import, compiled once and kept between
starts (issue 35).

`dataclasses` writes each class's `__init__`/`__repr__`/`__eq__`/… as source and `exec`s
it: the ~110 dataclasses a `check` imports spend ~70% of their creation in that compile,
a fifth of a one-file `check`. attrs does the same for lsprotocol's ~570 classes (about half
of importing `lsprotocol.types`, the largest cost of a server start), cattrs for the
converters of each message type. Each calls `compile`/`exec` through its module's globals;
`install` puts a cached one there that returns the code object compiled from the same
text, file name, mode and flags on an earlier start, and compiles (and keeps) what it has
not seen. What runs is what those libraries generate, unchanged: only the compilation is
remembered, as Python's own `.pyc` files remember a module's.

A store is one marshal file per generator and Python version, under the user's cache folder
(`VLLM_CONFIG_LSP_CACHE`, else `$XDG_CACHE_HOME`/`~/.cache` + `vllm-config-lsp`), written by
`save` (atomically, after the work a user waits for; not when Python writes no bytecode:
`-B`, `PYTHONDONTWRITEBYTECODE`). A missing, stale or damaged store only means compiling.
"""

from __future__ import annotations
import __future__

import contextlib
import marshal
import os
import sys
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

#: A store is rewritten from this process's entries alone once it holds more than this
#: (entries of generators' older versions, of classes no longer defined).
MAX_ENTRIES = 8000


class _Store:
    """The code objects of one generator, by (mode, file name, text)."""

    def __init__(self, name: str, flags: int) -> None:
        self.name = name
        self.flags = flags
        self.codes: dict[tuple[str, str, str], CodeType] = {}
        self.used: set[tuple[str, str, str]] = set()
        self.added = False
        self.path = cache_dir() / f"generated-code-{sys.implementation.cache_tag}-{name}.marshal"
        with contextlib.suppress(Exception):
            stored = marshal.loads(self.path.read_bytes())
            if isinstance(stored, dict):
                for key, code in stored.items():
                    if isinstance(key, tuple) and isinstance(code, CodeType):
                        self.codes[key] = code

    def compiled(self, source: str, filename: str, mode: str) -> CodeType:
        key = (mode, filename, source)
        self.used.add(key)
        code = self.codes.get(key)
        if code is None:
            code = compile(source, filename, mode, self.flags, dont_inherit=True)
            self.codes[key] = code
            self.added = True
        return code

    def save(self) -> None:
        if not self.added:
            return
        self.added = False
        if len(self.codes) > MAX_ENTRIES:
            self.codes = {key: self.codes[key] for key in self.used if key in self.codes}
        with contextlib.suppress(OSError, ValueError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}")
            try:
                temporary.write_bytes(marshal.dumps(self.codes))
                os.replace(temporary, self.path)
            finally:
                with contextlib.suppress(OSError):
                    temporary.unlink()


_stores: dict[str, _Store] = {}


def cache_dir() -> Path:
    named = os.environ.get("VLLM_CONFIG_LSP_CACHE")
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "vllm-config-lsp"


def _store(name: str, flags: int) -> _Store | None:
    if name in _stores:
        return None  # installed already
    store = _stores[name] = _Store(name, flags)
    return store


def install_dataclasses() -> None:
    """`dataclasses` `exec`s the text of each generated method (no `__future__` flags)."""
    import dataclasses

    store = _store("dataclasses", 0)
    if store is None:
        return
    run = exec

    def cached_exec(source: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(source, str) and not kwargs:
            source = store.compiled(source, "<string>", "exec")
        return run(source, *args, **kwargs)

    dataclasses.exec = cached_exec  # type: ignore[attr-defined]


def install_attrs() -> None:
    """attrs and cattrs `compile(text, name, "exec")` (both under `from __future__ import
    annotations`); call before importing lsprotocol. Missing libraries are left alone."""
    try:
        import attr
        import attr._make
    except Exception:
        return
    store = _store(f"attrs{attr.__version__}", __future__.annotations.compiler_flag)
    if store is None:
        return
    modules: list[ModuleType] = [attr._make]
    with contextlib.suppress(Exception):
        import cattrs.gen

        modules.append(cattrs.gen)

    def cached_compile(source: Any, filename: Any, mode: Any, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs or not all(isinstance(x, str) for x in (source, filename, mode)):
            return compile(source, filename, mode, *args, **kwargs)
        return store.compiled(source, filename, mode)

    for module in modules:
        module.compile = cached_compile  # type: ignore[attr-defined]


def save() -> None:
    """Keep what this process compiled that the stores lacked (nothing when nothing new)."""
    if sys.dont_write_bytecode:
        return
    for store in _stores.values():
        store.save()
