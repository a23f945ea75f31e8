"""Obtain a vLLM wheel and read its Python sources without installing or importing it."""

from __future__ import annotations

import ast
import subprocess
import sys
import zipfile
from pathlib import Path

DEFAULT_CACHE = Path("~/.cache/vllm-config-lsp/wheels").expanduser()


def find_cached_wheel(version: str, cache_dir: Path) -> Path | None:
    """Return a previously downloaded wheel for ``version`` (any platform tag), if any."""
    if not cache_dir.is_dir():
        return None
    hits = sorted(cache_dir.glob(f"vllm-{version}-*.whl"))
    return hits[0] if hits else None


def fetch_wheel(version: str, cache_dir: Path = DEFAULT_CACHE) -> Path:
    """Download ``vllm==version`` (no dependencies) into ``cache_dir`` unless cached.

    ``pip download`` is used rather than an HTTP client so that the user's pip
    configuration (index URL, proxy, certificates) applies.
    """
    cached = find_cached_wheel(version, cache_dir)
    if cached is not None:
        return cached
    cache_dir.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
    cmd += [f"vllm=={version}", "-d", str(cache_dir)]
    subprocess.run(cmd, check=True)
    wheel = find_cached_wheel(version, cache_dir)
    if wheel is None:
        raise FileNotFoundError(f"pip did not produce a vllm-{version} wheel in {cache_dir}")
    return wheel


class WheelSource:
    """Read-only view of the ``vllm/`` package inside a wheel, keyed by module name."""

    def __init__(self, wheel: Path) -> None:
        self.wheel = wheel
        with zipfile.ZipFile(wheel) as zf:
            self._files = {
                n: zf.read(n).decode("utf-8")
                for n in zf.namelist()
                if n.startswith("vllm/") and n.endswith(".py")
            }
        self._trees: dict[str, ast.Module] = {}

    def module_file(self, module: str) -> str | None:
        """Path inside the wheel of ``module`` (``a.b`` -> ``a/b.py`` or ``a/b/__init__.py``)."""
        base = module.replace(".", "/")
        for cand in (base + ".py", base + "/__init__.py"):
            if cand in self._files:
                return cand
        return None

    def is_package(self, module: str) -> bool:
        return (module.replace(".", "/") + "/__init__.py") in self._files

    def text(self, path: str) -> str:
        return self._files[path]

    def paths(self) -> list[str]:
        """Every ``.py`` file of the package, as paths inside the wheel."""
        return sorted(self._files)

    def tree(self, module: str) -> ast.Module | None:
        """Parsed AST of ``module`` (cached), or None if the wheel does not contain it."""
        if module in self._trees:
            return self._trees[module]
        path = self.module_file(module)
        if path is None:
            return None
        tree = ast.parse(self._files[path], filename=path)
        self._trees[module] = tree
        return tree
