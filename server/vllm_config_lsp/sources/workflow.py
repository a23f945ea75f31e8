"""vLLM starts in GitHub Actions workflows and actions.

Commands live in the `run:` scripts of steps (`jobs.*.steps[]`, and `runs.steps[]` of a
composite action), which the shell source reads: wrappers (`nohup hatch run -- vllm
serve`), `docker run <image> <args>` and the `pkill -f "vllm serve"` noise are its
business. What is the workflow's own is:

* `${{ … }}` expressions, which the runner substitutes into the script text before any
  shell sees it: they are masked first (`yaml_hosts.mask_github`) so that neither YAML nor
  the shell grammar trips on their quotes and braces, and come back as unresolved parts
  of the words that hold them;
* the step's shell: a `shell: python`/`pwsh` step (or job/workflow default) is no shell
  script;
* images: a job `container:` is where its steps run (so it is their image), a `services:`
  entry with a vLLM image starts that image's entrypoint with no arguments (services
  cannot be given any), a `docker://` step or a Docker action (`runs.using: docker`)
  starts its image with `args` appended, unless `entrypoint` replaces it.
"""

from __future__ import annotations

from dataclasses import replace

from yaml.nodes import MappingNode, Node, ScalarNode

from vllm_config_lsp.sources import argv, shell
from vllm_config_lsp.sources.invocation import EnvVar, Invocation, Word
from vllm_config_lsp.sources.yaml_hosts import (
    Frame,
    Masked,
    distinct,
    distinct_pairs,
    documents,
    env_mapping,
    get,
    items,
    mask_github,
    node_span,
    pairs,
    relocate,
    relocate_word,
    scalar_frame,
    scalar_word,
    text_of,
)

__all__ = ["find_invocations"]

_SOURCE = "workflow"
_SHELL_NAMES = frozenset({"bash", "sh"})


def find_invocations(text: str) -> list[Invocation]:
    """Every vLLM start in a workflow or action file, in document order, with document
    offsets."""
    try:
        masked = mask_github(text)
        reader = _Reader(masked)
        frame = Frame(masked.text)
        for root in documents(masked.text):
            reader.document(frame, root)
        return sorted(masked.restore(reader.found), key=lambda invocation: invocation.start)
    except RecursionError:  # a MemoryError is reported (engine), never "no start"
        return []


def _default_shell(owner: Node | None) -> str | None:
    """`defaults.run.shell` of a workflow or job: steps without `shell:` use it."""
    return text_of(get(get(get(owner, "defaults"), "run"), "shell"))


def _runs_shell(shell_name: str | None) -> bool:
    """Whether a step's `shell:` is a POSIX shell (absent: bash on Linux runners)."""
    if shell_name is None:
        return True
    program = shell_name.split()[0].rsplit("/", 1)[-1] if shell_name.split() else ""
    return program in _SHELL_NAMES


