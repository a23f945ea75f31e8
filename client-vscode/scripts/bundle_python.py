"""Fill `bundled/libs` with the language server and its dependencies, for one .vsix per platform.

The pattern of Microsoft's vscode-python-tools-extension-template: the extension runs
`bundled/tool/launcher.py`, which puts `bundled/libs` first on `sys.path`, so a user needs
only a CPython >= 3.10, nothing installed into it. Some dependencies are native, so there
is one bundle per VS Code target (`vsce package --target`), as ruff's extension ships:

    bundled/libs/            the server (a wheel built from this repository, with
                             `schemas/`), the pure-Python wheels, and the wheels built for
                             the stable ABI (abi3: tree-sitter-bash's grammar), which load on
                             every CPython >= 3.10 of the platform
    bundled/libs/cp3XX/      one folder per CPython minor (PYTHONS): the wheels that exist
                             only per interpreter version, tree-sitter and PyYAML with its
                             libyaml accelerator; the launcher puts the running
                             interpreter's folder first

Every wheel is pinned with its hashes in `bundled-requirements.txt` (the hashes of every
platform's and every Python's wheel of a pin). Nothing machine-specific goes in: no
`__pycache__`, no `bin/`, no `direct_url.json`, so the same inputs give the same files.

Each bundle is checked: the native modules are there for every PYTHONS entry, are of the
target's kind (`.so` for linux and darwin, `.pyd` for win32) and of its CPU architecture
(read from the ELF / Mach-O / PE header). The bundle of the machine's own platform is also
run: the bundled launcher checks the seed example with the running interpreter (and with
each `--verify-python`), and tree-sitter, tree-sitter-bash and libyaml are imported from the
interpreter's folder.

Network: pip fetches from the package index (PyPI) unless `--wheelhouse DIR` is given, which
makes the build fully offline (fill DIR once with `--download DIR`).

usage: python scripts/bundle_python.py [--platform linux-x64] [--target bundled/libs]
       python scripts/bundle_python.py --stage DIR --platform all   # DIR/<platform>/libs
       python scripts/bundle_python.py --print-hashes    # after changing a pin
       python scripts/bundle_python.py --download DIR    # a wheelhouse for --wheelhouse
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
CLIENT = HERE.parent
REPO = CLIENT.parent
REQUIREMENTS = CLIENT / "bundled-requirements.txt"
LAUNCHER = CLIENT / "bundled" / "tool" / "launcher.py"

#: The CPython minors the bundle carries native modules for (the server needs >= 3.10).
PYTHONS = ("3.10", "3.11", "3.12", "3.13", "3.14")
#: Pins whose wheels exist per CPython version only (no abi3 wheel): into libs/cp3XX/.
PER_PYTHON = frozenset({"pyyaml", "tree-sitter"})
#: Modules that must be native in each libs/cp3XX/ (PyYAML's libyaml binding, tree-sitter).
NATIVE_PER_PYTHON = ("yaml/_yaml", "tree_sitter/_binding")
#: Stable-ABI native modules in libs/, by the pin that brings them.
NATIVE_ABI3 = {
    "tree-sitter-bash": "tree_sitter_bash/_binding",
    "tree-sitter-containerfile": "tree_sitter_containerfile/_binding",
}
BINARY_SUFFIXES = (".so", ".pyd", ".dylib", ".dll")


@dataclass(frozen=True)
class Platform:
    """A VS Code target and how pip and the interpreter name its wheels and modules."""

    pip_platform: str  # oldest supported tag; pip also takes the older ones it implies
    kind: str  # extension-module file type
    arch: str  # as binary_arch() reads it from the module's header
    host: tuple[str, str]  # (platform.system(), normalised platform.machine())

    def module_suffix(self, python: str) -> str:
        """The file suffix of a version-specific extension module, e.g. `.cpython-310-darwin.so`."""
        nodot = python.replace(".", "")
        if self.kind == ".pyd":
            return f".cp{nodot}-win_amd64.pyd"
        if self.host[0] == "Darwin":
            return f".cpython-{nodot}-darwin.so"
        return f".cpython-{nodot}-{self.arch}-linux-gnu.so"

    @property
    def abi3_suffix(self) -> str:
        return ".pyd" if self.kind == ".pyd" else ".abi3.so"


#: glibc 2.17 (manylinux2014), macOS 11 (pip also accepts the 10.x wheels), Windows x64.
PLATFORMS: dict[str, Platform] = {
    "linux-x64": Platform("manylinux_2_17_x86_64", ".so", "x86_64", ("Linux", "x64")),
    "linux-arm64": Platform("manylinux_2_17_aarch64", ".so", "aarch64", ("Linux", "arm64")),
    "darwin-x64": Platform("macosx_11_0_x86_64", ".so", "x86_64", ("Darwin", "x64")),
    "darwin-arm64": Platform("macosx_11_0_arm64", ".so", "arm64", ("Darwin", "arm64")),
    "win32-x64": Platform("win_amd64", ".pyd", "x86_64", ("Windows", "x64")),
}


def host_platform() -> str | None:
    machine = platform.machine().lower()
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64"}.get(machine, machine)
    for name, target in PLATFORMS.items():
        if target.host == (platform.system(), machine):
            return name
    return None


def wheel_flags(target: Platform, python: str) -> list[str]:
    nodot = python.replace(".", "")
    return [
        "--only-binary=:all:",
        f"--python-version={python}",
        "--implementation=cp",
        f"--abi=cp{nodot}",
        "--abi=abi3",
        "--abi=none",
        f"--platform={target.pip_platform}",
        "--platform=any",
    ]


# -- bundled-requirements.txt ---------------------------------------------------------------


@dataclass(frozen=True)
class Pin:
    name: str  # normalised
    line: str  # the whole requirement, continuation lines joined

    @property
    def spec(self) -> str:
        return self.line.split()[0]


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def read_pins() -> list[Pin]:
    text = REQUIREMENTS.read_text(encoding="utf-8")
    logical = re.sub(r"\\\r?\n", " ", text)
    pins = []
    for line in logical.splitlines():
        line = line.split(" #", 1)[0].strip()
        if line and not line.startswith("#"):
            pins.append(Pin(normalise(re.split(r"[=<>!~ ;\[]", line, maxsplit=1)[0]), line))
    unknown = PER_PYTHON - {pin.name for pin in pins}
    if unknown:
        raise SystemExit(f"{REQUIREMENTS.name} has no pin for {sorted(unknown)}")
    return pins


def write_requirements(pins: list[Pin], path: Path) -> Path:
    path.write_text("".join(pin.line + "\n" for pin in pins), encoding="utf-8")
    return path


# -- pip ---------------------------------------------------------------------------------------


def pip(*args: str, wheelhouse: Path | None, quiet: bool = False) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    if wheelhouse is not None:
        command += ["--no-index", f"--find-links={wheelhouse}"]
    if quiet:
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            sys.stdout.write(f"+ {' '.join(command)}\n{done.stdout}{done.stderr}")
            raise subprocess.CalledProcessError(done.returncode, command)
        return
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True)


def jobs(tasks: list[Callable[[], None]]) -> None:
    """Runs independent pip invocations side by side (each into its own folder)."""
    with ThreadPoolExecutor(max_workers=8) as pool:
        for future in [pool.submit(task) for task in tasks]:
            future.result()


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


def build_server(tmp: Path, wheelhouse: Path | None) -> Path:
    """The server's wheel, built and installed once into a folder to copy into each bundle."""
    source = clean_source(tmp / "source")
    pip("wheel", "--no-deps", "--wheel-dir", str(tmp), str(source), wheelhouse=wheelhouse)
    [wheel] = tmp.glob("vllm_config_lsp-*.whl")
    installed = tmp / "installed"
    target = ["--target", str(installed)]
    pip("install", "--no-deps", "--no-compile", *target, str(wheel), wheelhouse=None, quiet=True)
    return installed


