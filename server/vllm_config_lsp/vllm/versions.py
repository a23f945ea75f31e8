"""Which vLLM release a config file is checked against, and why.

A checker that knows one release is wrong for most users: a file written for 0.10 uses flags
0.33 removed. The release is chosen from the most specific evidence first:

1. the file's own `# vllm-config: version=X` comment;
2. the user's setting (`vllmConfig.vllmVersion` in the editor, `--vllm-version` on the CLI);
3. the vLLM installed in the workspace's Python environment (`.venv`/`venv` next to the file
   or in a parent folder, else `$VIRTUAL_ENV`), read from its `dist-info/METADATA`: vLLM is
   never imported (it would pull in torch and CUDA);
4. a `vllm/vllm-openai:vX.Y.Z` image tag in a Dockerfile, compose file or Kubernetes
   manifest in the file's folder (how most configs are deployed);
5. otherwise the newest generated release.

Any version spelling (`v0.10.1`, `0.8.5.post1`, `0.11.0rc1`, `0.10`) maps to the generated
release of the same minor, since one catalogue per minor is generated (the newest patch).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path

from vllm_config_lsp.document.markers import marker_options
from vllm_config_lsp.sources.invocation import Invocation
from vllm_config_lsp.sources.safe_read import is_dir, is_file, read_bytes
from vllm_config_lsp.vllm.catalogue import (
    DEFAULT_VERSION,
    minor_of,
    nearest_release,
)

#: `0.10.2`, `v0.11.0rc1`, `0.8.5.post1`, `0.10.1.1`, `0.10` (group 1: major.minor).
IMAGE_RE = re.compile(r"\bvllm/vllm-openai[\w.-]*:(v?\d+\.\d+[\w.]*)")
VENV_NAMES = (".venv", "venv")
#: Folders searched upwards for a virtual environment (a workspace is rarely deeper).
MAX_PARENTS = 8
#: Deployment files read for an image tag: at most this many, each at most this big.
MAX_DEPLOY_FILES = 40
MAX_DEPLOY_BYTES = 256 * 1024
DEPLOY_SUFFIXES = (".yaml", ".yml", ".json", ".dockerfile")
DEPLOY_PREFIXES = ("dockerfile", "containerfile")
#: LSP glob patterns of every file `choose_version` reads: an editor watching them can tell
#: when a choice is stale (`depends_on`).
WATCHED_GLOBS = (
    "**/*.{" + ",".join(suffix.lstrip(".") for suffix in DEPLOY_SUFFIXES) + "}",
    "**/{Dockerfile,dockerfile,Containerfile,containerfile}*",  # DEPLOY_PREFIXES as written
    "**/vllm-*.dist-info/METADATA",
)
#: Why the newest release, when nothing names one (a reason starts with it).
NEWEST_REASON = "newest known release (nothing names another)"
#: What is read of a METADATA file: its header comes first (`Version:` is the third line).
METADATA_HEAD_BYTES = 65536


def choose_version(
    text: str,
    *,
    setting: str | None = None,
    file_path: str | Path | None = None,
    setting_label: str = "the vllmVersion setting",
    folders: DeploymentFolders | None = None,
    marker: Mapping[str, str] | None = None,
) -> tuple[str, str]:
    """(release to check against, why), following the order in the module docstring.

    `setting` is the user's configured version (None or "" for none); `file_path` locates
    the workspace (None for an unsaved buffer: the filesystem is not consulted). A run
    that checks many files passes one `folders` for all of them. `marker`: the text's
    marker options when the caller has parsed them already.
    """
    ignored: list[str] = []
    marker_version = (marker_options(text) if marker is None else marker).get("version")
    if marker_version:
        release = nearest_release(marker_version)
        if release:
            return release, _why(release, marker_version, "the `# vllm-config: version=` comment")
        ignored.append(f"`version={marker_version}` in the file names no known release")
    if setting and setting.strip().lower() not in ("", "auto"):
        release = nearest_release(setting)
        if release:
            return release, _why(release, setting, setting_label)
        ignored.append(f"{setting_label} {setting!r} names no known release")
    if file_path is not None:
        path = _resolved(Path(file_path))
        found = installed_vllm(path.parent)
        if found is not None:
            version, where = found
            release = nearest_release(version, clamp=True)
            if release:
                return release, _why(release, version, f"vLLM installed in {where}")
        image = (folders or DeploymentFolders()).image_tag(path.parent, exclude=path)
        if image is not None:
            version, where = image
            release = nearest_release(version, clamp=True)
            if release:
                # the last resort, named as such: another file's image may run another start
                source = f"the image tag in {where}, a file beside it (nothing here names one)"
                return release, _why(release, version, source)
    reason = NEWEST_REASON
    if ignored:
        reason += "; " + "; ".join(ignored)
    return DEFAULT_VERSION, reason


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a loop of symbolic links: the folder as written
        return Path(os.path.abspath(path))


def release_stated(text: str, setting: str | None, marker: Mapping[str, str] | None = None) -> bool:
    """Whether the user named the release (the `--vllm-version` option or the setting, the
    marker comment): image tags and pins beside a command line do not override it."""
    return bool(setting) or "version" in (marker_options(text) if marker is None else marker)


def invocation_release(
    invocation: Invocation, fallback: str, fallback_why: str = "", *, stated: bool = False
) -> tuple[str, str]:
    """The release one command line runs, and why: its image's tag
    (`vllm/vllm-openai:v0.8.5`), a `pip install vllm==X` beside it, else `fallback` (the
    document's choice, for `fallback_why`), which is also the answer when it was `stated`."""
    if stated:
        return fallback, fallback_why
    said = _image_version(invocation.image)
    if said is not None:
        release = nearest_release(said, clamp=True)
        if release is not None:
            return release, _why(release, said, f"the image {invocation.image}")
    said = invocation.pinned_version
    if said is not None:
        release = nearest_release(said, clamp=True)
        if release is not None:
            return release, _why(release, said, "a `pip install` of vLLM in the same script")
    return fallback, fallback_why


def _image_version(image: str | None) -> str | None:
    match = IMAGE_RE.search(image) if image else None
    return match.group(1) if match else None


def _why(release: str, said: str, source: str) -> str:
    said = said.strip()
    if said.lstrip("v") == release:
        return f"vLLM {release}, from {source}"
    return f"vLLM {release} (for {said}), from {source}"


# -- installed vLLM -----------------------------------------------------------------------
def installed_vllm(start: Path) -> tuple[str, str] | None:
    """(version, environment path) of vLLM in the nearest virtual environment."""
    for env in _environments(start):
        version = _dist_info_version(env)
        if version is not None:
            return version, str(env)
    return None


def _environments(start: Path) -> Iterator[Path]:
    folder = start
    for _ in range(MAX_PARENTS):
        for name in VENV_NAMES:
            candidate = folder / name
            if is_dir(candidate):
                yield candidate
        if folder.parent == folder:
            break
        folder = folder.parent
    active = os.environ.get("VIRTUAL_ENV")
    if active:
        yield Path(active)


def _dist_info_version(env: Path) -> str | None:
    """vLLM's version in the environment `env`. A `check DIR` asks for every file of a
    folder, and a site-packages holds tens of thousands of entries: its listing is kept
    until the folder changes (installing or removing a distribution changes its mtime)."""
    stamps = []
    for folder in (*sorted(env.glob("lib/python*/site-packages")), env / "Lib" / "site-packages"):
        try:
            stamps.append((str(folder), folder.stat().st_mtime_ns))
        except (OSError, ValueError):
            continue
    return _site_packages_version(tuple(stamps))


@lru_cache(maxsize=64)
def _site_packages_version(stamps: tuple[tuple[str, int], ...]) -> str | None:
    """`_dist_info_version` of site-packages folders as of their mtimes (the cache key)."""
    for folder, _mtime in stamps:
        for dist in sorted(Path(folder).glob("vllm-*.dist-info")):
            version = _metadata_version(dist / "METADATA")
            if version is None:  # the folder name carries it too: vllm-0.10.2.dist-info
                match = re.fullmatch(r"vllm-(.+)\.dist-info", dist.name)
                version = match.group(1) if match else None
            if version is not None:
                return version
    return None


def _metadata_version(path: Path) -> str | None:
    head = read_bytes(path, METADATA_HEAD_BYTES, head=True)
    for line in (head or b"").decode("utf-8", errors="replace").splitlines():
        if line.startswith("Version:"):
            return line.split(":", 1)[1].strip()
        if not line.strip():  # end of the header block
            break
    return None


# -- deployment files -----------------------------------------------------------------------
class DeploymentFolders:
    """The deployment files of folders, each folder listed and each file read once.

    `check DIR` asks about the same folder for every file in it: listing (and sorting) it
    anew each time made a folder of n files cost n² (10,000 files took over 10 minutes).
    One instance serves one run: the CLI keeps one per command; the server asks with a fresh
    one per file (it keeps each file's choice until a file the choice depends on changes).
    """

    def __init__(self) -> None:
        self._listed: dict[Path, list[Path]] = {}
        self._tags: dict[Path, str | None] = {}

    def image_tag(self, folder: Path, *, exclude: Path | None = None) -> tuple[str, str] | None:
        """(version, file name) of the first `vllm/vllm-openai:vX.Y` tag naming a release in
        a Dockerfile, compose file or manifest of `folder` (tags like `latest` name none)."""
        for path in self._deployment_files(folder, exclude):
            if path not in self._tags:
                self._tags[path] = _file_tag(path)
            tag = self._tags[path]
            if tag is not None:
                return tag, path.name
        return None

    def _deployment_files(self, folder: Path, exclude: Path | None) -> list[Path]:
        listed = self._listed.get(folder)
        if listed is None:
            listed = self._listed[folder] = _list_deployment_files(folder)
        return [path for path in listed if path != exclude][:MAX_DEPLOY_FILES]


def _file_tag(path: Path) -> str | None:
    head = read_bytes(path, MAX_DEPLOY_BYTES, head=True)
    for line in (head or b"").decode("utf-8", errors="replace").splitlines():
        if line.lstrip().startswith("#"):
            continue  # a comment is no declaration (a corpus header, a note)
        for match in IMAGE_RE.finditer(line):
            if minor_of(match.group(1)) is not None:
                return match.group(1)
    return None


def _list_deployment_files(folder: Path) -> list[Path]:
    """The first deployment files of `folder` in name order: one more than are read, so
    that leaving out the file being checked still leaves `MAX_DEPLOY_FILES`."""
    try:
        children = sorted(folder.iterdir())
    except OSError:
        return []
    out = []
    for child in children:
        if _is_deployment_file(child.name) and is_file(child):
            out.append(child)
        if len(out) > MAX_DEPLOY_FILES:
            break
    return out


def _is_deployment_file(name: str) -> bool:
    name = name.lower()
    return name.startswith(DEPLOY_PREFIXES) or name.endswith(DEPLOY_SUFFIXES)


def depends_on(changed: Path, file_path: Path) -> bool:
    """Whether `choose_version(…, file_path=file_path)` may answer otherwise once `changed`
    was created, edited or deleted: a deployment file beside it (not itself: it is never
    read for its own choice), or a vLLM install's METADATA (any environment: they are rare
    and found upwards or through `$VIRTUAL_ENV`)."""
    if changed.name == "METADATA" and _is_vllm_dist_info(changed.parent.name):
        return True
    return (
        _is_deployment_file(changed.name)
        and changed.parent.resolve() == file_path.parent.resolve()
        and changed.resolve() != file_path.resolve()
    )


def _is_vllm_dist_info(name: str) -> bool:
    return name.startswith("vllm-") and name.endswith(".dist-info")
