"""Starts the language server bundled in the VS Code extension.

The extension runs `PYTHON -I bundled/tool/launcher.py --stdio`: `-I` keeps the user's
PYTHONPATH and user site-packages out, and the bundle (filled by `scripts/bundle_python.py`
when the extension is packaged, one per platform) comes first on `sys.path`:

* `bundled/libs/cp3XX/` of the running CPython: tree-sitter and PyYAML (with libyaml), whose
  wheels are built per interpreter version;
* `bundled/libs/`: the server and the pure-Python and stable-ABI (abi3) dependencies.

So the server and its dependencies are the bundled ones whatever the interpreter has
installed. An interpreter the bundle has no `cp3XX/` folder for (a newer CPython, a
free-threaded build, PyPy) is refused with a message saying which ones work. Without
`bundled/libs` (a development checkout) the interpreter's installed packages are used.
The other arguments are the server's (`python -m vllm_config_lsp`: `--stdio`, `--version`, ...).
"""

import os
import sys

if sys.version_info < (3, 10):  # noqa: UP036 (this file must run on any Python 3)
    sys.stderr.write(
        "vllm-config-lsp needs Python 3.10 or newer; %s is %s\n"  # noqa: UP031
        % (sys.executable, sys.version.split()[0])
    )
    sys.exit(3)

from importlib.machinery import EXTENSION_SUFFIXES

LIBS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")
#: A module of each per-version folder that only this interpreter's build can load.
PROBE = os.path.join("tree_sitter", "_binding")


def search_path(libs):
    """What goes first on sys.path for the bundle in `libs`; exits when it has nothing for
    this interpreter."""
    native = os.path.join(libs, f"cp{sys.version_info[0]}{sys.version_info[1]}")
    if sys.implementation.name == "cpython" and any(
        os.path.isfile(os.path.join(native, PROBE) + suffix) for suffix in EXTENSION_SUFFIXES
    ):
        return [native, libs]
    minors = sorted(int(n[3:]) for n in os.listdir(libs) if n[:3] == "cp3" and n[3:].isdigit())
    sys.stderr.write(
        "vllm-config-lsp: this extension's native modules (tree-sitter, PyYAML) are built for "
        f"CPython {', '.join(f'3.{minor}' for minor in minors) or '(none)'} on this platform; "
        f"{sys.executable} is {sys.implementation.name} {sys.version.split()[0]} (extension "
        f"modules {EXTENSION_SUFFIXES[0]}). Set vllmConfig.interpreter to one of those.\n"
    )
    sys.exit(3)


def main():
    if os.path.isdir(LIBS):
        sys.path[0:0] = search_path(LIBS)
    import runpy

    # `python -m vllm_config_lsp`: the package's __main__ reads sys.argv[1:]
    runpy.run_module("vllm_config_lsp", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