def plan(
    libs: Path, name: str, server: Path, pins: list[Pin], tmp: Path, wheelhouse: Path | None
) -> list[Callable[[], None]]:
    """libs/ for one platform gets the installed server; returns the pip installs (independent
    of each other) that add the common pins and libs/cp3XX/ per Python."""
    target = PLATFORMS[name]
    if libs.exists():
        shutil.rmtree(libs)
    shutil.copytree(server, libs)
    common = write_requirements([p for p in pins if p.name not in PER_PYTHON], tmp / "common.txt")
    native = write_requirements([p for p in pins if p.name in PER_PYTHON], tmp / "native.txt")
    install = ["install", "--no-deps", "--no-compile"]

    def pins_into(dest: Path, python: str, requirements: Path) -> Callable[[], None]:
        flags = wheel_flags(target, python)
        return lambda: pip(
            *install,
            "--require-hashes",
            "--target",
            str(dest),
            *flags,
            "-r",
            str(requirements),
            wheelhouse=wheelhouse,
            quiet=True,
        )

    return [
        pins_into(libs, PYTHONS[0], common),
        *(pins_into(libs / cp_dir(python), python, native) for python in PYTHONS),
    ]


def cp_dir(python: str) -> str:
    return "cp" + python.replace(".", "")


def strip(target: Path) -> list[str]:
    """Removes what is machine-specific or not needed at run time; returns what was removed."""
    removed: list[str] = []
    for path in sorted(target.rglob("*"), reverse=True):
        relative = path.relative_to(target).as_posix()
        if not path.exists():
            continue
        if path.is_dir() and path.name == "__pycache__":
            shutil.rmtree(path)
        elif path.is_file() and path.name in ("direct_url.json", "REQUESTED"):
            path.unlink()
            if path.name != "REQUESTED":  # every pin has one; not worth a line each
                removed.append(relative)
    for folder in [target, *sorted(target.glob("cp3*"))]:
        if (folder / "bin").exists():  # console scripts
            shutil.rmtree(folder / "bin")
            removed.append((folder / "bin").relative_to(target).as_posix() + "/")
    for record in target.rglob("*.dist-info/RECORD"):  # keep RECORD true to what is there
        site = record.parent.parent
        lines = record.read_text(encoding="utf-8").splitlines()
        kept = [line for line in lines if (site / line.rsplit(",", 2)[0]).exists()]
        record.write_text("".join(line + "\n" for line in kept), encoding="utf-8")
    return removed


