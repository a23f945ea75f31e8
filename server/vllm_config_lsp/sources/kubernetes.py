"""vLLM starts in Kubernetes manifests, operator resources and Helm files.

A container's argv is its `command` followed by its `args`, one list item per argv element
(Kubernetes does no word splitting, only `$(VAR)` substitution and `$$` escapes); without a
`command` the image's own entrypoint runs, which for the vLLM images is `vllm serve`. So the
container, wherever it is nested (Deployment, LeaderWorkerSet leader and worker, KServe,
AIBrix, Ray, `containers:` in any custom resource), is what this module reads: it finds the
start in the exec-form argv, or in the script of `sh -c`, which the shell source reads (as
it reads the `*.sh` files of a ConfigMap, which containers mount and run). A container that
only overrides `args` with neither image nor command (a kustomize patch, an llm-d role) is
taken for vLLM when it is named `vllm`; sidecars (routers, EPP schedulers, TEI) are not.

Operators that build the argv themselves are read the way their code builds it, and each
such builder below names the operator source it transcribes: KubeAI's `Model` (`spec.args`
after flags the controller generates), KAITO's `inference_config.yaml` (a YAML document
inside a ConfigMap string), Ray Serve's `engine_kwargs` (engine arguments, read by
`sources.engine_kwargs` as Triton's model.json is), AIBrix batch templates, the
production-stack `VLLMRuntime` and its Helm chart's `modelSpec`, KServe's LLMInferenceService
(`VLLM_ADDITIONAL_ARGS`) and InferenceService `predictor.model.args`. Flags an operator adds
with no text in the file are not invented: a word needs text to point at.

Templates are not YAML before rendering: Helm's `{{ }}` actions and a Terraform template's
`${}`/`%{}` are masked length for length first (`yaml_hosts.mask_templates`), so every
branch of an `if` stays in the file and a `{{ .Values.x }}` inside an item becomes an
unresolved part of its word.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode

from vllm_config_lsp.document.text_memo import text_memo
from vllm_config_lsp.sources import gpu_claims, node_groups, shell
from vllm_config_lsp.sources.engine_kwargs import engine_kwargs_words
from vllm_config_lsp.sources.invocation import EnvVar, GpuClaim, Invocation, ModelRef, Word
from vllm_config_lsp.sources.yaml_hosts import (
    Frame,
    Masked,
    distinct,
    documents,
    env_mapping,
    get,
    get_pair,
    go_value,
    is_terraform_template,
    items,
    key_word,
    mask_templates,
    node_span,
    pairs,
    relocate,
    relocate_word,
    scalar_frame,
    scalar_word,
    stream_documents,
    text_of,
    value_of,
    value_word,
    walk,
)

__all__ = ["find_invocations"]

_LIST = "yaml-list"
_VALUE = "yaml-value"
#: Keys whose string value is itself a YAML document an operator reads.
_EMBEDDED_YAML_KEYS = frozenset({"serveConfigV2", "serveConfig"})
#: The env var KServe's LLMInferenceService template expands into `vllm serve` (through
#: `eval`, so the shell's quoting rules apply to it).
_ADDITIONAL_ARGS = "VLLM_ADDITIONAL_ARGS"


def find_invocations(text: str, *, expand_env: bool = False) -> list[Invocation]:
    """Every vLLM start in a Kubernetes/Helm YAML text (any number of documents, broken or
    templated YAML included), in document order, with document offsets. `expand_env`
    replaces `$(VAR)` in command and args by the container's `env` value, as the kubelet
    does: a manifest's words keep it as written (what the file says, and how its ground
    truth lists it), while a chart's values, read through the templates
    (`sources.helm_chart`), often reach vLLM only through such a variable."""
    try:
        return _find(text, expand_env)
    except RecursionError:  # a MemoryError is reported (engine), never "no start"
        return []


def _find(text: str, expand_env: bool) -> list[Invocation]:
    """Each document of the stream on its own (a keystroke re-reads one document of a
    2,000-line chart, not the chart); the file is Helm when any document is."""
    terraform = is_terraform_template(text)
    found: list[Invocation] = []
    helm = False
    for offset, document in stream_documents(text):
        in_document, document_helm = _find_in_document(document, terraform, expand_env)
        helm = helm or document_helm
        found.extend(invocation.moved(offset) for invocation in in_document)
    if helm:
        found = [
            replace(invocation, source="helm") if invocation.source == "kubernetes" else invocation
            for invocation in found
        ]
    return found


@text_memo()
def _find_in_document(
    text: str, terraform: bool, expand_env: bool
) -> tuple[tuple[Invocation, ...], bool]:
    """Mask templates, read the document, put template text back into the words; an
    invocation reached twice (an aliased container) is kept once. Cached by text: the
    documents a keystroke did not touch are found here."""
    masked = mask_templates(text, terraform)
    reader = _Reader(masked, "helm" if masked.helm else "kubernetes", expand_env)
    frame = Frame(masked.text)
    for root in documents(masked.text):
        reader.document(frame, root)
    unique: dict[tuple[int, tuple[int, ...]], Invocation] = {}
    for invocation in masked.restore(reader.found):
        key = (invocation.start, tuple(word.start for word in invocation.args))
        unique.setdefault(key, invocation)
    return tuple(sorted(unique.values(), key=lambda inv: inv.start)), masked.helm


def _k8s_expand(word: Word, env: Mapping[str, Word] | None = None) -> Word:
    """Kubernetes' own substitution in command, args and env values: `$$` is a literal `$`,
    `$(VAR)` is replaced by the container's variable: by its value where `env` has it (its
    characters point at the value), else kept as written, unresolved."""
    text = word.text
    if "$" not in text:
        return word
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    unresolved = list(word.unresolved)
    index = 0
    n = len(text)
    while index < n:
        char = text[index]
        if char == "$" and index + 1 < n and text[index + 1] == "$":
            chars.append("$")
            starts.append(word.starts[index])
            ends.append(word.ends[index + 1])
            index += 2
            continue
        if char == "$" and index + 1 < n and text[index + 1] == "(":
            close = text.find(")", index + 2)
            name = text[index + 2 : close] if close != -1 else ""
            if name and (name[0].isalpha() or name[0] == "_") and name.replace("_", "a").isalnum():
                value = env.get(name) if env else None
                if value is not None:
                    chars.extend(value.text)
                    starts.extend(value.starts)
                    ends.extend(value.ends)
                    unresolved.extend(value.unresolved)
                    index = close + 1
                    continue
                for at in range(index, close + 1):
                    chars.append(text[at])
                    starts.append(word.starts[at])
                    ends.append(word.ends[at])
                unresolved.append(text[index : close + 1])
                index = close + 1
                continue
        chars.append(char)
        starts.append(word.starts[index])
        ends.append(word.ends[index])
        index += 1
    return replace(
        word,
        text="".join(chars),
        starts=tuple(starts),
        ends=tuple(ends),
        unresolved=tuple(dict.fromkeys(unresolved)),
    )


def _python_str(value: Any) -> str:
    """`str(value)` as the Python operators write it (`True`, `0.9`, `{'a': 1}`)."""
    return str(value)


def _args_start(source: str, args: list[Word], entrypoint: str) -> Invocation:
    """A start whose command is not in the file: it spans the first argument."""
    return Invocation(source, entrypoint, args[0].start, args[0].end, args, insert_at=args[-1].end)


class _Reader:
    """Collects the starts of one file (all its documents)."""

    def __init__(self, masked: Masked, source: str, expand_env: bool) -> None:
        self.masked = masked
        self.source = source
        self.expand_env = expand_env
        self.found: list[Invocation] = []
        #: The document's LeaderWorkerSet `leaderWorkerTemplate`, if it is one.
        self.group: Node | None = None

    def _model_ref(self, frame: Frame, node: Node | None, origin: str) -> ModelRef | None:
        """The model an operator field names as vLLM receives it: `hf://ORG/NAME` (KubeAI,
        KServe) is the repository id, a bare id or path (Ray's `model_source`) itself;
        other schemes (`s3://`, `pvc://`, `gs://`), templates and variables are files or
        values this file does not show."""
        text = text_of(node) if node is not None else None
        if node is None or not text or "$" in text or "{" in text:
            return None
        start, end = node_span(frame, node)
        if any(s < end and start < e for s, e in self.masked.spans):
            return None
        if text.startswith("hf://"):
            text = text.removeprefix("hf://").rstrip("/")
        elif "://" in text:
            return None
        return ModelRef(text, start, end, origin) if text else None

    # -- documents -------------------------------------------------------------------------

    def document(self, frame: Frame, root: Node, *, embedded: bool = False) -> None:
        """One YAML document: its containers (not in documents embedded in strings, which
        nothing runs as pods) and the operator resources it holds at any depth."""
        kind = text_of(get(root, "kind")) or ""
        before = len(self.found)
        self._document(frame, root, kind, embedded)
        if kind.startswith("LLMInferenceService"):
            # the template serves the files of `spec.model.uri` (fetched to /mnt/models)
            uri = get(get(get(root, "spec"), "model"), "uri")
            ref = self._model_ref(frame, uri, "LLMInferenceService `model.uri`")
            for found in self.found[before:]:
                found.model = found.model or ref

    def _document(self, frame: Frame, root: Node, kind: str, embedded: bool) -> None:
        if not embedded:
            self.group = get(get(root, "spec"), "leaderWorkerTemplate")
            if kind == "VLLMRuntime":
                self.vllm_runtime(frame, root)
            if kind == "ConfigMap":
                self.embedded(frame, get(root, "data"))
        for node, _parent in walk(root):
            if not isinstance(node, MappingNode):
                continue
            if not embedded:
                for key in ("containers", "initContainers"):
                    for container in distinct(items(get(node, key))):
                        if isinstance(container, MappingNode):
                            self.container(frame, node, container, kind)
                for key in _EMBEDDED_YAML_KEYS:
                    value = get(node, key)
                    if value is not None:
                        self.embedded_value(frame, key, value)
            self.kubeai(frame, node)
            if not embedded:
                self.kserve_model(frame, node)
            self.ray(frame, node)
            self.aibrix(frame, node)
            self.production_stack_values(frame, node)

    def embedded(self, frame: Frame, data: Node | None) -> None:
        """A ConfigMap's files: YAML that operators read (KAITO's `inference_config.yaml`,
        Ray LLM model files, AIBrix batch templates), and shell scripts that containers
        mount and run (`command: [bash, /scripts/serve.sh]`), read by the shell source."""
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
            if name == "inference_config.yaml":
                self.kaito(inner, root)
            self.document(inner, root, embedded=True)

    # -- containers ------------------------------------------------------------------------

    def container(self, frame: Frame, pod: MappingNode, container: MappingNode, kind: str) -> None:
        """One container's starts, with the GPUs it gets (its limits, its pod's node
        selectors)."""
        before = len(self.found)
        self._container_starts(frame, container, kind)
        if len(self.found) == before:
            return
        claims = gpu_claims.kubernetes(frame, pod, container)
        environ = self._environ(frame, container)
        is_open = get(container, "envFrom") is not None
        for at in range(before, len(self.found)):
            found = self.found[at]
            group = self._group(frame, pod, container, claims, found)
            self.found[at] = replace(
                found,
                gpus=claims + group if claims or group else found.gpus,
                environ=environ + found.environ,
                environ_open=found.environ_open or is_open,
            )

    def _group(
        self,
        frame: Frame,
        pod: MappingNode,
        container: MappingNode,
        claims: tuple[GpuClaim, ...],
        invocation: Invocation,
    ) -> tuple[GpuClaim, ...]:
        """A LeaderWorkerSet's leader start: its group's size, the leader's GPUs and each
        worker's (`sources.node_groups` decides whether the start spans them)."""
        template = self.group
        leader = get(get(template, "leaderTemplate"), "spec")
        worker = get(get(template, "workerTemplate"), "spec")
        if template is None or pod is not (leader if leader is not None else worker):
            return ()
        own = next((claim.count for claim in claims if claim.count is not None), None)
        workers = own
        if leader is not None and isinstance(worker, MappingNode):
            workers = next(
                (
                    claim.count
                    for other in items(get(worker, "containers"))
                    if isinstance(other, MappingNode)
                    for claim in gpu_claims.kubernetes(frame, worker, other)
                    if claim.count is not None
                ),
                None,
            )
        size = get(template, "size")
        script = "\n".join(
            text_of(item) or ""
            for key in ("command", "args")
            for item in items(get(container, key))
        )
        span = node_span(frame, size) if size is not None else (-1, -1)
        found = node_groups.leader_worker_set(
            text_of(size), span, script, invocation, (own, workers)
        )
        return (found,) if found is not None else ()

    def _container_starts(self, frame: Frame, container: MappingNode, kind: str) -> None:
        """One container: `command` + `args` as Kubernetes concatenates them; without a
        command, the image's entrypoint with `args` appended."""
        image_node = get(container, "image")
        image_word = scalar_word(frame, image_node, _VALUE) if image_node is not None else None
        image = self.masked.restore_word(image_word).text if image_word is not None else None
        command_node = get(container, "command")
        env = self._env(frame, container) if self.expand_env else None
        command = self._argv(frame, command_node, env)
        args = self._argv(frame, get(container, "args"), env)
        if command_node is not None and command:
            found = shell.argv_invocations(command + args, source=self.source, image=image)
            self.found.extend(found)
            return
        name = text_of(get(container, "name"))
        extra = self._additional_args(frame, container)
        if kind.startswith("LLMInferenceService") and (extra or name == "main"):
            # KServe's template runs `vllm serve` with the env var and the args appended.
            words = extra + args
            if words:
                self.found.append(
                    Invocation(
                        self.source,
                        "serve",
                        words[0].start,
                        words[0].end,
                        words,
                        image=image,
                        insert_at=words[-1].end,
                    )
                )
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
            self.found.append(_args_start(self.source, args, "serve"))

    def _argv(
        self, frame: Frame, node: Node | None, env: Mapping[str, Word] | None = None
    ) -> list[Word]:
        """A `command:`/`args:` list, one argv element per item (a lone string, which the
        API rejects, is read as one item)."""
        if isinstance(node, ScalarNode) and node.tag.endswith(":null"):
            return []  # `command:` with no value is no command
        nodes = [node] if isinstance(node, ScalarNode) else items(node)
        words: list[Word] = []
        for item in nodes:
            word = scalar_word(frame, item, _LIST)
            if word is not None:
                words.append(_k8s_expand(word, env))
        return words

    def _env(self, frame: Frame, container: MappingNode) -> dict[str, Word]:
        """The container's `env` values by name (a `valueFrom` is not known here; of two
        entries of one name the later wins)."""
        env: dict[str, Word] = {}
        for entry in items(get(container, "env")):
            name = text_of(get(entry, "name"))
            value = get(entry, "value")
            word = scalar_word(frame, value, _VALUE) if name and value is not None else None
            if name and word is not None:
                env[name] = _k8s_expand(word)
        return env

    def _environ(self, frame: Frame, container: MappingNode) -> tuple[EnvVar, ...]:
        """The container's `env` list as settings: a `value` with `$(VAR)` expanded from the
        entries above it (the kubelet's order), unresolved otherwise; a `valueFrom` (a secret,
        a field) is a setting whose value is not known here."""
        found: list[EnvVar] = []
        known: dict[str, Word] = {}
        for entry in items(get(container, "env")):
            name_node = get(entry, "name")
            name = scalar_word(frame, name_node, _VALUE) if name_node is not None else None
            if name is None or not name.text:
                continue
            value_node = get(entry, "value")
            value = scalar_word(frame, value_node, _VALUE) if value_node is not None else None
            if value is not None:
                value = self.masked.restore_word(_k8s_expand(value, known))
                known[name.text] = value
            elif get(entry, "valueFrom") is None:
                value = Word("", name.end, name.end, (), ())  # no value: the empty string
            found.append(EnvVar(self.masked.restore_word(name), value, "env"))
        return tuple(found)

    def _additional_args(self, frame: Frame, container: MappingNode) -> list[Word]:
        """`VLLM_ADDITIONAL_ARGS` of an LLMInferenceService container, split as the
        template's `eval "exec vllm serve … ${VLLM_ADDITIONAL_ARGS} $@"` splits it."""
        for env in items(get(container, "env")):
            if text_of(get(env, "name")) != _ADDITIONAL_ARGS:
                continue
            value = get(env, "value")
            word = scalar_word(frame, value, _VALUE) if value is not None else None
            if word is None:
                return []
            expanded = _k8s_expand(word)
            inner = Frame.of_word(expanded)
            return [relocate_word(w, inner) for w in shell.command_words(expanded.text)]
        return []

    # -- operators -------------------------------------------------------------------------

    def kserve_model(self, frame: Frame, node: MappingNode) -> None:
        """A KServe InferenceService `predictor.model` of format vLLM (or on a vLLM
        runtime): its `args` are appended to the runtime container's, which for
        config/runtimes/kserve-vllmserver.yaml is `python -m
        vllm.entrypoints.openai.api_server`."""
        model_format = text_of(get(get(node, "modelFormat"), "name")) or ""
        runtime = text_of(get(node, "runtime")) or ""
        if model_format.lower() != "vllm" and "vllm" not in runtime.lower():
            return
        args = self._argv(frame, get(node, "args"))
        if args:
            found = _args_start(self.source, args, "api_server")
            found.model = self._model_ref(frame, get(node, "storageUri"), "KServe `storageUri`")
            self.found.append(found)

    def kubeai(self, frame: Frame, node: MappingNode) -> None:
        """KubeAI `Model` (and its chart's catalog entries): with `engine: VLLM`, `args`
        are flags appended after `--model=<url>` and `--served-model-name=<name>`, which
        internal/modelcontroller/engine_vllm.go generates (no text here, so not words)."""
        engine = text_of(get(node, "engine"))
        if engine is None or engine.lower() != "vllm":
            return
        args = self._argv(frame, get(node, "args"))
        if args:
            found = _args_start(self.source, args, "serve")
            found.model = self._model_ref(frame, get(node, "url"), "KubeAI `url`")
            found.gpus = gpu_claims.kubeai(frame, node)
            self.found.append(found)

    def kaito(self, frame: Frame, root: Node) -> None:
        """KAITO's `inference_config.yaml`: presets/workspace/inference/vllm/inference_api.py
        appends `f"--{key}"` and `str(value)` for every key of its `vllm:` mapping to the
        argv of `vllm.entrypoints.openai.api_server` (so `true` arrives as `True`)."""
        pair = get_pair(root, "vllm")
        if pair is None or not isinstance(pair[1], MappingNode):
            return
        words: list[Word] = []
        for key, value in pairs(pair[1]):
            name = value_of(key)
            if name is None:
                continue
            words.append(key_word(frame, key, f"--{name}"))
            words.append(value_word(frame, value, _python_str(value_of(value))))
        self._mapped(frame, pair[0], "api_server", words)

    def ray(self, frame: Frame, node: MappingNode) -> None:
        """Ray Serve LLM `engine_kwargs` (and RayLLM's `engine_config` of type VLLMEngine):
        keyword arguments of vLLM's `AsyncEngineArgs`, not a command line; the words are
        the command line that means the same (`sources.engine_kwargs`)."""
        pair = get_pair(node, "engine_kwargs")
        if pair is None or not isinstance(pair[1], MappingNode):
            return
        ray_like = (
            get(node, "model_loading_config") is not None
            or text_of(get(node, "type")) == "VLLMEngine"
            or get(node, "llm_config") is not None
        )
        if not ray_like:
            return
        words = engine_kwargs_words(frame, pair[1], syntax="yaml")
        self._mapped(frame, pair[0], "serve", words)
        source = get(get(node, "model_loading_config"), "model_source")
        self.found[-1].model = self._model_ref(frame, source, "Ray Serve `model_source`")
        env_vars = get(get(node, "runtime_env"), "env_vars")
        self.found[-1].environ = env_mapping(
            frame, env_vars, "runtime_env", self.masked.restore_word
        )

    def aibrix(self, frame: Frame, node: MappingNode) -> None:
        """An AIBrix batch ModelDeploymentTemplate whose engine is vLLM, rendered as
        python/aibrix/aibrix/batch/manifest/engine_adapter.py `_build_vllm_args` does:
        model source, parallelism above 1, typed engine args, the other engine args
        sorted (`key` → `--key-with-dashes`), quantization, then `serve_args` verbatim."""
        spec = get(node, "spec")
        engine = get(spec, "engine")
        source = get(spec, "model_source")
        if not isinstance(source, MappingNode) or text_of(get(engine, "type")) != "vllm":
            return
        words: list[Word] = []

        def option(owner: Node | None, key: str, flag: str, *, bare: bool = False) -> None:
            pair = get_pair(owner, key)
            if pair is None:
                return
            loaded = value_of(pair[1])
            if loaded is None or (bare and not loaded) or loaded == "":
                return
            words.append(key_word(frame, pair[0], flag))
            if not bare:
                words.append(value_word(frame, pair[1], _python_str(loaded)))

        option(source, "uri", "--model")
        option(source, "revision", "--revision")
        option(source, "tokenizer_path", "--tokenizer")
        option(source, "chat_template_path", "--chat-template")
        parallelism = get(spec, "parallelism")
        for key, flag in (
            ("tp", "--tensor-parallel-size"),
            ("pp", "--pipeline-parallel-size"),
            ("dp", "--data-parallel-size"),
        ):
            size = value_of(get(parallelism, key))
            if isinstance(size, int) and not isinstance(size, bool) and size > 1:
                option(parallelism, key, flag)
        engine_args = get(spec, "engine_args")
        typed = (
            ("max_num_batched_tokens", "--max-num-batched-tokens", False),
            ("max_num_seqs", "--max-num-seqs", False),
            ("max_model_len", "--max-model-len", False),
            ("gpu_memory_utilization", "--gpu-memory-utilization", False),
            ("block_size", "--block-size", False),
            ("swap_space", "--swap-space", False),
            ("enable_prefix_caching", "--enable-prefix-caching", True),
            ("enable_chunked_prefill", "--enable-chunked-prefill", True),
            ("speculative_model", "--speculative-model", False),
        )
        for key, flag, bare in typed:
            option(engine_args, key, flag, bare=bare)
            if key == "speculative_model" and value_of(get(engine_args, key)):
                option(engine_args, "num_speculative_tokens", "--num-speculative-tokens")
        names = {key for key, _, _ in typed} | {"num_speculative_tokens"}
        extras: list[tuple[str, Node, Node]] = []
        for key_node, value_node in pairs(engine_args):
            extra = value_of(key_node)
            if isinstance(extra, str) and extra not in names:
                extras.append((extra, key_node, value_node))
        extras.sort(key=lambda entry: entry[0])
        for name, key_node, value in extras:
            loaded = value_of(value)
            if loaded is None:
                continue  # model_dump(exclude_none=True)
            flag = "--" + name.strip().lstrip("-").replace("_", "-")
            if isinstance(loaded, bool):
                if loaded:
                    words.append(key_word(frame, key_node, flag))
            elif isinstance(loaded, list):
                for item_node, item in zip(items(value), loaded, strict=False):
                    words.append(key_word(frame, key_node, flag))
                    words.append(value_word(frame, item_node, str(item)))
            elif str(loaded).strip() == "":
                words.append(key_word(frame, key_node, flag))
            else:
                words.append(key_word(frame, key_node, flag))
                words.append(value_word(frame, value, str(loaded).strip()))
        quantization = get(spec, "quantization")
        option(quantization, "weight", "--quantization")
        option(quantization, "kv_cache", "--kv-cache-dtype")
        words.extend(self._argv(frame, get(engine, "serve_args")))
        anchor = node.value[0][0] if node.value else node
        image = text_of(get(engine, "image"))
        self._mapped(frame, anchor, "serve", words, image=image)

    def vllm_runtime(self, frame: Frame, root: Node) -> None:
        """production-stack `VLLMRuntime`, as operator/internal/controller/
        vllmruntime_controller.go (`deploymentForVLLMRuntime`) builds the args of
        `/opt/venv/bin/vllm serve`: modelURL positional, `--host 0.0.0.0 --port <port>`,
        booleans always as `--x`/`--no-x`, sizes only when above 0, `extraArgs`, then the
        LMCache `--kv-transfer-config`."""
        spec = get(root, "spec")
        model_pair = get_pair(spec, "model")
        model = model_pair[1] if model_pair is not None else None
        config = get(spec, "vllmConfig")
        words: list[Word] = []

        def flag(owner: Node | None, key: str, name: str) -> Node | None:
            pair = get_pair(owner, key)
            if pair is not None:
                words.append(key_word(frame, pair[0], name))
                return pair[1]
            return None

        def sized(owner: Node | None, key: str, name: str, *, string: bool = False) -> None:
            pair = get_pair(owner, key)
            loaded = value_of(pair[1]) if pair is not None else None
            if pair is None or loaded is None:
                return
            if string and str(loaded) == "":
                return
            if not string and not (isinstance(loaded, (int, float)) and loaded > 0):
                return
            words.append(key_word(frame, pair[0], name))
            text = str(loaded) if string else _python_str(int(loaded))
            words.append(value_word(frame, pair[1], text))

        url = get(model, "modelURL")
        if url is not None:
            words.append(value_word(frame, url, str(value_of(url) or "")))
        port = get_pair(config, "port")
        if port is not None:
            words.append(key_word(frame, port[0], "--port"))
            words.append(value_word(frame, port[1], str(value_of(port[1]))))
        if value_of(get(model, "enableLoRA")) is True:
            flag(model, "enableLoRA", "--enable-lora")
        if value_of(get(model, "enableTool")) is True:
            flag(model, "enableTool", "--enable-auto-tool-choice")
        sized(model, "toolCallParser", "--tool-call-parser", string=True)
        for key, name in (
            ("enableChunkedPrefill", "enable-chunked-prefill"),
            ("enablePrefixCaching", "enable-prefix-caching"),
        ):
            on = value_of(get(config, key)) is True
            flag(config, key, f"--{name}" if on else f"--no-{name}")
        sized(model, "maxModelLen", "--max-model-len")
        sized(model, "dtype", "--dtype", string=True)
        sized(config, "tensorParallelSize", "--tensor-parallel-size")
        sized(model, "maxNumSeqs", "--max-num-seqs")
        sized(config, "gpuMemoryUtilization", "--gpu_memory_utilization", string=True)
        sized(config, "maxLoras", "--max_loras")
        words.extend(self._argv(frame, get(config, "extraArgs")))
        template = get_pair(model, "chatTemplate")
        if template is not None and value_of(template[1]):
            words.append(key_word(frame, template[0], "--chat-template"))
            words.append(value_word(frame, template[1], "/etc/chat-template.json"))
        cache = get_pair(spec, "lmCacheConfig")
        enabled = get(cache[1], "enabled") if cache is not None else None
        if cache is not None and enabled is not None and value_of(enabled) is True:
            v1 = value_of(get(config, "v1")) is True
            connector = "LMCacheConnectorV1" if v1 else "LMCacheConnector"
            words.append(key_word(frame, cache[0], "--kv-transfer-config"))
            words.append(
                value_word(frame, enabled, f'{{"kv_connector":"{connector}","kv_role":"kv_both"}}')
            )
        if model_pair is not None:
            image = get(get(get(spec, "deploymentConfig"), "image"), "name")
            self._mapped(frame, model_pair[0], "serve", words, image=text_of(image))

    def production_stack_values(self, frame: Frame, node: MappingNode) -> None:
        """production-stack Helm values: each `servingEngineSpec.modelSpec[]` entry, as
        helm/templates/deployment-vllm-multi.yaml renders its `vllm serve` command (values
        go through `quote`, so numbers print the way Go prints a float64)."""
        engine = get(node, "servingEngineSpec")
        if not isinstance(engine, MappingNode):
            return
        if value_of(get(engine, "enableEngine")) is False:
            return
        for spec in distinct(items(get(engine, "modelSpec"))):
            if isinstance(spec, MappingNode) and get(spec, "raySpec") is None:
                self._model_spec(frame, spec)

    def _model_spec(self, frame: Frame, spec: MappingNode) -> None:
        """One `modelSpec[]` entry in the chart's order (`--host`/`--port` come from chart
        helpers, with no text here)."""
        words: list[Word] = []

        def quoted(owner: Node | None, key: str, name: str, *, when: str = "has") -> None:
            pair = get_pair(owner, key)
            if pair is None:
                return
            loaded = value_of(pair[1])
            if when == "truthy" and not loaded:
                return
            words.append(key_word(frame, pair[0], name))
            words.append(value_word(frame, pair[1], go_value(loaded)))

        url = get_pair(spec, "modelURL")
        if url is not None:
            words.append(value_word(frame, url[1], go_value(value_of(url[1]))))
        for key, name in (
            ("enableLoRA", "--enable-lora"),
            ("enableTool", "--enable-auto-tool-choice"),
        ):
            pair = get_pair(spec, key)
            if pair is not None and value_of(pair[1]):
                words.append(key_word(frame, pair[0], name))
        quoted(spec, "toolCallParser", "--tool-call-parser", when="truthy")
        config = get(spec, "vllmConfig")
        if isinstance(config, MappingNode):
            chunked = get_pair(config, "enableChunkedPrefill")
            if chunked is not None:
                on = bool(value_of(chunked[1]))
                name = "--enable-chunked-prefill" if on else "--no-enable-chunked-prefill"
                words.append(key_word(frame, chunked[0], name))
            caching = get_pair(config, "enablePrefixCaching")
            if caching is not None:  # absent: the chart writes --no-… with no text here
                on = bool(value_of(caching[1]))
                name = "--enable-prefix-caching" if on else "--no-enable-prefix-caching"
                words.append(key_word(frame, caching[0], name))
            for key, name in (
                ("maxModelLen", "--max-model-len"),
                ("dtype", "--dtype"),
                ("tensorParallelSize", "--tensor-parallel-size"),
                ("maxNumSeqs", "--max-num-seqs"),
                ("gpuMemoryUtilization", "--gpu_memory_utilization"),
                ("maxLoras", "--max_loras"),
            ):
                quoted(config, key, name)
            extra = get(config, "extraArgs")
            if value_of(extra):
                for item in items(extra):
                    words.append(value_word(frame, item, go_value(value_of(item)), _LIST))
        cache_pair = get_pair(spec, "lmcacheConfig")
        cache = cache_pair[1] if cache_pair is not None else None
        if cache_pair is not None and value_of(cache) and value_of(get(cache, "enabled")):
            role = value_of(get(cache, "kvRole")) or "kv_both"
            if get(cache, "enablePD") is not None:
                nixl = json.dumps(go_value(value_of(get(cache, "nixlRole"))))
                value = (
                    f'{{"kv_connector":"LMCacheConnectorV1","kv_role":"{role}",'
                    f'"kv_connector_extra_config":{{"discard_partial_chunks": false, '
                    f'"lmcache_rpc_port": {nixl}}}}}'
                )
            elif str(value_of(get(config, "v0"))) == "1":
                value = f'{{"kv_connector":"LMCacheConnector","kv_role":"{role}"}}'
            else:
                value = f'{{"kv_connector":"LMCacheConnectorV1","kv_role":"{role}"}}'
            words.append(key_word(frame, cache_pair[0], "--kv-transfer-config"))
            assert cache is not None
            words.append(value_word(frame, cache, value))
        template = get_pair(spec, "chatTemplate")
        if template is not None and value_of(template[1]):
            words.append(key_word(frame, template[0], "--chat-template"))
            words.append(value_word(frame, template[1], f"/templates/{value_of(template[1])}"))
        repository = text_of(get(spec, "repository"))
        tag = text_of(get(spec, "tag"))
        image = f"{repository}:{tag}" if repository and tag else repository
        anchor = url[0] if url is not None else (spec.value[0][0] if spec.value else spec)
        self._mapped(frame, anchor, "serve", words, image=image, source="helm")

    def _mapped(
        self,
        frame: Frame,
        anchor: Node,
        entrypoint: str,
        words: list[Word],
        *,
        image: str | None = None,
        source: str = "kubernetes",
    ) -> None:
        """A start built by an operator from keys: it spans the key that holds them."""
        start, end = node_span(frame, anchor)
        self.found.append(
            Invocation(
                source,
                entrypoint,
                start,
                end,
                words,
                image=image,
                insert_at=words[-1].end if words else end,
            )
        )
