"""Which files are vLLM configs, and reading them safely.

A directory walk must not lint every YAML file of a repository (Helm charts, workflows…):
only files the language server would check too are picked (named like vLLM configs, marked
with a `# vllm-config` comment, or whose keys are vLLM flags: `association`; hosts that
start vLLM and name it; a Triton `model.json` of engine arguments). Named files are always
checked. Reading never raises, and nothing is skipped in silence: a folder that cannot be
listed, an entry that cannot be read (a link loop or a dangling link, a FIFO, no
permission), binary and undecodable files are reported, as a named file that cannot be
read is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from vllm_config_lsp.sources.association import DETECTION_BYTES, YAML_SUFFIXES, classify
from vllm_config_lsp.sources.hosts import KEYED_HOSTS, host_of, named_like_a_host
from vllm_config_lsp.sources.safe_read import is_dir, read_capped, walk

SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache"}
#: What is read of a file to check: the engine checks up to 2,000,000 characters (and says
#: so of a longer file), which UTF-8 writes in at most four bytes each.
MAX_CONFIG_BYTES = 8_000_000


@dataclass
class ReadResult:
    text: str | None
    error: str | None = None
    #: The bytes read, which a rewrite compares with the file before replacing it.
    data: bytes = b""
    #: Why a walk passed over a file it could not decide on ("not read: …", said with -v):
    #: not an error, as a file that is no vLLM file is none.
    passed_over: str | None = None


def _cannot_read(error: OSError) -> ReadResult:
    return ReadResult(None, f"cannot read: {error.strerror or error}")


def read_config(path: Path) -> ReadResult:
    try:
        data = read_capped(path, MAX_CONFIG_BYTES)
    except OSError as error:
        return _cannot_read(error)
    if b"\x00" in data[:8192]:
        return ReadResult(None, "binary file (contains NUL bytes); not a YAML config")
    try:
        text = data.decode("utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8")
    except UnicodeDecodeError as error:
        return ReadResult(None, f"not UTF-8 text (byte {error.start}): vLLM reads configs as UTF-8")
    return ReadResult(text, data=data)


#: Words a file that starts vLLM holds: vLLM's name, or Ray Serve LLM's module (a Serve
#: config's `import_path: ray.serve.llm:build_pd_openai_app` runs vLLM without naming it).
NAMES_OF_VLLM = ("vllm", "ray.serve.llm")


def looks_like_config(path: Path, head: str, flag_names: frozenset[str]) -> bool:
    """A document that starts vLLM (a script, manifest, recipe… that names vLLM), or the
    language server's association rules for `--config` files with default settings (name,
    marker comment, content), so `check DIR` picks exactly the files an editor would check.
    `head` is the file's first DETECTION_BYTES."""
    host = host_of(path.as_posix(), head, flag_names=flag_names)
    if host is not None:
        return host in KEYED_HOSTS or any(name in head.lower() for name in NAMES_OF_VLLM)
    if path.suffix.lower() not in YAML_SUFFIXES:
        return False
    return classify(path.as_posix(), head, flag_names=flag_names) is not None


def discover(
    paths: list[Path],
    flag_names: frozenset[str],
    *,
    exclude: Callable[[Path], bool] | None = None,
    include: Callable[[Path], bool] | None = None,
) -> Iterator[tuple[Path, ReadResult]]:
    """Each file to check with what reading it gave: named files as given, directories
    walked in sorted order for stable output, with every folder and entry of the walk that
    could not be read (its ReadResult says why). In a walk, `exclude` leaves out files and
    folders, `include` takes in files besides the recognised ones (project settings)."""
    for path in paths:
        if not is_dir(path):
            yield path, read_config(path)
            continue
        unlisted: list[OSError] = []
        entries: list[Path] = []
        for root, dirs, files in walk(path, onerror=unlisted.append):
            dirs[:] = [
                name
                for name in dirs
                if name not in SKIP_DIRS and not (exclude and exclude(Path(root, name)))
            ]
            entries.extend(
                Path(root, name) for name in files if not (exclude and exclude(Path(root, name)))
            )
        for error in unlisted:
            yield Path(error.filename), _cannot_read(error)
        for entry in sorted(entries):
            picked = pick(entry, flag_names, include)
            if picked is not None:
                yield entry, picked


def pick(
    entry: Path, flag_names: frozenset[str], include: Callable[[Path], bool] | None = None
) -> ReadResult | None:
    """What a directory walk reads of `entry`: the file when it is one to check (or why it
    cannot be read), None when it is not one. Its first DETECTION_BYTES decide most files;
    one they do not pick whose name lets it be a host is decided on its whole text (a
    `model.json` larger than that is no JSON in its head), within MAX_CONFIG_BYTES: a larger
    one, or a binary one, is passed over with the reason (`ReadResult.passed_over`)."""
    try:
        head = read_capped(entry, DETECTION_BYTES, head=True)
    except OSError as error:
        return _cannot_read(error)
    text = head.decode("utf-8", errors="replace")  # a character cut at its end replaced
    if (include and include(entry)) or looks_like_config(entry, text, flag_names):
        return read_config(entry)
    if len(head) < DETECTION_BYTES or not named_like_a_host(entry.as_posix()):
        return None  # the whole file was read, or no host has such a name
    whole = read_config(entry)
    if whole.text is None:
        reason = (whole.error or "").removeprefix("cannot read: ")
        return ReadResult(
            None,
            passed_over=f"not read: {reason}, and its first {DETECTION_BYTES:,} bytes do not "
            "make it a vLLM file",
        )
    return whole if looks_like_config(entry, whole.text, flag_names) else None