# -- checks ------------------------------------------------------------------------------------

_ELF_MACHINES = {62: "x86_64", 183: "aarch64"}
_MACHO_CPUS = {0x01000007: "x86_64", 0x0100000C: "arm64"}
_PE_MACHINES = {0x8664: "x86_64", 0xAA64: "arm64"}


def binary_arch(path: Path) -> set[str]:
    """CPU architectures an ELF, Mach-O (thin or fat) or PE file is built for."""
    data = path.read_bytes()
    if data[:4] == b"\x7fELF":
        order = "<" if data[5] == 1 else ">"
        (machine,) = struct.unpack_from(order + "H", data, 18)
        return {_ELF_MACHINES.get(machine, f"elf-{machine}")}
    if data[:4] == b"\xcf\xfa\xed\xfe":  # 64-bit Mach-O, little-endian
        (cpu,) = struct.unpack_from("<I", data, 4)
        return {_MACHO_CPUS.get(cpu, f"macho-{cpu:#x}")}
    if data[:4] == b"\xca\xfe\xba\xbe":  # fat (universal2)
        (count,) = struct.unpack_from(">I", data, 4)
        cpus = [struct.unpack_from(">I", data, 8 + 20 * i)[0] for i in range(count)]
        return {_MACHO_CPUS.get(cpu, f"macho-{cpu:#x}") for cpu in cpus}
    if data[:2] == b"MZ":
        (offset,) = struct.unpack_from("<I", data, 0x3C)
        if data[offset : offset + 4] == b"PE\0\0":
            (machine,) = struct.unpack_from("<H", data, offset + 4)
            return {_PE_MACHINES.get(machine, f"pe-{machine:#x}")}
    return {"unknown"}


def check_layout(libs: Path, name: str) -> None:
    """Every native module the server needs is there, for every Python, of this platform."""
    target = PLATFORMS[name]
    problems: list[str] = []
    expected = [libs / (m + target.abi3_suffix) for m in NATIVE_ABI3.values()]
    for python in PYTHONS:
        folder = libs / cp_dir(python)
        expected += [folder / (m + target.module_suffix(python)) for m in NATIVE_PER_PYTHON]
    for path in expected:
        if not path.is_file():
            problems.append(f"missing {path.relative_to(libs)}")
        elif target.arch not in binary_arch(path):
            problems.append(f"{path.relative_to(libs)} is built for {binary_arch(path)}")
    for path in libs.rglob("*"):
        if path.is_file() and path.name.endswith(BINARY_SUFFIXES) and path not in expected:
            problems.append(f"unexpected binary {path.relative_to(libs)}")
    if not (libs / "vllm_config_lsp" / "__main__.py").is_file():
        problems.append("missing vllm_config_lsp/__main__.py")
    if problems:
        raise SystemExit(f"[{name}] bad bundle in {libs}:\n  " + "\n  ".join(problems))


