"""What every reader of a Kubernetes file shares: the state of one file's reading (its masked
templates, the starts found so far) and the steps both the generic Pod reading
(`sources.kubernetes`) and the operators (`sources.operators`) take: a `command:`/`args:`
list as argv words, `$(VAR)` as the kubelet substitutes it, a start built from keys, the
model an operator field names. `Operator` is what each operator module declares.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode

from vllm_config_lsp.sources.invocation import (
    Generated,
    GpuClaim,
    Invocation,
    ModelRef,
    Word,
    generated_word,
)
from vllm_config_lsp.sources.yaml_hosts import (
    Frame,
    Masked,
    get,
    items,
    node_span,
    scalar_word,
    text_of,
)

#: How an `args:` item and a scalar value are written (`sources.rendering`).
LIST = "yaml-list"
VALUE = "yaml-value"


def k8s_expand(word: Word, env: Mapping[str, Word] | None = None) -> Word:
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


def python_str(value: Any) -> str:
    """`str(value)` as the Python operators write it (`True`, `0.9`, `{'a': 1}`)."""
    return str(value)


def args_start(source: str, args: list[Word], entrypoint: str) -> Invocation:
    """A start whose command is not in the file: it spans the first argument written here
    (the words its operator writes before come first)."""
    first = next((word for word in args if word.generated is None), args[0])
    return Invocation(source, entrypoint, first.start, first.end, args, insert_at=args[-1].end)


class Reader:
    """Collects the starts of one file (all its documents)."""

    def __init__(self, masked: Masked, source: str, expand_env: bool) -> None:
        self.masked = masked
        self.source = source
        self.expand_env = expand_env
        self.found: list[Invocation] = []
        #: The document's LeaderWorkerSet `leaderWorkerTemplate`, if it is one.
        self.group: Node | None = None
        #: The top-level document being read (not one embedded in a string).
        self.root: Node | None = None

    def made(
        self, words: list[Word], text: str, origin: str, frame: Frame, node: Node | None
    ) -> None:
        """Append a word `origin` writes with no text here (`invocation.Generated`); what
        is found on it is reported on `node` (the field that makes it write the word). A
        word built from a value this file does not know (a template, a variable) is
        unresolved."""
        start, end = node_span(frame, node) if node is not None else (0, 0)
        unknown = (
            "{{" in text or "$" in text or any(s < end and start < e for s, e in self.masked.spans)
        )
        words.append(
            generated_word(
                text, len(words), Generated(origin, start, end), (text,) if unknown else ()
            )
        )

    def model_ref(self, frame: Frame, node: Node | None, origin: str) -> ModelRef | None:
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

    def argv(
        self, frame: Frame, node: Node | None, env: Mapping[str, Word] | None = None
    ) -> list[Word]:
        """A `command:`/`args:` list, one argv element per item (a lone string, which the
        API rejects, is read as one item)."""
        if isinstance(node, ScalarNode) and node.tag.endswith(":null"):
            return []  # `command:` with no value is no command
        nodes = [node] if isinstance(node, ScalarNode) else items(node)
        words: list[Word] = []
        for item in nodes:
            word = scalar_word(frame, item, LIST)
            if word is not None:
                words.append(k8s_expand(word, env))
        return words

    def env(self, frame: Frame, container: MappingNode) -> dict[str, Word]:
        """The container's `env` values by name (a `valueFrom` is not known here; of two
        entries of one name the later wins)."""
        env: dict[str, Word] = {}
        for entry in items(get(container, "env")):
            name = text_of(get(entry, "name"))
            value = get(entry, "value")
            word = scalar_word(frame, value, VALUE) if name and value is not None else None
            if name and word is not None:
                env[name] = k8s_expand(word)
        return env

    def mapped(
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
                insert_at=next((w.end for w in reversed(words) if w.generated is None), end),
            )
        )


@dataclass(frozen=True)
class Operator:
    """One operator or chart that builds vLLM's argv from a resource of its own, as its
    module declares it (`sources.operators` collects them; the Kubernetes reader calls
    each hook where it applies). Every hook is optional."""

    #: The project ("KubeAI", "KServe InferenceService").
    name: str
    #: The resources it reads, `Kind (api group)`, or the chart values it renders.
    resources: tuple[str, ...]
    #: The operator source it transcribes: `owner/repo path@commit`.
    transcribes: str
    #: A top-level document (not one embedded in a string), with its `kind`.
    document: Callable[[Reader, Frame, Node, str], None] | None = None
    #: Any mapping of a document, at any depth, and the collection that holds it.
    node: Callable[[Reader, Frame, MappingNode, Node | None], None] | None = None
    #: Whether `node` also reads the YAML documents embedded in strings.
    in_embedded: bool = True
    #: A container with no `command:` of a document of `kind`: its `args` and image, True
    #: when the operator says what it runs.
    container: Callable[[Reader, Frame, MappingNode, str, list[Word], str | None], bool] | None = (
        None
    )
    #: A YAML document inside a string (a ConfigMap file of this name, a key below).
    embedded_file: Callable[[Reader, Frame, str, Node], None] | None = None
    #: Keys whose string value is itself a YAML document the operator reads.
    embedded_keys: frozenset[str] = frozenset()
    #: After a top-level document of `kind` is read: the starts it made, from `before` on.
    finish: Callable[[Reader, Frame, Node, str, int], None] | None = None
    #: The GPUs a container's start spans with the other pods of its group.
    claims: (
        Callable[
            [Reader, Frame, MappingNode, MappingNode, tuple[GpuClaim, ...], Invocation],
            tuple[GpuClaim, ...],
        ]
        | None
    ) = None
