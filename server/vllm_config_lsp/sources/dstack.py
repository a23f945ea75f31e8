"""vLLM starts in dstack configurations (`.dstack.yml`: services and tasks).

A dstack run executes its `commands:` in the run's container (`image:` when given, dstack's
own base image otherwise), one after the other in one shell session: so the items are read
together, as one shell script, by the shell source (a `pip install vllm==X` or an `export`
in an earlier item is seen by the `vllm serve` of a later one). Each item is a YAML string,
usually a `- |` block, whose characters are mapped back through its scalar source map.

dstack substitutes `${{ env.X }}`, `${{ secrets.X }}` and `${{ run.* }}` before the shell
runs: like a workflow's expressions they are masked first and come back as unresolved parts
of the words that hold them. What dstack adds itself (`$DSTACK_GPUS_NUM`, …) is ordinary
environment, which the shell source already keeps unresolved. The run's `env:` (a list of
`NAME=value` or a mapping) is the environment the commands start with: its plain values
fill the `$NAME`s of the words (`sources.task_env`), as SkyPilot's `envs:` do. Its
`resources.gpu` (`H100:2`, `24GB`, `{name: L4, count: 1}`) is the GPUs its starts get.
"""

from __future__ import annotations

from dataclasses import replace

from yaml.nodes import MappingNode, Node, ScalarNode

from vllm_config_lsp.sources import gpu_claims, shell, task_env
from vllm_config_lsp.sources.invocation import EnvVar, Invocation, assignment
from vllm_config_lsp.sources.yaml_hosts import (
    Frame,
    documents,
    env_mapping,
    get,
    items,
    mask_github,
    relocate,
    scalar_frame,
    scalar_word,
    text_of,
)

__all__ = ["RUN_TYPES", "find_invocations", "is_configuration", "joined_script"]

_SOURCE = "dstack"
#: Configuration types whose `commands` run in a container.
RUN_TYPES = frozenset({"service", "task", "dev-environment"})


def is_configuration(root: Node | None) -> bool:
    """A dstack run configuration: a mapping with a run `type` and `commands`."""
    return (
        isinstance(root, MappingNode)
        and (text_of(get(root, "type")) or "") in RUN_TYPES
        and get(root, "commands") is not None
    )


def find_invocations(text: str) -> list[Invocation]:
    """Every vLLM start in the `commands` of the dstack configurations of a YAML text, in
    document order, with document offsets."""
    try:
        masked = mask_github(text)
        frame = Frame(masked.text)
        found: list[Invocation] = []
        for root in documents(masked.text):
            if is_configuration(root):
                found.extend(_commands(frame, root))
        return sorted(masked.restore(found), key=lambda invocation: invocation.start)
    except RecursionError:  # a MemoryError is reported (engine), never "no start"
        return []


def _commands(frame: Frame, root: Node) -> list[Invocation]:
    image = text_of(get(root, "image"))
    script = joined_script(frame, items(get(root, "commands")))
    if script is None or "vllm" not in script.text:
        return []
    environ = _env(frame, get(root, "env"))
    fills = task_env.fills(environ, script.text)
    claims = gpu_claims.dstack(frame, get(root, "resources"))
    found = []
    for invocation in shell.find_invocations(script.text, source=_SOURCE):
        moved = relocate(invocation, script, image=image)
        found.append(
            replace(
                moved,
                args=[task_env.filled(word, fills) for word in moved.args],
                environ=(*environ, *moved.environ),
                gpus=claims + moved.gpus,
            )
        )
    return found


def _env(frame: Frame, node: Node | None) -> tuple[EnvVar, ...]:
    """The run's `env:`: a list (`- NAME=value`, or `- NAME`, whose value dstack takes from
    the local environment) or a mapping (`NAME: value`), in the run's environment before
    its commands' own exports."""
    if isinstance(node, MappingNode):
        return env_mapping(frame, node, "env")
    found: list[EnvVar] = []
    for item in items(node):
        word = scalar_word(frame, item, "yaml-value")
        if word is not None and word.text:
            found.append(assignment(word, "env"))
    return tuple(found)


def joined_script(frame: Frame, commands: list[Node]) -> Frame | None:
    """Command items (dstack's `commands`, a Ray cluster's head commands) joined by
    newlines into one script; each joining newline maps to the end of the item before it."""
    parts = [
        part
        for item in commands
        if isinstance(item, ScalarNode)
        for part in [scalar_frame(frame, item)]
        if part is not None and part.starts is not None and part.ends is not None
    ]
    if not parts:
        return None
    text: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    for index, part in enumerate(parts):
        assert part.starts is not None and part.ends is not None
        if index:
            previous = parts[index - 1].end
            text.append("\n")
            starts.append(previous)
            ends.append(previous)
        text.append(part.text)
        starts.extend(part.starts)
        ends.extend(part.ends)
    return Frame("".join(text), tuple(starts), tuple(ends), parts[-1].end)
