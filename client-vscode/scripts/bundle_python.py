"""Fill `bundled/libs` with the language server and its dependencies, for the .vsix.

The pattern of Microsoft's vscode-python-tools-extension-template: the extension puts
`bundled/libs` first on `sys.path` (bundled/tool/launcher.py), so a user needs only a
Python >= 3.10, nothing installed into it.

* the server: a wheel built from this repository (it carries `schemas/` as package data);
* its dependencies: `bundled-requirements.txt`, exact versions with hashes, pure-Python
  wheels for Python 3.10+, and PyYAML's cp310 manylinux wheel minus its C accelerator
  (PyYAML then runs its pure-Python code, on every platform);
* nothing platform-specific, no `__pycache__`, no `bin/`, no absolute paths
  (`direct_url.json`), so the same inputs give the same files.

Network: pip fetches from the package index (PyPI) unless `--wheelhouse DIR` is given,
which makes the build fully offline (`pip download` the pinned wheels and setuptools into
DIR once).

usage: python scripts/bundle_python.py [--target bundled/libs] [--wheelhouse DIR]
       python scripts/bundle_python.py --print-hashes   # after changing a pin
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLIENT = HERE.parent
REPO = CLIENT.parent
REQUIREMENTS = CLIENT / "bundled-requirements.txt"
#: Where the dependency wheels are chosen for: the oldest supported Python, any platform
#: for the pure wheels, manylinux for PyYAML (whose extension module is then removed).
TARGET_FLAGS = [
    "--only-binary=:all:",
    "--python-version=3.10",
    "--implementation=cp",
    "--abi=cp310",
    "--abi=none",
    "--platform=manylinux_2_17_x86_64",
    "--platform=any",
]
BINARY_SUFFIXES = (".so", ".pyd", ".dylib", ".dll")


def pip(*args: str, wheelhouse: Path | None) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    if wheelhouse is not None:
        command += ["--no-index", f"--find-links={wheelhouse}"]
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True)


def clean_source(dest: Path) -> Path:
    """The files the wheel is built from, copied: an in-tree build would reuse a stale
    `build/` (setuptools keeps deleted modules there) and leave one behind."""
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, dest / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    shutil.copytree(REPO / "server", dest / "server", ignore=ignore)
    shutil.copytree(REPO / "schemas", dest / "schemas", ignore=ignore)
    return dest


def strip(target: Path) -> list[str]:
    """Removes what is platform-specific or machine-specific; returns what was removed."""
    removed: list[str] = []
    for path in sorted(target.rglob("*"), reverse=True):
        relative = path.relative_to(target).as_posix()
        if not path.exists():
            continue
        if path.is_dir() and path.name == "__pycache__":
            shutil.rmtree(path)
        elif path.is_file() and (
            path.name.endswith(BINARY_SUFFIXES) or path.name in ("direct_url.json", "REQUESTED")
        ):
            path.unlink()
            removed.append(relative)
    for name in ("bin", "_yaml"):  # console scripts; PyYAML's shim for the removed module
        if (target / name).exists():
            shutil.rmtree(target / name)
            removed.append(name + "/")
    for record in target.glob("*.dist-info/RECORD"):  # keep RECORD true to what is there
        lines = record.read_text(encoding="utf-8").splitlines()
        kept = [line for line in lines if (target / line.rsplit(",", 2)[0]).exists()]
        record.write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    return removed


def verify(target: Path) -> str:
    """The bundle imports in a clean interpreter and runs the seed example's check."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "import yaml, pygls, lsprotocol, cattrs, vllm_config_lsp.server;"
        "from vllm_config_lsp.engine import lint;"
        "assert not yaml.__with_libyaml__, 'the C accelerator is still there';"
        "assert vllm_config_lsp.__file__.startswith(sys.argv[1]), vllm_config_lsp.__file__;"
        "codes = [f.code for f in lint('compilation-config:\\n  cudagraph_mm_encoder: true\\n"
        "  encoder_cudagraph_token_budgets: [0, 2048]\\n', version='0.33.0').findings];"
        "assert 'VC301' in codes, codes;"
        "print('bundle ok: vllm_config_lsp', vllm_config_lsp.__version__,"
        "      'pyyaml', yaml.__version__)"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-B", "-c", code, str(target)],
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


def print_hashes(wheelhouse: Path | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        names = [
            line.split()[0]
            for line in REQUIREMENTS.read_text().splitlines()
            if line.strip() and not line.startswith("#")
        ]
        pip("download", "--no-deps", "--dest", tmp, *TARGET_FLAGS, *names, wheelhouse=wheelhouse)
        for wheel in sorted(Path(tmp).iterdir()):
            digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
            print(f"{wheel.name}  --hash=sha256:{digest}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", type=Path, default=CLIENT / "bundled" / "libs")
    parser.add_argument("--wheelhouse", type=Path, default=None, help="offline: wheels here only")
    parser.add_argument("--print-hashes", action="store_true")
    args = parser.parse_args()
    if args.print_hashes:
        print_hashes(args.wheelhouse)
        return 0
    target: Path = args.target.resolve()
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    env_note = os.environ.get("PIP_CONSTRAINT")
    if env_note:
        print(f"note: PIP_CONSTRAINT={env_note} is in effect", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        source = clean_source(Path(tmp) / "source")
        pip("wheel", "--no-deps", "--wheel-dir", tmp, str(source), wheelhouse=args.wheelhouse)
        [wheel] = Path(tmp).glob("vllm_config_lsp-*.whl")
        pip(
            "install",
            "--no-deps",
            "--no-compile",
            "--target",
            str(target),
            str(wheel),
            wheelhouse=args.wheelhouse,
        )
    pip(
        "install",
        "--no-deps",
        "--no-compile",
        "--require-hashes",
        "--target",
        str(target),
        *TARGET_FLAGS,
        "-r",
        str(REQUIREMENTS),
        wheelhouse=args.wheelhouse,
    )
    for relative in strip(target):
        print(f"removed {relative}")
    print(verify(target))
    return 0


if __name__ == "__main__":
    sys.exit(main())
