"""KServe `LLMInferenceService` (serving.kserve.io/v1alpha1) and its configs.

Transcribes kserve/kserve config/llmisvc/config-llm-template.yaml
@bc3894bf5e628bedfe770eb634309dc6862a067d: the `main` container runs `vllm serve` on the
files of `spec.model.uri` (fetched to /mnt/models), with the container's `args` appended
and, in the templates that run it through `eval "exec vllm serve … ${VLLM_ADDITIONAL_ARGS}
$@"`, the `VLLM_ADDITIONAL_ARGS` variable split as the shell splits it.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node

from vllm_config_lsp.sources import shell
from vllm_config_lsp.sources.invocation import Invocation, Word
from vllm_config_lsp.sources.operators.reader import VALUE, Operator, Reader, k8s_expand
from vllm_config_lsp.sources.yaml_hosts import (
    Frame,
    get,
    items,
    relocate_word,
    scalar_word,
    text_of,
)

#: The env var the template expands into `vllm serve` (through `eval`, so the shell's
#: quoting rules apply to it).
_ADDITIONAL_ARGS = "VLLM_ADDITIONAL_ARGS"


def _is_llmisvc(kind: str) -> bool:
    return kind.startswith("LLMInferenceService")


def _container(
    reader: Reader,
    frame: Frame,
    container: MappingNode,
    kind: str,
    args: list[Word],
    image: str | None,
) -> bool:
    """A container with no command: the template's `vllm serve` with the env var and the
    args appended, for the `main` container or one that sets the variable."""
    if not _is_llmisvc(kind):
        return False
    extra = _additional_args(frame, container)
    if not extra and text_of(get(container, "name")) != "main":
        return False
    words = extra + args
    if words:
        reader.found.append(
            Invocation(
                reader.source,
                "serve",
                words[0].start,
                words[0].end,
                words,
                image=image,
                insert_at=words[-1].end,
            )
        )
    return True


def _additional_args(frame: Frame, container: MappingNode) -> list[Word]:
    """`VLLM_ADDITIONAL_ARGS` of a container, split as the template's `eval` splits it."""
    for env in items(get(container, "env")):
        if text_of(get(env, "name")) != _ADDITIONAL_ARGS:
            continue
        value = get(env, "value")
        word = scalar_word(frame, value, VALUE) if value is not None else None
        if word is None:
            return []
        expanded = k8s_expand(word)
        inner = Frame.of_word(expanded)
        return [relocate_word(w, inner) for w in shell.command_words(expanded.text)]
    return []


def _finish(reader: Reader, frame: Frame, root: Node, kind: str, before: int) -> None:
    """The template serves the files of `spec.model.uri`: the model of every start the
    document made that names none."""
    if not _is_llmisvc(kind):
        return
    uri = get(get(get(root, "spec"), "model"), "uri")
    ref = reader.model_ref(frame, uri, "LLMInferenceService `model.uri`")
    for found in reader.found[before:]:
        found.model = found.model or ref


OPERATOR = Operator(
    "KServe LLMInferenceService",
    ("LLMInferenceService (serving.kserve.io)", "LLMInferenceServiceConfig"),
    "kserve/kserve config/llmisvc/config-llm-template.yaml@bc3894b",
    container=_container,
    finish=_finish,
)
