"""vLLM starts in Kubernetes manifests, operator resources and Helm files.

A container's argv is its `command` followed by its `args`, one list item per argv element
(Kubernetes does no word splitting, only `$(VAR)` substitution and `$$` escapes); without a
`command` the image's own entrypoint runs, which for the vLLM images is `vllm serve`. So the
container, wherever it is nested (Deployment, LeaderWorkerSet leader and worker, KServe,
AIBrix, Ray, `containers:` in any custom resource), is what this module reads: it finds the
start in the exec-form argv, or in the script of `sh -c`, which the shell source reads (as
it reads the `*.sh` files of a ConfigMap, which containers mount and run: a container whose
argv runs such a file, `command: [/scripts/startup.sh]` over the ConfigMap's volume, puts
its args where the script writes `"$@"`, `_run_scripts`). A container that
only overrides `args` with neither image nor command (a kustomize patch, an llm-d role) is
taken for vLLM when it is named `vllm`; sidecars (routers, EPP schedulers, TEI) are not.

Operators that build the argv themselves are read the way their code builds it, one module
each in `sources.operators` (KubeAI, KServe's InferenceService and LLMInferenceService,
KAITO, Ray Serve LLM, AIBrix batch, production-stack, LeaderWorkerSet), each naming the
operator source it transcribes; this module reads the Pods and containers and calls the
operators' hooks where they apply.

Templates are not YAML before rendering: Helm's `{{ }}` actions and a Terraform template's
`${}`/`%{}` are masked length for length first (`yaml_hosts.mask_templates`), so every
branch of an `if` stays in the file and a `{{ .Values.x }}` inside an item becomes an
unresolved part of its word.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from yaml.nodes import MappingNode, Node, ScalarNode

from vllm_config_lsp.document.text_memo import text_memo
from vllm_config_lsp.sources import gpu_claims, kustomize, shell
from vllm_config_lsp.sources.invocation import EnvVar, GpuClaim, Invocation, Word
from vllm_config_lsp.sources.operators import embedded_keys, operators
from vllm_config_lsp.sources.operators.reader import VALUE, Reader, args_start, k8s_expand
from vllm_config_lsp.sources.yaml_hosts import (
    Frame,
    Masked,
    distinct,
    documents,
    get,
    is_terraform_template,
    items,
    mask_templates,
    node_span,
    pairs,
    relocate,
    scalar_frame,
    scalar_word,
    stream_documents,
    text_of,
    walk,
)

__all__ = ["find_invocations"]


def find_invocations(
    text: str, path: Path | None = None, *, expand_env: bool = False
) -> list[Invocation]:
    """Every vLLM start in a Kubernetes/Helm YAML text (any number of documents, broken or
    templated YAML included), in document order, with document offsets. `expand_env`
    replaces `$(VAR)` in command and args by the container's `env` value, as the kubelet
    does: a manifest's words keep it as written (what the file says, and how its ground
    truth lists it), while a chart's values, read through the templates
    (`sources.helm_chart`), often reach vLLM only through such a variable. `path`, where
    the document is on disk, lets a kustomize patch be read through its base
    (`sources.kustomize`)."""
    try:
        found = _find(text, expand_env)
    except RecursionError:  # a MemoryError is reported (engine), never "no start"
        return []
    # a kustomize patch on disk: what its args-only containers run is in the base
    return found if path is None else kustomize.through_bases(text, path, found)


def _find(text: str, expand_env: bool) -> list[Invocation]:
    """Each document of the stream on its own (a keystroke re-reads one document of a
    2,000-line chart, not the chart); the file is Helm when any document is."""
    terraform = is_terraform_template(text)
    found: list[Invocation] = []
    scripts: list[_Script] = []
    runs: list[_ScriptRun] = []
    helm = False
    for offset, document in stream_documents(text):
        read = _find_in_document(document, terraform, expand_env)
        helm = helm or read.helm
        found.extend(invocation.moved(offset) for invocation in read.found)
        scripts.extend(script.moved(offset) for script in read.scripts)
        runs.extend(run.moved(offset) for run in read.runs)
    if runs:
        found = _run_scripts(found, scripts, runs)
    if helm:
        found = [
            replace(invocation, source="helm") if invocation.source == "kubernetes" else invocation
            for invocation in found
        ]
    return found


@dataclass(frozen=True)
class _Script:
    """A shell script a ConfigMap holds (`data: {startup.sh: |…}`): the ConfigMap's name as
    written (template text included: the same text renders the same), the key, the span of
    its scalar, and whether its positional parameters are the script's arguments wherever
    it starts vLLM (no function, `shift` or `set` that would make them something else)."""

    configmap: str
    key: str
    start: int
    end: int
    plain: bool

    def moved(self, by: int) -> _Script:
        return replace(self, start=self.start + by, end=self.end + by)


@dataclass(frozen=True)
class _ScriptRun:
    """A container that runs a file a ConfigMap mounts (`command: [/scripts/startup.sh]`
    with the ConfigMap's volume at `/scripts`): the ConfigMap and key the path is, the words
    from the path on (`$0`, then `$1`… as written), the container's GPUs and environment."""

    configmap: str
    key: str
    parameters: tuple[Word, ...]
    gpus: tuple[GpuClaim, ...]
    environ: tuple[EnvVar, ...]
    environ_open: bool

    def moved(self, by: int) -> _ScriptRun:
        return replace(
            self,
            parameters=tuple(word.moved(by) for word in self.parameters),
            gpus=tuple(claim.mapped(lambda at: at + by, lambda at: at + by) for claim in self.gpus),
            environ=tuple(variable.moved(by) for variable in self.environ),
        )


@dataclass(frozen=True)
class _Read:
    """What one document holds: its starts, its ConfigMap scripts, the containers that run
    a mounted file (matched to the scripts across the file's documents, `_run_scripts`)."""

    found: tuple[Invocation, ...]
    helm: bool
    scripts: tuple[_Script, ...]
    runs: tuple[_ScriptRun, ...]


def _run_scripts(
    found: list[Invocation], scripts: list[_Script], runs: list[_ScriptRun]
) -> list[Invocation]:
    """A script's starts as the containers that run it make them: its `"$@"` (`$1`…) are
    the container's args, each word where it is written (`shell.with_parameters`). Only
    what is certain: one ConfigMap script of that name and key in the file, plain
    positional parameters; a script no container runs so stays as it reads alone."""
    named: dict[tuple[str, str], list[_Script]] = {}
    for script in scripts:
        named.setdefault((script.configmap, script.key), []).append(script)
    certain = sorted(
        (listed[0] for listed in named.values() if len(listed) == 1 and listed[0].plain),
        key=lambda script: script.start,
    )
    # the starts each script holds, in one pass over both (scripts do not overlap)
    held: dict[tuple[str, str], list[int]] = {}
    heads = [script.start for script in certain]
    for at, invocation in enumerate(found):
        index = bisect_right(heads, invocation.start) - 1
        if index >= 0 and invocation.start < certain[index].end:
            script = certain[index]
            held.setdefault((script.configmap, script.key), []).append(at)
    made: dict[int, list[Invocation]] = {}
    for run in runs:
        for at in held.get((run.configmap, run.key), []):
            invocation = found[at]
            filled = shell.with_parameters(invocation, run.parameters)
            if filled is invocation:
                continue
            made.setdefault(at, []).append(
                replace(
                    filled,
                    gpus=run.gpus or filled.gpus,
                    environ=run.environ + filled.environ,
                    environ_open=filled.environ_open or run.environ_open,
                )
            )
    if not made:
        return found
    result: list[Invocation] = []
    for at, invocation in enumerate(found):
        result.extend(made.get(at, [invocation]))
    return result


_SHELLS = frozenset({"sh", "bash", "/bin/sh", "/bin/bash", "/usr/bin/bash", "/usr/bin/env"})


@text_memo
def _find_in_document(text: str, terraform: bool, expand_env: bool) -> _Read:
    """Mask templates, read the document, put template text back into the words; an
    invocation reached twice (an aliased container) is kept once. Cached by text: the
    documents a keystroke did not touch are found here."""
    masked = mask_templates(text, terraform)
    reader = _KubernetesReader(masked, "helm" if masked.helm else "kubernetes", expand_env)
    frame = Frame(masked.text)
    for root in documents(masked.text):
        reader.document(frame, root)
    unique: dict[tuple[int, tuple[int, ...]], Invocation] = {}
    for invocation in masked.restore(reader.found):
        key = (invocation.start, tuple(word.start for word in invocation.args))
        unique.setdefault(key, invocation)
    return _Read(
        tuple(sorted(unique.values(), key=lambda inv: inv.start)),
        masked.helm,
        tuple(reader.scripts),
        tuple(reader.runs),
    )


class _KubernetesReader(Reader):
    """The Pods, containers and ConfigMaps of one file, and the operators' resources."""

    def __init__(self, masked: Masked, source: str, expand_env: bool) -> None:
        super().__init__(masked, source, expand_env)
        self.scripts: list[_Script] = []
        self.runs: list[_ScriptRun] = []

    # -- documents -------------------------------------------------------------------------

    def document(self, frame: Frame, root: Node, *, embedded: bool = False) -> None:
        """One YAML document: its containers (not in documents embedded in strings, which
        nothing runs as pods) and the operator resources it holds at any depth."""
        kind = text_of(get(root, "kind")) or ""
        if not embedded:
            self.root = root
        before = len(self.found)
        self._document(frame, root, kind, embedded)
        for operator in operators():
            if operator.finish is not None:
                operator.finish(self, frame, root, kind, before)

    def _document(self, frame: Frame, root: Node, kind: str, embedded: bool) -> None:
        if not embedded:
            for operator in operators():
                if operator.document is not None:
                    operator.document(self, frame, root, kind)
            if kind == "ConfigMap":
                self.embedded(frame, get(root, "data"), self._name(frame, get(root, "metadata")))
        hooks = [
            operator.node
            for operator in operators()
            if operator.node is not None and (operator.in_embedded or not embedded)
        ]
        for node, parent in walk(root):
            if not isinstance(node, MappingNode):
                continue
            if not embedded:
                for key in ("containers", "initContainers"):
                    for container in distinct(items(get(node, key))):
                        if isinstance(container, MappingNode):
                            self.container(frame, node, container, kind)
                for key in sorted(embedded_keys()):
                    value = get(node, key)
                    if value is not None:
                        self.embedded_value(frame, key, value)
            for hook in hooks:
                hook(self, frame, node, parent)

    def _name(self, frame: Frame, mapping: Node | None) -> str | None:
        """A mapping's `name` (`metadata`, a `configMap` volume) as written, template text
        put back."""
        node = get(mapping, "name")
        word = scalar_word(frame, node, VALUE) if node is not None else None
        return self.masked.restore_word(word).text if word is not None else None

    def embedded(self, frame: Frame, data: Node | None, configmap: str | None = None) -> None:
        """A ConfigMap's files: YAML that operators read (KAITO's `inference_config.yaml`,
        Ray LLM model files, AIBrix batch templates), and shell scripts that containers
        mount and run (`command: [bash, /scripts/serve.sh]`), read by the shell source;
        each script is remembered for the containers that run it (`_ScriptRun`)."""
        for key, value in pairs(data):
            name = text_of(key)
            if name is None:
                continue
            script = text_of(value) or ""
            if name.endswith((".sh", ".bash")) or script.startswith("#!/bin/"):
                inner = scalar_frame(frame, value)
                if inner is not None:
                    for found in shell.find_invocations(inner.text, source=self.source):
                        self.found.append(relocate(found, inner))
                    if configmap is not None:
                        start, end = node_span(frame, value)
                        plain = shell.plain_parameters(inner.text)
                        self.scripts.append(_Script(configmap, name, start, end, plain))
                continue
            self.embedded_value(frame, name, value)

    def embedded_value(self, frame: Frame, name: str, value: Node) -> None:
        """A YAML document inside a string: composed from the loaded string, its nodes'
        offsets pass through the string's source map (quotes, block indentation)."""
        if not isinstance(value, ScalarNode) or "\n" not in value.value:
            return
        inner = scalar_frame(frame, value)
        if inner is None:
            return
        for root in documents(inner.text):
            for operator in operators():
                if operator.embedded_file is not None:
                    operator.embedded_file(self, inner, name, root)
            self.document(inner, root, embedded=True)

    # -- containers ------------------------------------------------------------------------

    def container(self, frame: Frame, pod: MappingNode, container: MappingNode, kind: str) -> None:
        """One container's starts, with the GPUs it gets (its limits, its pod's node
        selectors)."""
        before = len(self.found)
        self._container_starts(frame, container, kind)
        if len(self.found) == before:
            self._script_run(frame, pod, container)
            return
        claims = gpu_claims.kubernetes(frame, pod, container)
        environ = self._environ(frame, container)
        is_open = get(container, "envFrom") is not None
        for at in range(before, len(self.found)):
            found = self.found[at]
            group = tuple(
                claim
                for operator in operators()
                if operator.claims is not None
                for claim in operator.claims(self, frame, pod, container, claims, found)
            )
            self.found[at] = replace(
                found,
                gpus=claims + group if claims or group else found.gpus,
                environ=environ + found.environ,
                environ_open=found.environ_open or is_open,
            )

    def _container_starts(self, frame: Frame, container: MappingNode, kind: str) -> None:
        """One container: `command` + `args` as Kubernetes concatenates them; without a
        command, the image's entrypoint with `args` appended."""
        image_node = get(container, "image")
        image_word = scalar_word(frame, image_node, VALUE) if image_node is not None else None
        image = self.masked.restore_word(image_word).text if image_word is not None else None
        command_node = get(container, "command")
        env = self.env(frame, container) if self.expand_env else None
        command = self.argv(frame, command_node, env)
        args = self.argv(frame, get(container, "args"), env)
        if command_node is not None and command:
            found = shell.container_invocations(image, args, source=self.source, entrypoint=command)
            self.found.extend(found)
            return
        name = text_of(get(container, "name"))
        for operator in operators():
            if operator.container is not None and operator.container(
                self, frame, container, kind, args, image
            ):
                return
        if image is not None and image_node is not None:
            anchor = node_span(frame, image_node)
            found = shell.container_invocations(image, args, source=self.source, anchor=anchor)
        else:  # args alone may be the command of an image without an entrypoint
            found = shell.argv_invocations(args, source=self.source) if args else []
        if found:
            self.found.extend(found)
        elif image_node is None and name == "vllm" and args:
            # A container that only overrides args (a kustomize patch, an llm-d
            # ModelService role): its image and command live in the base it patches.
            self.found.append(args_start(self.source, args, "serve"))

    def _script_run(self, frame: Frame, pod: MappingNode, container: MappingNode) -> None:
        """A container whose argv runs a file (`[/scripts/startup.sh, …]`, `[bash, FILE,
        …]`) that one ConfigMap volume of its pod puts there: remembered for the file's
        ConfigMaps (`_run_scripts`)."""
        env = self.env(frame, container) if self.expand_env else None
        argv = [
            self.masked.restore_word(word)
            for key in ("command", "args")
            for word in self.argv(frame, get(container, key), env)
        ]
        at = 1 if argv and argv[0].text in _SHELLS and argv[0].text != "/usr/bin/env" else 0
        if len(argv) <= at or not argv[at].resolved or not argv[at].text.startswith("/"):
            return
        mounted = _mounted(pod, container, argv[at].text, lambda node: self._name(frame, node))
        if mounted is None:
            return
        self.runs.append(
            _ScriptRun(
                mounted[0],
                mounted[1],
                tuple(argv[at:]),
                gpu_claims.kubernetes(frame, pod, container),
                self._environ(frame, container),
                get(container, "envFrom") is not None,
            )
        )

    def _environ(self, frame: Frame, container: MappingNode) -> tuple[EnvVar, ...]:
        """The container's `env` list as settings: a `value` with `$(VAR)` expanded from the
        entries above it (the kubelet's order), unresolved otherwise; a `valueFrom` (a secret,
        a field) is a setting whose value is not known here."""
        found: list[EnvVar] = []
        known: dict[str, Word] = {}
        for entry in items(get(container, "env")):
            name_node = get(entry, "name")
            name = scalar_word(frame, name_node, VALUE) if name_node is not None else None
            if name is None or not name.text:
                continue
            value_node = get(entry, "value")
            value = scalar_word(frame, value_node, VALUE) if value_node is not None else None
            if value is not None:
                value = self.masked.restore_word(k8s_expand(value, known))
                known[name.text] = value
            elif get(entry, "valueFrom") is None:
                value = Word("", name.end, name.end, (), ())  # no value: the empty string
            found.append(EnvVar(self.masked.restore_word(name), value, "env"))
        return tuple(found)


def _mounted(
    pod: MappingNode,
    container: MappingNode,
    path: str,
    name_of: Callable[[Node | None], str | None],
) -> tuple[str, str] | None:
    """The ConfigMap name (as written) and key that `path` is in the container, when that is
    certain: exactly one mount covers the path, its volume is one `configMap` volume of the
    pod, and the key is the file there (`items` renaming keys, a `subPath` mount of one
    file). Anything else (two mounts over the path, a projected volume) is not followed.
    `name_of` reads a mapping's `name` with its template text put back."""
    covering = [
        mount
        for mount in items(get(container, "volumeMounts"))
        if (mount_path := (text_of(get(mount, "mountPath")) or "").rstrip("/"))
        and (path == mount_path or path.startswith(mount_path + "/"))
    ]
    if len(covering) != 1:
        return None
    mount = covering[0]
    volume_name = text_of(get(mount, "name"))
    volumes = [v for v in items(get(pod, "volumes")) if text_of(get(v, "name")) == volume_name]
    if len(volumes) != 1:
        return None
    config_map = get(volumes[0], "configMap")
    configmap = name_of(config_map)
    if configmap is None:
        return None
    mount_path = (text_of(get(mount, "mountPath")) or "").rstrip("/")
    sub_path = text_of(get(mount, "subPath"))
    if sub_path is not None:
        if path != mount_path:
            return None
        inside = sub_path
    elif path == mount_path:
        return None
    else:
        inside = path[len(mount_path) + 1 :]
    listed = get(config_map, "items")
    if listed is None:
        return (configmap, inside) if "/" not in inside else None
    keys = [
        text_of(get(item, "key")) for item in items(listed) if text_of(get(item, "path")) == inside
    ]
    return (configmap, keys[0]) if len(keys) == 1 and keys[0] is not None else None