#: Runs inside the bundle, on sys.path as the launcher sets it: the native modules load from
#: the interpreter's own cp3XX folder and work.
NATIVE_CHECK = """
import json, os, sys
import tree_sitter, tree_sitter_bash, tree_sitter_containerfile, yaml, markdown_it
libs = os.path.abspath(libs)
native = os.path.join(libs, "cp%d%d" % sys.version_info[:2])
for module in (tree_sitter, yaml):
    assert module.__file__.startswith(native + os.sep), module.__file__
for grammar in (tree_sitter_bash, tree_sitter_containerfile):
    assert grammar.__file__.startswith(libs + os.sep), grammar.__file__
assert yaml.__with_libyaml__, "PyYAML without libyaml"
assert yaml.load("a: [1, 2]", Loader=yaml.CSafeLoader) == {"a": [1, 2]}
parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
tree = parser.parse(b"exec vllm serve Qwen/Qwen3-8B --port 8000\\n")
assert tree.root_node.type == "program" and not tree.root_node.has_error, tree.root_node
parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_containerfile.language()))
tree = parser.parse(b'FROM vllm/vllm-openai\\nCMD ["--model", "x"]\\n')
assert not tree.root_node.has_error, tree.root_node
from importlib.metadata import version
print(json.dumps({"python": sys.version.split()[0], "pyyaml": yaml.__version__,
                  "tree-sitter": version("tree-sitter"),
                  "markdown-it-py": version("markdown-it-py")}))
"""

SEED = (
    "compilation-config:\n"
    "  cudagraph_mm_encoder: true\n"
    "  encoder_cudagraph_token_budgets: [0, 2048]\n"
)


def run_bundle(libs: Path, python: str, tmp: Path) -> str:
    """The bundled launcher, beside libs/ as in the .vsix, checks the seed example; then the
    native modules are imported the launcher's way."""
    tool = libs.parent / "tool"
    if not (tool / "launcher.py").exists():
        tool.mkdir(exist_ok=True)
        shutil.copy2(LAUNCHER, tool / "launcher.py")
    seed = tmp / "seed.vllm.yaml"
    seed.write_text(SEED, encoding="utf-8")
    # -S: not even a venv's site-packages, only the bundle (and the standard library)
    launcher = [python, "-I", "-S", "-B", str(tool / "launcher.py")]
    done = subprocess.run(
        [*launcher, "check", "--format", "json", "--vllm-version", "0.33.0", str(seed)],
        capture_output=True,
        text=True,
    )
    try:
        codes = [finding["code"] for finding in json.loads(done.stdout)]
    except ValueError:
        codes = []
    if "VC301" not in codes:
        raise SystemExit(
            f"the bundled server under {python} did not report VC301 (exit {done.returncode}):\n"
            f"{done.stdout}{done.stderr}"
        )
    version = subprocess.run([*launcher, "--version"], capture_output=True, text=True)
    if version.returncode != 0:
        raise SystemExit(f"launcher --version under {python}: {version.stdout}{version.stderr}")
    # the launcher's own sys.path (its search_path()), then the imports
    code = (
        "import runpy, sys; launcher, libs = sys.argv[1:3];"
        "sys.path[0:0] = runpy.run_path(launcher, run_name='bundle')['search_path'](libs);"
        + NATIVE_CHECK
    )
    native = subprocess.run(
        [python, "-I", "-S", "-B", "-c", code, str(tool / "launcher.py"), str(libs)],
        capture_output=True,
        text=True,
    )
    if native.returncode != 0:
        raise SystemExit(f"native modules under {python}:\n{native.stdout}{native.stderr}")
    return f"{version.stdout.strip()}, VC301 found; {native.stdout.strip()}"


# -- modes -------------------------------------------------------------------------------------


