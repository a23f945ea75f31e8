"""A kustomize patch whose container sets only `args:`: what it runs is in the base.

A strategic-merge patch (`patches: - path: p.yaml`, `patchesStrategicMerge: [p.yaml]` of
the `kustomization.yaml` beside it) merges into the base's resource of the same kind and
name, and a container's `args` list replaces the base container's (a list of scalars is
replaced, not merged), while its `command` and `image` stay the base's. So the argv vLLM
receives is the base container's `command` (or its image's entrypoint) followed by the
patch's `args`:

* the base on disk (`resources:`/`bases:` files, and the folders that hold a
  kustomization, read with `safe_read`, a few levels deep) gives the container of the
  patch's kind, name and container name: its `command` words have no text in the patch,
  so they are generated words (`invocation.Generated`) that report on the patch
  container's name; without a command, its image's entrypoint (the image table) runs;
* each kustomization of the chain leaves its containers as kustomize does: its resources,
  then its `components:` (which act on what it has so far), then its strategic-merge
  patches (a `command` or `image` a patch sets replaces the one below: llm-d's guides set
  `command: ["vllm", "serve"]` in a base's patch over a resource's `command: []`), then its
  `images:` (matched by name, tag aside); a patch container that sets a `command` but no
  `image` gets the base's image (the release it names);
* a base that is not on disk (a remote one) gives nothing but what the kustomization's
  `images:` says: one vLLM image there, and one container in the patch, runs the args as
  `vllm serve` arguments (of several, which one runs it is not said).

kubectl's kustomize (sigs.k8s.io/kustomize api/internal/builtins/PatchTransformer.go,
PatchStrategicMergeTransformer) applies the merge; nothing here runs it.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, replace
from pathlib import Path

from yaml.nodes import MappingNode, Node, ScalarNode

from vllm_config_lsp.sources import shell
from vllm_config_lsp.sources.invocation import Generated, Invocation, Word, generated_word
from vllm_config_lsp.sources.operators.reader import Reader
from vllm_config_lsp.sources.safe_read import is_dir, is_file, read_text
from vllm_config_lsp.sources.yaml_hosts import (
    Frame,
    distinct,
    documents,
    get,
    items,
    mask_templates,
    node_span,
    text_of,
    walk,
)

__all__ = ["through_bases"]

_NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
#: Bounds on what is read of the bases: an editor checks the patch on every keystroke.
_MAX_BYTES = 1_000_000
_MAX_FILES = 64
_MAX_DEPTH = 4


@dataclass(frozen=True)
class _Base:
    """A base container: its command and image, as the base writes them."""

    command: tuple[str, ...] | None
    image: str | None
    file: str


@dataclass(frozen=True)
class _Patched:
    """An args-only container of the patch: where its resource and name are, its args."""

    kind: str
    name: str
    container: str
    anchor: tuple[int, int]
    args: list[Word]


def through_bases(text: str, path: Path, found: list[Invocation]) -> list[Invocation]:
    """The starts of the patch document `text` at `path`, its args-only containers read
    through the base the kustomization beside it names (`found`: what the Kubernetes
    reader found in the text alone, replaced where the base says more)."""
    kustomization = _kustomization(path.parent)
    if kustomization is None or not _patches(kustomization, path.name):
        return found
    patched, imageless = _patched(text)
    if not patched and not imageless:
        return found
    bases = _bases(path.parent, kustomization)
    images = _images(kustomization)
    out = [_with_image(invocation, imageless, bases) for invocation in found]
    for container in patched:
        base = bases.get((container.kind, container.name, container.container))
        if base is None and len(patched) > 1:
            continue  # which of them runs the vLLM image `images:` sets is not said
        made = _start(container, base, images)
        if made is None:
            continue
        out = [inv for inv in out if inv.start != container.args[0].start]
        out.append(made)
    return sorted(out, key=lambda invocation: invocation.start)


def _with_image(
    invocation: Invocation, imageless: list[tuple[_Key, tuple[int, int]]], bases: dict[_Key, _Base]
) -> Invocation:
    """A start of a patch container that sets its `command` but not its `image`, with the
    image the base gives it (the release it names)."""
    if invocation.image is not None:
        return invocation
    for key, (start, end) in imageless:
        base = bases.get(key)
        if start <= invocation.start < end and base is not None and base.image:
            return replace(invocation, image=base.image)
    return invocation


def _start(container: _Patched, base: _Base | None, images: dict[str, str]) -> Invocation | None:
    """The patch's args after the base's command, or after the entrypoint of the image the
    base (or, for a base not on disk, the kustomization's `images:`) runs."""
    args = container.args
    if base is not None:
        image = images.get(base.image or "", base.image)
        if base.command:
            origin = Generated(f"the base {base.file}", *container.anchor)
            command = [
                generated_word(word, index, origin) for index, word in enumerate(base.command)
            ]
            found = shell.container_invocations(
                image, args, source="kubernetes", entrypoint=command
            )
        else:
            found = shell.container_invocations(
                image, args, source="kubernetes", anchor=container.anchor
            )
    else:
        vllm = [image for image in images.values() if _is_vllm_image(image)]
        if len(vllm) != 1:
            return None
        found = shell.container_invocations(
            vllm[0], args, source="kubernetes", anchor=container.anchor
        )
    if not found:
        return None
    invocation = found[0]
    written = [word for word in invocation.args if word.generated is None]
    first = written[0] if written else args[0]
    return replace(
        invocation,
        start=first.start,
        end=first.end,
        insert_at=(written[-1] if written else args[-1]).end,
    )


def _is_vllm_image(image: str) -> bool:
    """An image whose entrypoint is `vllm serve` (the image table's vLLM images)."""
    found = shell.container_invocations(image, [], source="kubernetes", anchor=(0, 0))
    return bool(found) and found[0].entrypoint == "serve"


# -- the kustomization -----------------------------------------------------------------


def _kustomization(folder: Path) -> Node | None:
    for name in _NAMES:
        if is_file(folder / name):
            text = read_text(folder / name, _MAX_BYTES)
            roots = documents(text) if text is not None else []
            return roots[0] if roots and isinstance(roots[0], MappingNode) else None
    return None


def _patches(kustomization: Node, name: str) -> bool:
    """Whether the kustomization applies the file `name` beside it as a patch."""
    paths: list[str] = []
    for item in items(get(kustomization, "patches")):
        path = text_of(get(item, "path")) if isinstance(item, MappingNode) else None
        if path:
            paths.append(path)
    paths.extend(text_of(item) or "" for item in items(get(kustomization, "patchesStrategicMerge")))
    return any(posixpath.normpath(path) == name for path in paths)


def _images(kustomization: Node) -> dict[str, str]:
    """`images:` overrides: an image name → what runs instead (`newName:newTag`)."""
    out: dict[str, str] = {}
    for item in items(get(kustomization, "images")):
        name = text_of(get(item, "name"))
        if not name:
            continue
        new = text_of(get(item, "newName")) or name
        tag = text_of(get(item, "newTag"))
        digest = text_of(get(item, "digest"))
        out[name] = f"{new}@{digest}" if digest else f"{new}:{tag}" if tag else new
    return out


@dataclass
class _Budget:
    """What is left to read of the bases (`_MAX_FILES`)."""

    files: int = _MAX_FILES


_Key = tuple[str, str, str]


def _bases(folder: Path, kustomization: Node) -> dict[_Key, _Base]:
    """Every container of the resources the kustomization builds on that are on disk, by
    kind, resource name and container name (the first of a name wins), as each
    kustomization of the chain leaves it: its strategic-merge patches' `command` and
    `image`, and its `images:` (its components' too), applied over its resources."""
    return _build(folder, folder, kustomization, 0, _Budget(), {})


def _build(
    root: Path, here: Path, node: Node, depth: int, budget: _Budget, given: dict[_Key, _Base]
) -> dict[_Key, _Base]:
    """What the kustomization at `here` makes of `given` (a component's parent's
    containers) and of its own resources, in kustomize's order: resources, components,
    then its patches and `images:`."""
    out = dict(given)
    for key in ("resources", "bases", "components"):
        for entry in _local(node, key):
            target = here / entry
            inner = None
            if is_dir(target) and depth < _MAX_DEPTH and budget.files > 0:
                budget.files -= 1  # a kustomization read counts as a file
                inner = _kustomization(target)
            if inner is not None and key == "components":
                out = _build(root, target, inner, depth + 1, budget, out)
            elif inner is not None:
                for found, base in _build(root, target, inner, depth + 1, budget, {}).items():
                    out.setdefault(found, base)
            elif key != "components" and is_file(target):
                for found, base in _read(root, target, budget):
                    out.setdefault(found, base)
    for target, selects in _patch_files(here, node):
        for found, patch in _read(root, target, budget):
            aimed = (selects[0] or found[0], selects[1] or found[1], found[2])
            under = out.get(aimed)
            if under is not None:
                out[aimed] = _Base(
                    patch.command or under.command,
                    patch.image or under.image,
                    patch.file if patch.command else under.file,
                )
    images = _images(node)
    if images:
        out = {
            found: replace(base, image=_renamed(base.image, images)) for found, base in out.items()
        }
    return out


def _local(node: Node, key: str) -> list[str]:
    """The entries of a list of paths that are on disk (not a remote base)."""
    entries = [text_of(item) or "" for item in items(get(node, key))]
    return [
        entry
        for entry in entries
        if entry and "://" not in entry and not entry.startswith(("github.com/", "git@"))
    ]


def _patch_files(here: Path, node: Node) -> list[tuple[Path, tuple[str, str]]]:
    """The strategic-merge patch files the kustomization applies, with the kind and name
    a `target:` selects ("" where the patch's own `kind`/`metadata.name` say)."""
    out: list[tuple[Path, tuple[str, str]]] = []
    for item in items(get(node, "patches")):
        path = text_of(get(item, "path")) if isinstance(item, MappingNode) else None
        if path and is_file(here / path):
            target = get(item, "target")
            selects = (text_of(get(target, "kind")) or "", text_of(get(target, "name")) or "")
            out.append((here / path, selects))
    for entry in _local(node, "patchesStrategicMerge"):
        if is_file(here / entry):
            out.append((here / entry, ("", "")))
    return out


def _read(root: Path, target: Path, budget: _Budget) -> list[tuple[_Key, _Base]]:
    if budget.files <= 0:
        return []
    budget.files -= 1
    text = read_text(target, _MAX_BYTES)
    if text is None:
        return []
    return _containers(text, posixpath.relpath(target.as_posix(), root.as_posix()))


def _renamed(image: str | None, images: dict[str, str]) -> str | None:
    """The image `images:` makes of `image`: kustomize matches the name, tag or digest
    aside (`REPLACE_IMAGE`, `vllm/vllm-openai:v0.9.0`)."""
    if image is None:
        return None
    if image in images:
        return images[image]
    name = image.split("@", 1)[0]
    if ":" in name.rsplit("/", 1)[-1]:
        name = name.rsplit(":", 1)[0]
    return images.get(name, image)


def _containers(text: str, file: str) -> list[tuple[_Key, _Base]]:
    out: list[tuple[_Key, _Base]] = []
    for root in documents(text):
        kind = text_of(get(root, "kind")) or ""
        name = text_of(get(get(root, "metadata"), "name")) or ""
        for node, _parent in walk(root):
            for container in distinct(items(get(node, "containers"))):
                cname = text_of(get(container, "name")) or ""
                command = get(container, "command")
                words = (
                    tuple(text_of(item) or "" for item in items(command))
                    if command is not None and not isinstance(command, ScalarNode)
                    else None
                )
                base = _Base(words or None, text_of(get(container, "image")), file)
                out.append(((kind, name, cname), base))
    return out


# -- the patch -------------------------------------------------------------------------


def _patched(text: str) -> tuple[list[_Patched], list[tuple[_Key, tuple[int, int]]]]:
    """The patch's containers that set `args` without `image` or `command`; and those that
    set a `command` but no `image` (their key and span)."""
    masked = mask_templates(text, False)
    frame = Frame(masked.text)
    reader = Reader(masked, "kubernetes", False)
    out: list[_Patched] = []
    imageless: list[tuple[_Key, tuple[int, int]]] = []
    for root in documents(masked.text):
        kind = text_of(get(root, "kind")) or ""
        name = text_of(get(get(root, "metadata"), "name")) or ""
        for node, _parent in walk(root):
            for container in distinct(items(get(node, "containers"))):
                if not isinstance(container, MappingNode):
                    continue
                if get(container, "image") is not None:
                    continue
                if get(container, "command") is not None:
                    cname = text_of(get(container, "name")) or ""
                    imageless.append(((kind, name, cname), node_span(frame, container)))
                    continue
                args = [masked.restore_word(w) for w in reader.argv(frame, get(container, "args"))]
                name_node = get(container, "name")
                if not args or name_node is None:
                    continue
                anchor = node_span(frame, name_node)
                out.append(_Patched(kind, name, text_of(name_node) or "", anchor, args))
    return out, imageless