class _Reader:
    """Collects the starts of one file; image texts get their expressions put back."""

    def __init__(self, masked: Masked) -> None:
        self.masked = masked
        self.found: list[Invocation] = []

    def _image(self, frame: Frame, node: Node | None) -> str | None:
        word = scalar_word(frame, node, "yaml-value") if node is not None else None
        return self.masked.restore_word(word).text if word is not None else None

    def env(self, frame: Frame, owner: Node | None) -> tuple[EnvVar, ...]:
        """An `env:` mapping (workflow, job, step, service): values with their `${{ }}`
        expressions put back, unresolved."""
        return env_mapping(frame, get(owner, "env"), "env", self.masked.restore_word)

    def _with_env(self, before: int, environ: tuple[EnvVar, ...]) -> None:
        for at in range(before, len(self.found)):
            found = self.found[at]
            self.found[at] = replace(found, environ=environ + found.environ)

    def document(self, frame: Frame, root: Node) -> None:
        """A workflow's jobs (steps, container, services) or an action's `runs`."""
        workflow_shell = _default_shell(root)
        workflow_env = self.env(frame, root)
        for _name, job in distinct_pairs(pairs(get(root, "jobs"))):
            if not isinstance(job, MappingNode):
                continue
            before = len(self.found)
            self._job(frame, job, workflow_shell)
            self._with_env(before, workflow_env + self.env(frame, job))
        runs = get(root, "runs")
        using = (text_of(get(runs, "using")) or "").lower()
        if using == "composite":
            for step in distinct(items(get(runs, "steps"))):
                self.step(frame, step, None, None)
        elif using == "docker":
            before = len(self.found)
            self.docker(frame, get(runs, "image"), get(runs, "args"), get(runs, "entrypoint"))
            self._with_env(before, self.env(frame, runs))

    def _job(self, frame: Frame, job: MappingNode, workflow_shell: str | None) -> None:
        """A job's steps (in its container) and its vLLM services."""
        container = get(job, "container")
        image_node = get(container, "image") if isinstance(container, MappingNode) else container
        image = self._image(frame, image_node)
        job_shell = _default_shell(job) or workflow_shell
        for step in distinct(items(get(job, "steps"))):
            self.step(frame, step, job_shell, image)
        for _service, service in distinct_pairs(pairs(get(job, "services"))):
            node = get(service, "image") if isinstance(service, MappingNode) else service
            service_image = self._image(frame, node)
            if node is not None and argv.is_vllm_image(service_image):
                before = len(self.found)
                self.found.extend(
                    shell.container_invocations(
                        service_image, [], source=_SOURCE, anchor=node_span(frame, node)
                    )
                )
                self._with_env(before, self.env(frame, service))

    def step(self, frame: Frame, step: Node, default_shell: str | None, image: str | None) -> None:
        """A `run:` script in the job's container, or a `docker://` step."""
        if not isinstance(step, MappingNode):
            return
        before = len(self.found)
        self._step(frame, step, default_shell, image)
        self._with_env(before, self.env(frame, step))

    def _step(
        self, frame: Frame, step: MappingNode, default_shell: str | None, image: str | None
    ) -> None:
        run = get(step, "run")
        if isinstance(run, ScalarNode) and _runs_shell(
            text_of(get(step, "shell")) or default_shell
        ):
            script = scalar_frame(frame, run)
            if script is not None:
                for found in shell.find_invocations(script.text, source=_SOURCE):
                    self.found.append(relocate(found, script, image=image))
        uses = get(step, "uses")
        if (text_of(uses) or "").startswith("docker://"):
            with_ = get(step, "with")
            self.docker(frame, uses, get(with_, "args"), get(with_, "entrypoint"))

    def docker(
        self, frame: Frame, image_node: Node | None, args: Node | None, entrypoint: Node | None
    ) -> None:
        """A container the runner starts: `docker://IMAGE` (or a Docker action's image)
        with `args` (a string the runner splits like a shell, or a list) after its
        entrypoint, or after `entrypoint` when given."""
        image = self._image(frame, image_node)
        if image is None or image_node is None:
            return
        image = image.removeprefix("docker://")
        words = self._args(frame, args)
        if entrypoint is not None:
            head = scalar_word(frame, entrypoint, "yaml-value")
            if head is not None:
                self.found.extend(
                    shell.argv_invocations([head, *words], source=_SOURCE, image=image)
                )
            return
        anchor = node_span(frame, image_node)
        self.found.extend(shell.container_invocations(image, words, source=_SOURCE, anchor=anchor))

    def _args(self, frame: Frame, node: Node | None) -> list[Word]:
        """`args`: a string is split like a shell command line, a list is one per item."""
        if isinstance(node, ScalarNode):
            value = scalar_frame(frame, node)
            if value is None:
                return []
            return [relocate_word(word, value) for word in shell.command_words(value.text)]
        words: list[Word] = []
        for item in items(node):
            word = scalar_word(frame, item, "yaml-list")
            if word is not None:
                words.append(word)
        return words
