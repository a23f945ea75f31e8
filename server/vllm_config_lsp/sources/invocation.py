"""What a source finds in a host document: vLLM invocations as positioned argv words.

Every host (a `--config` file, a shell script, a Kubernetes manifest, a Markdown fence, …)
ends in the same shape, so the layers above never know which host they read: a `Word` is
one argv element exactly as vLLM receives it (after YAML folding, shell quoting, compose
`$$`, …) with the document offset of each of its characters, and an `Invocation` is the
words after `serve` (or after the API-server module name).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Word:
    """One argv element. `starts[i]`/`ends[i]` delimit the document text that produced
    `text[i]` (a quote or an escape maps to the characters that wrote it); `start`/`end`
    cover the whole word as written, quotes included. `unresolved` lists the variables and
    templates the word holds as written (`$TP`, `${MAX_LEN:-8k}`, `$(MODEL_ID)`,
    `{{ .Values.x }}`, `${{ env.X }}`): a word with any is not known, only guessed.
    `quoting` names how the host writes a replacement for it (see `sources.rendering`)."""

    text: str
    start: int
    end: int
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    unresolved: tuple[str, ...] = ()
    quoting: str = "shell"
    #: True when the word may expand to any number of arguments (`$EXTRA_ARGS`, `"$@"`,
    #: `"${ARGS[@]}"`): nothing is known about what it holds.
    splat: bool = False

    @property
    def resolved(self) -> bool:
        return not self.unresolved and not self.splat

    def source_range(self, start: int, end: int) -> tuple[int, int]:
        """Tight document range of text range `[start, end)` (clamped)."""
        n = len(self.starts)
        start = min(max(start, 0), n)
        end = min(max(end, start), n)
        if start == n:
            return self.end, self.end
        if end == start:
            return self.starts[start], self.starts[start]
        return self.starts[start], self.ends[end - 1]

    def shifted(self, mapping: Callable[[int], int]) -> Word:
        """The same word with every offset passed through `mapping` (a word found in a
        string that itself sits somewhere in the document, e.g. a YAML scalar)."""
        return replace(
            self,
            start=mapping(self.start),
            end=mapping(self.end),
            starts=tuple(mapping(i) for i in self.starts),
            ends=tuple(mapping(i) for i in self.ends),
        )


@dataclass
class Invocation:
    """One start of vLLM. `args` are what vLLM's parser receives after `vllm serve` (or
    after `-m vllm.entrypoints.openai.api_server`): the positional model included.
    `start`/`end` span the executable word (`vllm`, `python3`, the image), or the first
    argument where the host has none (an `args:` list, a compose `command:`)."""

    #: The host syntax: shell, kubernetes, compose, dockerfile, markdown, workflow, helm,
    #: python, launcher, dstack, triton (`argv --format json` prints it as "source").
    source: str
    entrypoint: str  # "serve" | "api_server"
    start: int
    end: int
    args: list[Word] = field(default_factory=list)
    #: The container image the invocation runs in, as written (`vllm/vllm-openai:v0.8.5`).
    image: str | None = None
    #: `pip install vllm==X` in the same script, or another statement of the release.
    pinned_version: str | None = None
    #: Document span of every text the host emits around the args (an `args:` list, a
    #: shell command's last word): where "insert a flag" fixes go.
    insert_at: int | None = None