def download(dest: Path, pins: list[Pin], wheelhouse: Path | None, hashes: bool) -> None:
    """Every pinned wheel for every platform and Python, plus the server's build backend."""
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tasks = [(name, python) for name in PLATFORMS for python in PYTHONS]

        def one(name: str, python: str) -> None:
            folder = Path(tmp) / f"{name}-{python}"
            lines = [pin.line if hashes else pin.spec for pin in pins]
            requirements = Path(tmp) / f"{name}-{python}.txt"
            requirements.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
            extra = ["--require-hashes"] if hashes else []
            pip(
                "download",
                "--no-deps",
                *extra,
                "--dest",
                str(folder),
                *wheel_flags(PLATFORMS[name], python),
                "-r",
                str(requirements),
                wheelhouse=wheelhouse,
                quiet=True,
            )

        jobs([lambda task=task: one(*task) for task in tasks])
        for wheel in Path(tmp).glob("*/*.whl"):
            shutil.copy2(wheel, dest / wheel.name)
    if hashes:  # what `pip wheel` of the server needs offline
        pip("download", "--dest", str(dest), "setuptools>=68", "wheel", wheelhouse=wheelhouse)


def print_hashes(pins: list[Pin], wheelhouse: Path | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        download(Path(tmp), pins, wheelhouse, hashes=False)
        found: dict[str, list[tuple[str, str]]] = {}
        for wheel in sorted(Path(tmp).glob("*.whl")):
            name = normalise(wheel.name.split("-")[0])
            digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
            found.setdefault(name, []).append((wheel.name, digest))
    for pin in pins:
        wheels = found.get(pin.name, [])
        print(f"# {pin.spec}: {len(wheels)} wheel(s)", file=sys.stderr)
        for wheel_name, _ in wheels:
            print(f"#   {wheel_name}", file=sys.stderr)
        hashes = sorted({digest for _, digest in wheels})
        print(" \\\n    ".join([pin.spec, *(f"--hash=sha256:{digest}" for digest in hashes)]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--platform",
        action="append",
        choices=[*PLATFORMS, "all"],
        help="VS Code target(s) (default: this machine's)",
    )
    parser.add_argument("--target", type=Path, default=CLIENT / "bundled" / "libs")
    parser.add_argument("--stage", type=Path, default=None, help="build DIR/<platform>/libs")
    parser.add_argument("--wheelhouse", type=Path, default=None, help="offline: wheels here only")
    parser.add_argument(
        "--verify-python",
        action="append",
        default=[],
        help="also run this machine's bundle with this interpreter (repeatable)",
    )
    parser.add_argument("--print-hashes", action="store_true")
    parser.add_argument("--download", type=Path, default=None, metavar="DIR")
    args = parser.parse_args()
    pins = read_pins()
    if args.print_hashes:
        print_hashes(pins, args.wheelhouse)
        return 0
    if args.download:
        download(args.download, pins, args.wheelhouse, hashes=True)
        print(f"{len(list(args.download.glob('*')))} files in {args.download}")
        return 0
    names = args.platform or [host_platform() or "linux-x64"]
    if "all" in names:
        names = list(PLATFORMS)
    names = list(dict.fromkeys(names))
    if args.stage is None and len(names) > 1:
        parser.error("several platforms need --stage DIR")
    host = host_platform()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        server = build_server(tmp / "server", args.wheelhouse)
        folders = {
            name: (args.stage / name / "libs" if args.stage else args.target).resolve()
            for name in names
        }
        tasks: list[Callable[[], None]] = []
        for name, libs in folders.items():
            (tmp / name).mkdir()
            tasks += plan(libs, name, server, pins, tmp / name, args.wheelhouse)
        print(f"installing {len(tasks)} sets of wheels for {', '.join(names)}", flush=True)
        jobs(tasks)
        for name, libs in folders.items():
            for relative in strip(libs):
                print(f"[{name}] removed {relative}")
            check_layout(libs, name)
            print(f"[{name}] layout ok: native modules for CPython {', '.join(PYTHONS)}")
            if name != host:
                continue
            own = f"{sys.version_info[0]}.{sys.version_info[1]}"
            if own not in PYTHONS:  # the bundle would (rightly) refuse this interpreter
                print(f"note: Python {own} has no bundled native modules; not run with it")
            pythons = [sys.executable] if own in PYTHONS else []
            for python in dict.fromkeys([*pythons, *args.verify_python]):
                print(f"[{name}] bundle ok with {python}: {run_bundle(libs, python, tmp / name)}")
        if host not in names:
            print(f"note: no bundle for this machine ({host}) was built, none was run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
