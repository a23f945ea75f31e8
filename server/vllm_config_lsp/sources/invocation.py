"""What a source finds in a host document: vLLM invocations as positioned argv words.

Every host (a `--config` file, a shell script, a Kubernetes manifest, a Markdown fence, …)
ends in the same shape, so the layers above never know which host they read: a `Word` is
one argv element exactly as vLLM receives it (after YAML folding, shell quoting, compose
`$$`, …) with the document offset of each of its characters, and an `Invocation` is the
words after `serve` (or after the API-server module name).

A document's argv may hold text another file wrote: a chart's values file reaches vLLM
through its templates (`sources.helm_chart`), which write the fixed flags around the values.
Those characters get offsets past the end of the document (`elsewhere`), so the rules see
the whole argv while the document reports only what it wrote itself (`own_findings`); the
other file reports the rest.

An operator or a chart may write words of its own into the argv (KubeAI's `--model=<url>`,
production-stack's `--host 0.0.0.0`): they have no text in the document, so their offsets
sit in a region far past any document's end (`GENERATED_AT`, `generated_word`), and each
carries `Generated`, the text that makes the operator write it. The rules see them like any
word; the engine puts what is found on one on that text, without the fixes that would edit
it (`on_written_text`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from vllm_config_lsp.findings import Finding, Place, Related, TextEdit
from vllm_config_lsp.sources.yaml_origin import YamlOrigin

#: Where the words an operator writes sit: past any document's end and past the offsets of
#: the text another file wrote (`elsewhere`).
GENERATED_AT = 1 << 40
#: Room for each generated word of a command line (the n-th starts n times this further on).
_GENERATED_ROOM = 1 << 20


@dataclass(frozen=True)
class Generated:
    """Who writes a word that has no text in the document, and the document text that makes
    it write it (a KubeAI `url:`, the production-stack `modelURL:` key): what is found on
    the word is reported there."""

    origin: str
    start: int
    end: int

    def moved(self, by: int) -> Generated:
        return replace(self, start=self.start + by, end=self.end + by)


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
    #: Set when an operator or a chart writes the word (it has no text here).
    generated: Generated | None = None
    #: The YAML entry and node of a `--config` file's word (`sources.config_file`), whose
    #: text vLLM builds from the value rather than reads as written; None for a host's word.
    origin: YamlOrigin | None = field(default=None, compare=False)
    #: The keyword argument a flag word stands for, as written (`max_model_len`), when the
    #: host hands vLLM keyword arguments rather than a command line (`sources.engine_kwargs`).
    field: str | None = None

    @property
    def resolved(self) -> bool:
        return not self.unresolved and not self.splat

    def memo_weight(self) -> int:
        """The bytes the word holds, as tracemalloc measures them: about 380 for the object
        and its fields, and 36 per offset (a tuple slot and an int), 73 per character of
        text (`document.text_memo.weigh`)."""
        return 380 + len(self.text) + 36 * (len(self.starts) + len(self.ends))

    def source_range(self, start: int, end: int) -> tuple[int, int]:
        """Tight document range of text range `[start, end)` (clamped)."""
        n = len(self.starts)
        start = min(max(start, 0), n)
        end = min(max(end, start), n)
        if start == n:
            return self.end, self.end
        if end == start:
            return self.starts[start], self.starts[start]
        first, last = self.starts[start], self.ends[end - 1]
        if self.start <= first <= last <= self.end:
            return first, last
        # Some characters were written elsewhere (`elsewhere`): the word spans the ones this
        # document wrote, and a range is the part of it they wrote, if any.
        here = [
            (at, to)
            for at, to in zip(self.starts[start:end], self.ends[start:end], strict=True)
            if self.start <= at and to <= self.end
        ]
        if not here:
            return first, last
        return min(at for at, _ in here), max(to for _, to in here)

    def moved(self, by: int) -> Word:
        """The same word `by` characters further on (its document moved as a whole)."""
        if not by:
            return self
        return Word(
            self.text,
            self.start + by,
            self.end + by,
            tuple(map(by.__add__, self.starts)),
            tuple(map(by.__add__, self.ends)),
            self.unresolved,
            self.quoting,
            self.splat,
            None if self.generated is None else self.generated.moved(by),
            origin=self.origin,
            field=self.field,
        )

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


def generated_word(
    text: str, index: int, generated: Generated, unresolved: tuple[str, ...] = ()
) -> Word:
    """A word an operator writes, the `index`-th of its command line (each in a span of its
    own in the generated region)."""
    start = GENERATED_AT + index * _GENERATED_ROOM
    stop = start + len(text)
    starts = tuple(range(start, stop))
    return Word(
        text,
        start,
        stop,
        starts,
        tuple(at + 1 for at in starts),
        unresolved,
        "yaml-list",
        generated=generated,
    )


def on_written_text(found: Finding, made: Sequence[Word]) -> Finding:
    """A finding of a command line, moved off the words its operator writes (`made`, the
    command line's generated words): one on such a word goes to the text that makes the
    operator write it, with the word named, and loses the fixes that would edit it; a
    related setting on one points at that text too."""
    if not made:
        return found

    def writer(at: int) -> Word | None:
        return next((w for w in made if w.start <= at <= w.end), None)

    related = []
    for span in found.related:
        word = writer(span.start) if span.start >= GENERATED_AT else None
        if word is not None and word.generated is not None:
            span = replace(span, start=word.generated.start, end=word.generated.end)
        related.append(span)
    found = replace(found, related=tuple(related)) if found.related else found
    if found.start < GENERATED_AT and found.end < GENERATED_AT:
        return found
    word = writer(found.start if found.start >= GENERATED_AT else found.end)
    if word is None or word.generated is None:
        return found
    fixes = tuple(fix for fix in found.fixes if all(edit.end < GENERATED_AT for edit in fix.edits))
    return replace(
        found,
        start=word.generated.start,
        end=word.generated.end,
        message=f"{found.message} [`{word.text}` is written by {word.generated.origin}]",
        fixes=fixes,
    )


@dataclass(frozen=True)
class Fill:
    """A `$NAME` of a command line that holds the value the host set (`MAX=8192` earlier in
    the script): the word has the value, its characters on the reference `start`..`end`;
    `value_start`..`value_end` is where the value is written, or, when that is another
    file (a compose file's `.env`), `place` is, and they are the reference's span."""

    name: str
    start: int
    end: int
    value_start: int
    value_end: int
    place: Place | None = None

    def mapped(self, start_of: Callable[[int], int], end_of: Callable[[int], int]) -> Fill:
        return replace(
            self,
            start=start_of(self.start),
            end=end_of(self.end),
            value_start=start_of(self.value_start),
            value_end=end_of(self.value_end),
        )


def filled_references(invocation: Invocation, text: str) -> tuple[tuple[int, int, Word], ...]:
    """The references of the command line's words that hold a value filled in (`$MAX` the
    script set, a task's `envs:`, a compose file's `.env`; in the args and the values of
    the environment): each with its span in `text` and its word."""
    values = (var.value for var in invocation.environ if var.value is not None)
    return tuple(
        (at, to, word)
        for word in (*invocation.args, *values)
        for at, to in zip(word.starts, word.ends, strict=False)
        if to - at > 1 and _reference(text, at)
    )


def on_filled_text(
    found: Finding, references: Sequence[tuple[int, int, Word]], fills: Sequence[Fill]
) -> Finding:
    """A finding of a command line whose words hold values filled in for `references`
    (`filled_references`): one on a reference points at where its value is written
    (`fills`), and a fix never writes over the reference, which would put a literal in
    place of the variable unseen: such fixes are dropped (one that deletes every word the
    reference holds, the reference with them, is kept)."""
    held: dict[tuple[int, int], dict[int, Word]] = {}
    if found.fixes:
        for at, to, word in references:
            held.setdefault((at, to), {})[id(word)] = word
    fixes = tuple(
        fix
        for fix in found.fixes
        if not any(
            _writes_over(edit, at, to, words)
            for edit in fix.edits
            for (at, to), words in held.items()
        )
    )
    related = tuple(
        Related(fill.value_start, fill.value_end, _takes_value(fill), fill.place)
        for fill in fills
        if fill.start < found.end and found.start < fill.end
    )
    if fixes == found.fixes and not related:
        return found
    return replace(found, fixes=fixes, related=found.related + related)


def _writes_over(edit: TextEdit, at: int, to: int, words: dict[int, Word]) -> bool:
    """Whether `edit` changes the reference `at`..`to` other than by deleting all the words
    on it: it overlaps it, inserts inside it, or is an empty deletion at its start (a
    deletion of characters that all lie on the reference, such as one of the two words
    a compose `${ARGS}` holds)."""
    if edit.start == edit.end:
        touches = at < edit.start < to or (edit.start == at and not edit.new_text)
    else:
        touches = edit.start < to and at < edit.end
    if not touches:
        return False
    return bool(edit.new_text.strip()) or not all(
        edit.start <= word.start and word.end <= edit.end for word in words.values()
    )


def _takes_value(fill: Fill) -> str:
    if fill.place is None:
        return f"`${fill.name}` takes its value here"
    return f"`{fill.name}` takes its value here, unless the shell that runs compose sets it"


def _reference(text: str, at: int) -> bool:
    """Whether `text[at]` starts a variable reference (`$NAME`, `${…}`, `$(NAME)`, a
    Makefile recipe's `$$NAME`), not an ANSI-C string."""
    if text.startswith("$$", at):
        at += 1
    return (
        at + 1 < len(text) and text[at] == "$" and (text[at + 1] in "{(_" or text[at + 1].isalpha())
    )


@dataclass(frozen=True)
class NodeGroup:
    """Several nodes that form one vLLM instance, as a host says it (`sources.node_groups`
    reads it): a LeaderWorkerSet group whose leader starts Ray, a Slurm job of `--nodes`
    that starts Ray, a launch with `--nnodes`."""

    nodes: int
    #: How the instance spans the nodes: "ray" (the leader starts a Ray cluster of the
    #: group, which vLLM uses with `--distributed-executor-backend ray`) or "nnodes"
    #: (vLLM's own multi-node launch, `--nnodes`/`--node-rank`).
    launcher: str
    #: Where the host says it ("LeaderWorkerSet leaderWorkerTemplate.size", "#SBATCH --nodes").
    origin: str
    #: The GPUs of the whole group, when the host states each node's.
    gpus: int | None = None


@dataclass(frozen=True)
class GpuClaim:
    """What a host writes about the GPUs one start of vLLM gets, as written: a count
    (`nvidia.com/gpu: 8`), a model (`cloud.google.com/gke-accelerator: nvidia-h100-80gb`)
    or both (`#SBATCH --gres=gpu:h100:8`). `start`/`end` delimit the text that says it
    (-1 when it is not in the document); `vllm.hardware` makes a target of the claims."""

    origin: str
    start: int
    end: int
    count: int | None = None
    name: str | None = None
    #: "nvidia" or "amd" where the host's resource name says so (`amd.com/gpu`).
    vendor: str | None = None
    #: The nodes this start spans with the others of its group (`count` stays per node).
    group: NodeGroup | None = None

    def mapped(self, start_of: Callable[[int], int], end_of: Callable[[int], int]) -> GpuClaim:
        """The same claim with its offsets passed through a frame's maps."""
        if self.start < 0:
            return self
        return replace(self, start=start_of(self.start), end=end_of(self.end))


@dataclass(frozen=True)
class EnvVar:
    """One environment variable a host sets for a start of vLLM, as written: `name` is the
    name's text and span, `value` the value as vLLM's process receives it (a word with
    `unresolved` parts when the host fills it in: `valueFrom`, `$(VAR)`, `${VAR}`), None
    when the host names the variable without a value here (a secret, `valueFrom`, a bare
    compose `- NAME` passed through from the shell). `origin` says which host syntax wrote
    it (`env`, `environment`, `ENV`, `export`, `prefix`, …)."""

    name: Word
    value: Word | None
    origin: str

    @property
    def known(self) -> bool:
        """The value is known as written (no part filled in elsewhere)."""
        return self.value is not None and self.value.resolved

    def moved(self, by: int) -> EnvVar:
        value = None if self.value is None else self.value.moved(by)
        return EnvVar(self.name.moved(by), value, self.origin)

    def shifted(self, mapping: Callable[[int], int]) -> EnvVar:
        value = None if self.value is None else self.value.shifted(mapping)
        return EnvVar(self.name.shifted(mapping), value, self.origin)

    def relocated(self, move: Callable[[Word], Word]) -> EnvVar:
        """The same setting with its words moved by `move` (a relocation to the document)."""
        value = None if self.value is None else move(self.value)
        return EnvVar(move(self.name), value, self.origin)


def assignment(word: Word, origin: str) -> EnvVar:
    """`NAME=value` written as one word (a compose list item, `env NAME=value`, a
    Dockerfile `ENV` pair): its name and its value as two words; a word without `=` is a
    name whose value is not written here (compose passes the shell's through)."""
    at = word.text.find("=")
    if at <= 0:
        return EnvVar(word, None, origin)
    name = Word(word.text[:at], word.starts[0], word.ends[at - 1], word.starts[:at], word.ends[:at])
    rest = at + 1
    if rest >= len(word.text):
        return EnvVar(name, Word("", word.end, word.end, (), (), word.unresolved), origin)
    value = Word(
        word.text[rest:],
        word.starts[rest],
        word.end,
        word.starts[rest:],
        word.ends[rest:],
        word.unresolved,
        word.quoting,
    )
    return EnvVar(name, value, origin)


@dataclass(frozen=True)
class ModelRef:
    """The model an operator hands vLLM from a field of its own (KubeAI `spec.url`, KServe
    `storageUri`/`model.uri`, Ray `model_source`) rather than from the arguments the file
    shows: `name` is what vLLM receives as `--model` (the `hf://` scheme removed),
    `start`/`end` the field's value. Arguments that set the model win over it."""

    name: str
    start: int
    end: int
    origin: str


#: Hosts whose written environment is all vLLM gets, besides the image's own (`envFrom`,
#: `env_file` open it): a variable missing there is missing where vLLM runs.
CLOSED_SOURCES = frozenset({"kubernetes", "compose", "helm"})


@dataclass(frozen=True)
class Break:
    """Where the command line a document writes is not what its host runs: a line the
    shell reads as a command of its own (` \\ --flag` for a continuation, the flags after a
    `docker run … IMAGE` line without its `\\`), an exec form Docker runs as a shell
    string, a placeholder the shell reads as redirections. `runs` says what really runs;
    `fatal` when vLLM then never starts (else it starts without what follows); `edits`
    repair it when the repair is unambiguous."""

    start: int
    end: int
    runs: str
    fatal: bool
    edits: tuple[TextEdit, ...] = ()

    def moved(self, by: int) -> Break:
        edits = tuple(TextEdit(e.start + by, e.end + by, e.new_text) for e in self.edits)
        return replace(self, start=self.start + by, end=self.end + by, edits=edits)


@dataclass
class Invocation:
    """One start of vLLM. `args` are what vLLM's parser receives after `vllm serve` (or
    after `-m vllm.entrypoints.openai.api_server`): the positional model included.
    `start`/`end` span the executable word (`vllm`, `python3`, the image), or the first
    argument where the host has none (an `args:` list, a compose `command:`)."""

    #: The host syntax: shell, kubernetes, compose, dockerfile, markdown, workflow, helm,
    #: python, launcher, dstack, skypilot, triton (`argv --format json` prints it as "source").
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
    #: What the host says about the GPUs this start gets, in the order it says it.
    gpus: tuple[GpuClaim, ...] = ()
    #: The environment the host gives this start, in the order it sets it (a later entry of
    #: one name wins). Only what the document writes: the image's and the shell's own
    #: variables are not known.
    environ: tuple[EnvVar, ...] = ()
    #: True when the host adds variables that are not written here (Kubernetes `envFrom`,
    #: compose `env_file`, a sourced file): no claim that a name is missing.
    environ_open: bool = False
    #: True when the host says the written environment is all this start gets, whatever
    #: its kind (Slurm's `--export=NONE`, or a list without `ALL`).
    environ_closed: bool = False
    #: The model the host passes outside `args` (operators), when it names one.
    model: ModelRef | None = None
    #: Where the written command line breaks before it reaches vLLM (`Break`).
    breaks: tuple[Break, ...] = ()

    #: The Python constructor whose keyword arguments `args` stand for (`EngineArgs`,
    #: `AsyncEngineArgs`, `LLM`: Ray Serve's `engine_kwargs`, Triton's `model.json`, a
    #: Python call), None for a command line: its fields, not argparse, decide which
    #: names exist (`vllm.engine_args`).
    keywords_of: str | None = None
    #: The `$NAME`s of `args` that hold a value the host itself set (`Fill`).
    fills: tuple[Fill, ...] = ()

    @property
    def environ_complete(self) -> bool:
        """The written environment is all vLLM gets besides the image's own: a host that
        passes nothing else (a Kubernetes container, a compose service) or says so
        (`environ_closed`), and adds nothing unwritten (`environ_open`)."""
        closed = self.source in CLOSED_SOURCES or self.environ_closed
        return closed and not self.environ_open

    def environment(self) -> dict[str, EnvVar]:
        """Name → the setting that wins (the last of its name)."""
        return {var.name.text: var for var in self.environ}

    @cached_property
    def positions(self) -> dict[int, int]:
        """`id(word)` → the word's place in `args`, for fixes that remove words (one scan,
        not one per fix: a command line of 40,000 unknown flags has 40,000 fixes)."""
        return {id(word): at for at, word in enumerate(self.args)}

    def moved(self, by: int) -> Invocation:
        """The same start `by` characters further on, with fresh lists (callers may set
        fields of what they are given)."""
        return replace(
            self,
            start=self.start + by,
            end=self.end + by,
            args=[word.moved(by) for word in self.args],
            insert_at=None if self.insert_at is None else self.insert_at + by,
            gpus=tuple(claim.mapped(by.__add__, by.__add__) for claim in self.gpus),
            environ=tuple(var.moved(by) for var in self.environ),
            model=None
            if self.model is None
            else replace(self.model, start=self.model.start + by, end=self.model.end + by),
            breaks=tuple(found.moved(by) for found in self.breaks),
            fills=tuple(fill.mapped(by.__add__, by.__add__) for fill in self.fills),
        )


def elsewhere(text: str, offset: int) -> int:
    """The offset in a document of length `len(text)` that stands for `offset` in another
    file: past the document's end, so nothing found there is this document's."""
    return len(text) + 1 + offset


def own_findings(findings: Iterable[Finding], text: str) -> list[Finding]:
    """The findings on the document's own text, without the fixes that would edit text
    another file wrote (`elsewhere`), each once (one value may reach several command lines,
    as when two of a chart's templates print it)."""
    length = len(text)
    kept: list[Finding] = []
    seen: set[tuple[str, int, int, str]] = set()
    for found in findings:
        key = (found.code, found.start, found.end, found.message)
        if found.start > length or found.end > length or key in seen:
            continue
        seen.add(key)
        fixes = tuple(f for f in found.fixes if all(e.end <= length for e in f.edits))
        kept.append(found if fixes == found.fixes else replace(found, fixes=fixes))
    return kept
