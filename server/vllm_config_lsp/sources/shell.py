"""vLLM server starts in shell text, read with tree-sitter-bash.

Shell is the host most other hosts end in (Kubernetes `sh -c` strings, compose `command:`,
Dockerfile shell form, SLURM scripts, Markdown fences), so this module owns the shell rules:
which command starts vLLM (through `exec`, `srun`, `ray job submit --`, `docker run IMAGE`, a
bash array, `bash -c '...'`, `eval "..."`), and what argv each word becomes after quote
removal, with the source span of every character so diagnostics land on what the user wrote.

Words come from the tree-sitter-bash grammar, never from a tokenizer of our own: it already
knows continuations, redirections, heredocs, comments and nesting, and it recovers from
half-typed input, which an editor sees all the time. What remains here is quote removal inside
one word (the grammar marks where quotes and expansions are; it does not say what the
program receives) and the knowledge of which wrappers run which command.

A script often builds its command line before it runs it: a string (`CMD="vllm serve m"`,
`CMD+=" --flag"` under an `if`) run by `eval "$CMD"`, `sh -c "$CMD"` or a bare `$CMD`, or an
array (`ARGS+=(--flag)`) run by `"${ARGS[@]}"`. `_Values` follows what the variable holds
where it is run, arm by arm, and the words keep the offsets of the assignments that wrote
them.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import accumulate

import tree_sitter_bash
from tree_sitter import Node, Tree

from vllm_config_lsp.document.text_memo import text_memo
from vllm_config_lsp.sources import (
    argv,
    gpu_claims,
    node_groups,
    shell_breaks,
    shell_certain,
    task_env,
)
from vllm_config_lsp.sources.invocation import (
    EnvVar,
    Fill,
    GpuClaim,
    Invocation,
    Word,
    assignment,
)
from vllm_config_lsp.sources.parsers import per_thread
from vllm_config_lsp.sources.source_map import SourceMap

__all__ = [
    "Heredoc",
    "argv_invocations",
    "command_words",
    "container_invocations",
    "find_invocations",
    "heredocs",
    "pinned_version",
    "plain_parameters",
    "with_parameters",
]

#: `bash -c "eval '...'"` nests quoting; real scripts stop at two or three levels, and the cap
#: keeps a pathological input linear (each level re-parses at most its own text).
_MAX_DEPTH = 8

#: Node types that expand at run time; their text is kept as written.
_EXPANSIONS = frozenset(
    {
        "simple_expansion",
        "expansion",
        "command_substitution",
        "arithmetic_expansion",
        "process_substitution",
    }
)
#: Unquoted, these word-split into any number of arguments (arithmetic yields one number).
_SPLITTING = frozenset({"simple_expansion", "expansion", "command_substitution"})
#: `$@`, `${@:2}`, `${ARR[@]}`: many words even inside double quotes.
_ALL_ELEMENTS = re.compile(r"\$(?:@|\{@|\{[A-Za-z_][A-Za-z0-9_]*\[@\])")

#: Every command that can start vLLM names it or a container runtime somewhere in its text.
_STARTERS = (b"vllm", b"docker", b"podman")
#: Commands that run a string as a command line (`eval "$CMD"`, `bash -c "$CMD"`).
_RUNNERS = frozenset({b"eval", b"sh", b"bash", b"zsh", b"dash", b"ksh", b"ash"})
_PIN = re.compile(r"vllm(?:\[[^\]]*\])?==([0-9][0-9A-Za-z.+!-]*)")
#: A vLLM wheel installed by its file name or URL (PEP 427
#: `{distribution}-{version}(-{build})?-{python}-{abi}-{platform}.whl`), its local version
#: kept (`vllm-0.6.0+rocm614-cp310-cp310-linux_x86_64.whl`, `%2B` in a URL).
_WHEEL = re.compile(
    r"(?:^|/)vllm-([0-9][0-9A-Za-z.!]*(?:(?:\+|%2[Bb])[0-9A-Za-z.]+)?)"
    r"-(?:[0-9][^-/]*-)?[^-/]+-[^-/]+-[^-/]+\.whl"
)
_VARIABLE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
_BRACE_PROBE = re.compile(r"(\{[0-9]*(?:\.\.[0-9]*)?)([^\x00-\x7f])")
#: An inline comment written as a command substitution of nothing but a comment, a word of
#: its own in a command line (`--dtype auto `# why` \`): bash finds the closing backtick
#: before it reads the inside, which runs no command and substitutes nothing, so the word
#: goes. tree-sitter-bash reads the `#` as a comment to the end of the line instead (the
#: closing backtick and the rest of the command line swallowed into one word).
_BACKTICK_COMMENT = re.compile(r"(?<!\S)`[ \t]*#[^`\n]*`(?=\s|\\$|\\\n|$)", re.M)
_DEFAULTED = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*:?[-=]([^${}`\"']*)\}")
_ANSI_C = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
#: 1 for a byte that starts a UTF-8 character, 0 for a continuation byte.
_LEAD_BYTES = bytes(0 if 0x80 <= byte < 0xC0 else 1 for byte in range(256))
_OCTAL = "01234567"
_HEX = "0123456789abcdefABCDEF"
_HEX_LIMITS = {"x": 2, "u": 4, "U": 8}


def find_invocations(script: str, *, source: str = "shell") -> list[Invocation]:
    """Every vLLM server start in `script`, in document order, with offsets into `script`.

    A `pip install vllm==X` anywhere in the script (or in a string it runs) pins the release
    of every start found, since the script installs what it then runs."""
    # Fresh invocations every call (callers may set fields); the words are immutable.
    found, containers = _find_invocations(script, source)
    # What the whole script says is looked for once, not once per start (a script of
    # 10,000 starts scanned its text three times per start: 8 s per keystroke).
    batch = bool(found) and "#SBATCH" in script
    steps = bool(found) and "--export" in script
    job = gpu_claims.sbatch(script) if batch else ()
    exported = _sbatch_export(script) if steps else None
    out = []
    for invocation in found:
        start = replace(
            invocation,
            args=list(invocation.args),
            gpus=invocation.gpus  # a container's `--gpus`
            + gpu_claims.visible_devices(script, invocation)
            + job
            + (_group(script, invocation, job) if batch else ()),
            breaks=invocation.breaks + shell_breaks.breaks(script, invocation),
        )
        if invocation.start not in containers:
            start = _with_environ(script, start, exported, steps)
        out.append(start)
    return out


def _with_environ(
    script: str, invocation: Invocation, job: _Export | None, steps: bool
) -> Invocation:
    """The start with the environment its script gives it (`_environ_of`), through Slurm's
    `--export` where the batch job (`#SBATCH --export`) or the step (`srun --export`)
    states one: ALL passes the caller's environment and the listed variables; NONE, or a
    list without ALL, passes only the listed ones (a bare name takes the value the caller
    has), and the start's environment is then all that is written. `steps`: the script
    has `--export` options."""
    own = _environ_of(script, invocation.start)
    listed = job.listed if job is not None else ()
    # One copy of the exports per start, not one per step: a script's starts each take
    # every export before them (`engine._EnvironReader` reads what they share once).
    environ = own if not listed and not invocation.environ else (*listed, *own, *invocation.environ)
    closed = job is not None and not job.everything
    step = _step_export(script, invocation.start) if steps else None
    if step is not None and step.everything:
        environ = (*environ, *step.listed)
    elif step is not None:
        environ = (*_passed(step.listed, environ), *invocation.environ)
        closed = True
    return replace(
        invocation,
        environ=environ,
        environ_open=invocation.environ_open or (job is not None and job.everything),
        environ_closed=closed,
    )


@dataclass(frozen=True)
class _Export:
    """A Slurm `--export` value: the variables it lists, and whether the caller's whole
    environment goes too (`ALL`) or only those (`NONE`, a list without `ALL`)."""

    listed: tuple[EnvVar, ...]
    everything: bool


def _export(word: Word, origin: str) -> _Export:
    """`ALL,VLLM_X=1,HF_HOME`: comma-separated, as Slurm splits it."""
    listed: list[EnvVar] = []
    everything = False
    at = 0
    for part in word.text.split(","):
        piece = _piece(word, at, at + len(part))
        at += len(part) + 1
        if part in ("ALL", "NONE", "NIL") or not part:
            everything = everything or part == "ALL"
            continue
        var = assignment(piece, origin)
        if _NAME.fullmatch(var.name.text):
            listed.append(var)
    return _Export(tuple(listed), everything)


def _piece(word: Word, start: int, end: int) -> Word:
    """Characters `[start, end)` of a word, with their positions."""
    starts, ends = word.starts[start:end], word.ends[start:end]
    first = starts[0] if starts else word.end
    return Word(word.text[start:end], first, ends[-1] if ends else first, starts, ends)


def _passed(listed: tuple[EnvVar, ...], caller: tuple[EnvVar, ...]) -> tuple[EnvVar, ...]:
    """What `--export=NAME` passes: a bare name takes the caller's value of it."""
    known = {var.name.text: var for var in caller}
    out = []
    for var in listed:
        given = known.get(var.name.text)
        if var.value is None and given is not None:
            var = EnvVar(var.name, given.value, var.origin)
        out.append(var)
    return tuple(out)


#: `#SBATCH --export=…` (the last statement wins, as sbatch reads its options).
_SBATCH_EXPORT = re.compile(r"^#SBATCH[ \t]+(?:[^\n]*?[ \t])?--export[= ](?P<value>[^\s]+)", re.M)


def _sbatch_export(script: str) -> _Export | None:
    found = None
    for match in _SBATCH_EXPORT.finditer(script):
        found = match
    if found is None:
        return None
    start, end = found.span("value")
    word = Word(
        found.group("value"), start, end, tuple(range(start, end)), tuple(range(start + 1, end + 1))
    )
    return _export(word, "sbatch --export")


def _step_export(script: str, start: int) -> _Export | None:
    """The `--export` of the `srun` command the start at `start` runs under, if any."""
    steps = _environment_sites(script)[2]
    at = _innermost(_site_index(script).steps, start)
    return None if at is None else _export(steps[at][2], "srun --export")


def pinned_version(script: str) -> str | None:
    """The release a script installs (`pip install vllm==X`, the first one), whether or not
    it starts vLLM itself: a launcher's setup script pins what its run script starts."""
    if "vllm" not in script:
        return None
    scan = _Scan("shell")
    _Analyzer(script, scan, {}).run(0)
    return scan.pins[0] if scan.pins else None


def _group(script: str, invocation: Invocation, job: tuple[GpuClaim, ...]) -> tuple[GpuClaim, ...]:
    """The nodes a batch job's start spans (`sources.node_groups`)."""
    claim = node_groups.slurm(script, invocation, job[0].count if job else None)
    return (claim,) if claim is not None else ()


#: The export forms: `export`, `declare -x`, `typeset -x`.
_EXPORTS = frozenset({"export"})
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _environ_of(script: str, start: int) -> tuple[EnvVar, ...]:
    """The environment a start at `start` gets from its script: every `export NAME=value`
    written before it (in document order; a bare `export NAME` takes the value of the last
    `NAME=value` before it), then the assignments in front of its command (`NAME=value
    vllm serve`, `env NAME=value …`). Functions, subshells and `unset` are not followed."""
    exports, commands, _steps = _environment_sites(script)
    index = _site_index(script)
    found = exports[: bisect_right(index.export_ends, start)]
    at = _innermost(index.commands, start)
    return found if at is None else found + commands[at][2]


@dataclass(frozen=True)
class _Spans:
    """Spans in document order (an outer command before the commands inside it): their
    starts and ends, and the furthest end of any span up to each (to stop looking back)."""

    firsts: list[int]
    lasts: list[int]
    reach: list[int]

    @classmethod
    def of(cls, spans: Sequence[tuple[int, int, object]]) -> _Spans:
        reach, furthest = [], -1
        for _first, last, _ in spans:
            furthest = max(furthest, last)
            reach.append(furthest)
        return cls([first for first, _, _ in spans], [last for _, last, _ in spans], reach)


@dataclass(frozen=True)
class _SiteIndex:
    """`_environment_sites` indexed, so that each start finds its sites by bisection."""

    export_ends: list[int]
    commands: _Spans
    steps: _Spans


@text_memo
def _site_index(script: str) -> _SiteIndex:
    exports, commands, steps = _environment_sites(script)
    return _SiteIndex(
        [var.name.end for var in exports],
        _Spans.of(commands),
        _Spans.of(steps),
    )


def _innermost(spans: _Spans, start: int) -> int | None:
    """The index of the innermost span holding `start` (the latest-starting one), or None."""
    at = bisect_right(spans.firsts, start) - 1
    while at >= 0 and spans.reach[at] > start:
        if spans.lasts[at] > start:
            return at
        at -= 1
    return None


_Sites = tuple[
    tuple[EnvVar, ...],
    tuple[tuple[int, int, tuple[EnvVar, ...]], ...],
    tuple[tuple[int, int, Word], ...],
]


@text_memo
def _environment_sites(script: str) -> _Sites:
    """The exports of a script, each command's prefix assignments with its span, and each
    `srun` command's `--export` value with its span."""
    analyzer = _Analyzer(script, _Scan("shell"), {})
    plain: dict[str, Word | None] = {}
    exports: list[EnvVar] = []
    commands: list[tuple[int, int, tuple[EnvVar, ...]]] = []
    steps: list[tuple[int, int, Word]] = []
    for node in analyzer.nodes():
        if node.type == "variable_assignment" and node.parent is not None:
            if node.parent.type == "program":
                var = _assignment(analyzer, node, "assignment")
                if var is not None:
                    plain[var.name.text] = var.value
        elif node.type == "declaration_command" and node.children:
            if analyzer.text[slice(*analyzer.span(node.children[0]))] not in _EXPORTS:
                continue
            for child in node.children[1:]:
                if child.type == "variable_assignment":
                    var = _assignment(analyzer, child, "export")
                    if var is not None:
                        exports.append(var)
                        plain[var.name.text] = var.value
                elif child.type == "variable_name":
                    name = _plain_word(analyzer, child)
                    exports.append(EnvVar(name, plain.get(name.text), "export"))
        elif node.type == "command":
            prefix = _prefix(analyzer, node)
            start, end = analyzer.span(node)
            if prefix:
                commands.append((start, end, tuple(prefix)))
            export = _srun_export(analyzer, node)
            if export is not None:
                steps.append((start, end, export))
    return tuple(exports), tuple(commands), tuple(steps)


def _srun_export(analyzer: _Analyzer, node: Node) -> Word | None:
    """The value of `srun --export=VALUE` (or `--export VALUE`), of a command run by srun."""
    name = node.child_by_field_name("name")
    if name is None or analyzer.text[slice(*analyzer.span(name))].rsplit("/", 1)[-1] != "srun":
        return None
    words = [analyzer.word(child) for child in node.children_by_field_name("argument")]
    for index, word in enumerate(words):
        if word.text.startswith("--export="):
            return _piece(word, len("--export="), len(word.text))
        if word.text == "--export" and index + 1 < len(words):
            return words[index + 1]
        if not word.text.startswith("-"):
            return None  # the command srun runs: its own options are not srun's
    return None


def _prefix(analyzer: _Analyzer, node: Node) -> list[EnvVar]:
    """`A=1 B=2 cmd …` and `env A=1 cmd …`: the assignments a command runs with."""
    found: list[EnvVar] = []
    after_env = False
    for index, child in enumerate(node.children):
        field_name = node.field_name_for_child(index)
        if child.type == "variable_assignment":
            var = _assignment(analyzer, child, "prefix")
            if var is not None:
                found.append(var)
        elif field_name == "name":
            if analyzer.text[slice(*analyzer.span(child))] != "env":
                break
            after_env = True
        elif after_env and field_name == "argument":
            word = analyzer.word(child)
            name, _, _ = word.text.partition("=")
            if "=" not in word.text or not _NAME.fullmatch(name) or word.splat:
                if word.text.startswith("-"):
                    continue  # `env -u X`, `env -i`
                break
            found.append(assignment(word, "prefix"))
        elif field_name is not None:
            break
    return found


def _plain_word(analyzer: _Analyzer, node: Node) -> Word:
    start, end = analyzer.span(node)
    text = analyzer.text[start:end]
    return Word(text, start, end, tuple(range(start, end)), tuple(range(start + 1, end + 1)))


def _assignment(analyzer: _Analyzer, node: Node, origin: str) -> EnvVar | None:
    name_node = node.child_by_field_name("name")
    if name_node is None:
        return None
    name = _plain_word(analyzer, name_node)
    value_node = node.child_by_field_name("value")
    if value_node is None:
        _, end = analyzer.span(node)
        return EnvVar(name, Word("", end, end, (), ()), origin)
    if value_node.type == "array":
        return EnvVar(name, None, origin)
    return EnvVar(name, analyzer.word(value_node), origin)


@text_memo
def _find_invocations(script: str, source: str) -> tuple[tuple[Invocation, ...], frozenset[int]]:
    """`find_invocations`, cached by text: hosts ask again for the blocks and strings that
    a keystroke elsewhere in the document did not change. A long script is read in
    chunks (`_collected_in_chunks`)."""
    scan = _Scan(source)
    analyzer = _Analyzer(script, scan, {})
    if len(script) >= _CHUNKED_FROM:
        analyzer.process(*_collected_in_chunks(script), 0)
    else:
        analyzer.run(0)
    found = sorted(scan.invocations, key=lambda inv: inv.start)
    if scan.pins:
        for invocation in found:
            invocation.pinned_version = scan.pins[0]
    return tuple(found), frozenset(scan.containers)


#: Scripts this long are read chunk by chunk: tree-sitter-bash re-parses a whole script
#: on every edit (its incremental parsing reuses nothing here), so a keystroke in a
#: 2,000-line script would parse and decode all of it.
_CHUNKED_FROM = 8192
#: Where a chunk may start: a line with text at column 0 after a blank line.
_CHUNK_START = re.compile(r"(?:\A|(?<=\n))[ \t]*\r?\n(?=[^ \t\r\n])")

_Collected = tuple[list[list[Word]], list[tuple[str, Word | None]]]


def _collected_in_chunks(script: str) -> _Collected:
    """What `_Analyzer.collect` finds in `script`, chunk by chunk. A chunk that parses
    without an error or a missing token is complete statements, so bash reads what follows
    it from the top level, as if it started the file; one that does not (an open `if`, a
    string or a closed heredoc running over the blank line) is joined with the next ones until it
    does. Each chunk is cached by its text, in its own offsets."""
    cuts = [0, *(match.end() for match in _CHUNK_START.finditer(script)), len(script)]
    units: list[list[Word]] = []
    assignments: list[tuple[str, Word | None]] = []
    index = 0
    while index < len(cuts) - 1:
        step = 1
        while True:
            stop = min(index + step, len(cuts) - 1)
            chunk = script[cuts[index] : cuts[stop]]
            (chunk_units, chunk_assignments), complete = _placed(chunk, cuts[index])
            if complete or stop == len(cuts) - 1:
                break
            step *= 2  # doubling keeps the work linear
        units.extend(chunk_units)
        assignments.extend(chunk_assignments)
        index = stop
    return units, assignments


def _placed(text: str, offset: int) -> tuple[_Collected, bool]:
    """`_chunk` at `offset` in the script (the first chunk is `_chunk`'s own result, not
    remembered twice)."""
    return _moved_chunk(text, offset) if offset else _chunk(text)


@text_memo
def _moved_chunk(text: str, offset: int) -> tuple[_Collected, bool]:
    """`_chunk` moved to `offset` (cached too: the chunks before an edit do not move, and
    moving every word of a long script costs more than reading one chunk)."""
    (units, assignments), complete = _chunk(text)
    units = [_moved(unit, offset) for unit in units]
    assignments = [(name, word and word.moved(offset)) for name, word in assignments]
    return (units, assignments), complete


class _ArrayUnit(list[Word]):
    """The items of an array literal that names vLLM (`CMD=(vllm serve m)`): a start
    where it is written, unless the script runs it (`"${CMD[@]}"`), where it is read with
    what the script appended to it by then (`_Values`)."""

    def __init__(self, words: Iterable[Word], *, name: str) -> None:
        super().__init__(words)
        self.name = name


def _moved(unit: list[Word], offset: int) -> list[Word]:
    words = [word.moved(offset) for word in unit]
    return _ArrayUnit(words, name=unit.name) if isinstance(unit, _ArrayUnit) else words


@text_memo
def _chunk(text: str) -> tuple[_Collected, bool]:
    """A chunk's commands and assignments, and whether it is complete statements: no
    error, and every heredoc the grammar found closed. (A heredoc never closed in the
    script, as while one is being typed, still ends with its chunk: the grammar closes it
    there. Bash would read the rest of the file as its body.)"""
    analyzer = _Analyzer(text, _Scan("shell"), {})
    root = analyzer.tree.root_node
    complete = not root.has_error and (
        b"<<" not in analyzer.data
        or all(_closed(node) for node in analyzer.nodes() if node.type == "heredoc_redirect")
    )
    return analyzer.collect(), complete


def _closed(heredoc: Node) -> bool:
    return any(child.type == "heredoc_end" and not child.is_missing for child in heredoc.children)


@dataclass(frozen=True)
class Heredoc:
    """The text a here-document feeds its command, as the command reads it: `<<-` strips
    each line's leading tabs; an unquoted delimiter (`<<EOF`) expands `$VAR`, `${…}`,
    `$(…)` and backticks (kept as written, `expansions` gives their document spans) and
    removes the backslash of `\\$`, `` \\` ``, `\\\\` and `\\`-newline; a quoted one
    (`<<'EOF'`, `<<"EOF"`, `<<\\EOF`) is the text as written. `target` is the file the
    command writes it to (`cat > deploy.yaml <<EOF`, `cat <<EOF > f`, `tee f <<EOF`), None
    when it goes elsewhere (`kubectl apply -f - <<EOF`, `cat <<EOF | kubectl apply -f -`)."""

    text: str
    source_map: SourceMap
    expansions: tuple[tuple[int, int], ...]
    target: str | None
    #: Where the redirection is (`<<EOF`): a file it writes is written there.
    start: int


def heredocs(script: str) -> list[Heredoc]:
    """Every here-document of the script, in document order (those in a string the script
    runs, `bash -c '…'`, are not read)."""
    return list(_heredocs(script)) if "<<" in script else []


@text_memo
def _heredocs(script: str) -> tuple[Heredoc, ...]:
    """`heredocs`, cached by text (the script is parsed whole: a keystroke elsewhere asks
    again)."""
    analyzer = _Analyzer(script, _Scan("shell"), {})
    found: list[Heredoc] = []
    for node in analyzer.nodes():
        if node.type == "heredoc_redirect":
            heredoc = analyzer.heredoc(node)
            if heredoc is not None:
                found.append(heredoc)
    return tuple(found)


def command_words(text: str, *, quoting: str = "shell") -> list[Word]:
    """The words of the first simple command in `text` (a compose `command:` string, a
    Dockerfile shell-form line, an env var of flags): no executable is needed, the first
    word is just the first argument. Redirections and anything after `;`, `|`, `&&` are
    not part of it; offsets index `text`."""
    analyzer = _Analyzer(text, _Scan("shell"), {}, quoting=quoting)
    for node in analyzer.nodes():
        if node.type == "command":
            return analyzer.command_argv(node)
    return []


def argv_invocations(
    words: Sequence[Word], *, source: str, image: str | None = None
) -> list[Invocation]:
    """The vLLM start in an exec-form argv (a container's command + args, a Dockerfile's
    ENTRYPOINT + CMD, a Python argv list), as `sources.argv` finds it; a script it runs
    (`sh -c '...'`) is read as shell and mapped back through the string's quoting."""
    return _invocations(argv.match(words, image=image), source, image, None)


def container_invocations(
    image: str | None,
    command: Sequence[Word],
    *,
    source: str,
    entrypoint: Sequence[Word] | None = None,
    anchor: tuple[int, int] | None = None,
    runs: str | None = None,
) -> list[Invocation]:
    """The vLLM start of a container run from `image` with `command` after its entrypoint
    (`argv.container`, `runs` its entrypoint when known otherwise); an image start with no
    argument spans `anchor` (the image)."""
    found = argv.container(image, command, entrypoint=entrypoint, runs=runs)
    return _invocations(found, source, image, anchor)


def _invocations(
    found: argv.Match, source: str, image: str | None, anchor: tuple[int, int] | None
) -> list[Invocation]:
    if isinstance(found, argv.Start):
        return [argv.invocation(found, source, anchor=anchor, image=image)]
    if isinstance(found, argv.Script):
        fill = found.image if found.image is not None else image
        return [
            argv.in_container(
                with_parameters(
                    _relocated(invocation, found.script, fill),
                    found.parameters if plain_parameters(found.script.text) else (),
                ),
                found.container,
            )
            for invocation in find_invocations(found.script.text, source=source)
        ]
    return []


#: A positional parameter a `sh -c` script expands as a whole word (`"$@"`, `$1`, `${2}`).
_POSITIONAL = re.compile(r"\$(?:@|\{@\}|([1-9])|\{([1-9])\})")


def with_parameters(invocation: Invocation, parameters: tuple[Word, ...]) -> Invocation:
    """A start of a script with its `"$@"` and `$1`… words replaced by the words the
    script is given, `$0` first (`sh -c 'exec vllm serve "$@"' sh m --port 1`: `$0` is
    `sh`, `"$@"` is `m --port 1`; a mounted ConfigMap script, `sources.kubernetes`), as
    written there; the invocation itself when it has no such word."""
    if len(parameters) < 2 or not any(_positional(word) for word in invocation.args):
        return invocation
    given = parameters[1:]
    args: list[Word] = []
    for word in invocation.args:
        match = _POSITIONAL.fullmatch(word.text) if _positional(word) else None
        if match is None:
            args.append(word)
        elif match.group(1) or match.group(2):
            number = int(match.group(1) or match.group(2))
            args.extend(given[number - 1 : number])
        else:
            args.extend(given)
    last = args[-1] if args else None
    moved = invocation.insert_at is not None and last is not None and last in given
    return replace(
        invocation, args=args, insert_at=last.end if moved and last else invocation.insert_at
    )


#: What makes a script's positional parameters other than its arguments where vLLM starts:
#: a function (its own `$@`), `shift`, `set -- …`/`set WORD` (new ones).
_RESETS = re.compile(
    r"(?m)(?:^|[;&|({\s])(?:shift\b|function\s"
    r"|set(?>(?:[ \t]+[-+][A-Za-z]*o[ \t]+\w+|[ \t]+[-+][A-Za-z]+)*)[ \t]+(?:--|[^-+\s#;&|]))"
    r"|^\s*[\w.:-]+\s*\(\s*\)"
)


def plain_parameters(script: str) -> bool:
    """Whether `$@`/`$1`… are the script's arguments wherever it uses them: no function
    (where they are the function's), no `shift` or `set` giving new ones. Conservative: a
    script that has any of these keeps its `"$@"` unknown."""
    return _RESETS.search(script) is None


def _positional(word: Word) -> bool:
    return bool(_POSITIONAL.fullmatch(word.text)) and word.unresolved == (word.text,)


def _expanded_before(invocation: Invocation, script: Word) -> Invocation:
    """A script string's expansions happened before the shell reads it as a script:
    `CMD="vllm serve --tp '$TP'"` then `eval $CMD` runs `--tp` with the value of `$TP`,
    the single quotes it sits in being read after. A word of the script that holds an
    expansion of the string is as unknown as it (`invocation` is in the string's offsets)."""
    expanded: dict[int, list[str]] = {}  # script character -> the expansions covering it
    room = 4 * len(script.text) + 64  # linear work, whatever the string repeats
    for piece in dict.fromkeys(script.unresolved):
        for at in _occurrences(script.text, piece):
            room -= len(piece)
            if room < 0:
                return invocation
            for index in range(at, at + len(piece)):
                expanded.setdefault(index, []).append(piece)
    if not expanded:
        return invocation

    def kept(word: Word) -> Word:
        pieces = [
            piece
            for index in word.starts
            for piece in expanded.get(index, ())
            if piece not in word.unresolved
        ]
        if not pieces:
            return word
        return replace(word, unresolved=word.unresolved + tuple(dict.fromkeys(pieces)))

    return replace(invocation, args=[kept(word) for word in invocation.args])


def _occurrences(text: str, piece: str) -> Iterator[int]:
    """Where `piece` occurs in `text`, left to right, not overlapping (none if empty)."""
    at = text.find(piece) if piece else -1
    while at >= 0:
        yield at
        at = text.find(piece, at + len(piece))


def _relocated(invocation: Invocation, script: Word, image: str | None = None) -> Invocation:
    """An invocation found in a script string, with the document offsets of the string's
    characters; the container image is filled in when the script named none."""
    return SourceMap.of_word(script).invocation(invocation, image=image)


#: The calling thread's parser (the language server checks on several threads).
_parser = per_thread(tree_sitter_bash.language)


@dataclass
class _Scan:
    """What one `find_invocations` call collects across nested scripts."""

    source: str
    invocations: list[Invocation] = field(default_factory=list)
    pins: list[str] = field(default_factory=list)
    #: The starts `docker run` makes (a container: the script's exports do not reach it).
    containers: set[int] = field(default_factory=set)


class _Builder:
    """The characters of one word as the program receives them, each with its source span."""

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.unresolved: list[str] = []
        self.splat = False

    def add(self, char: str, start: int, end: int) -> None:
        self.chars.append(char)
        self.starts.append(start)
        self.ends.append(end)

    def verbatim(self, text: str, start: int) -> None:
        """An expansion: kept as written, one character per source character."""
        self.chars.append(text)
        self.starts.extend(range(start, start + len(text)))
        self.ends.extend(range(start + 1, start + len(text) + 1))
        self.unresolved.append(text)
        if _ALL_ELEMENTS.match(text):
            self.splat = True


class _Analyzer:
    """One shell text: its tree, offset conversion, word decoding and command analysis."""

    def __init__(
        self,
        text: str,
        scan: _Scan,
        assignments: dict[str, list[Word | None]],
        *,
        quoting: str = "shell",
        image: str | None = None,
    ) -> None:
        self.text = text
        self.scan = scan
        #: Every plain `NAME=value` in the script (nested scripts share it): `$IMAGE`.
        self.assignments = assignments
        self.quoting = quoting
        #: The container a nested script runs in (`docker run --entrypoint bash IMG -c ...`).
        self.image = image
        self.data = text.encode("utf-8", "surrogatepass")

    @cached_property
    def tree(self) -> Tree:
        return _parser().parse(_scanner_safe(self.text).encode("utf-8", "surrogatepass"))

    @cached_property
    def byte_to_char(self) -> list[int] | None:
        return None if len(self.data) == len(self.text) else _byte_map(self.data)

    # -- tree --------------------------------------------------------------------------

    def nodes(self) -> Iterator[Node]:
        """Pre-order walk without recursion (deep nesting must not hit Python's stack).
        Heredoc bodies are data, not commands, and are skipped."""
        stack = [self.tree.root_node]
        while stack:
            node = stack.pop()
            if node.type in ("heredoc_body", "comment"):
                continue
            yield node
            stack.extend(reversed(node.children))

    def _runs_variable(self, node: Node) -> bool:
        """`$CMD …`, `eval "$CMD"`, `sh -c "$CMD"`, `exec $CMD`: a command that may run a
        command line the script built in a variable (`_Values`). A wrapper in front
        (`exec`, `nohup`, `srun`: `argv.WRAPPERS`) runs its tail, so the variable may be
        any of its words; `argv` decides which one starts."""
        name = node.child_by_field_name("name")
        if name is None or b"$" not in self.data[node.start_byte : node.end_byte]:
            return False
        head = self.data[name.start_byte : name.end_byte].rsplit(b"/", 1)[-1]
        return (
            head.lstrip(b'"').startswith(b"$")
            or head in _RUNNERS
            or head.decode(errors="replace") in argv.WRAPPERS
        )

    def _mentions(self, node: Node, needles: Sequence[bytes]) -> bool:
        """Whether the node's source holds any of `needles` (a fast, conservative filter)."""
        text = self.data[node.start_byte : node.end_byte]
        return any(needle in text for needle in needles)

    def char(self, byte: int) -> int:
        return byte if self.byte_to_char is None else self.byte_to_char[byte]

    def span(self, node: Node) -> tuple[int, int]:
        return self.char(node.start_byte), self.char(node.end_byte)

    def run(self, depth: int) -> None:
        """Collect assignments first (a `docker run $IMAGE` may sit in a function defined
        above the assignment), then analyze every command and array that could start
        vLLM."""
        self.process(*self.collect(), depth)

    def collect(self) -> _Collected:
        """The commands and arrays that could start vLLM, as words, and every plain
        `NAME=value` (its value only where it names vLLM, so it can make an image), in
        document order. Only those are decoded into words: a command's words hold its
        nested `$(...)` as written, so decoding every command would be quadratic in the
        nesting."""
        units: list[list[Word]] = []
        assignments: list[tuple[str, Word | None]] = []
        for node in self.nodes():
            if node.type == "command" and (
                self._mentions(node, _STARTERS) or self._runs_variable(node)
            ):
                units.append(self.command_argv(node))
            elif node.type == "variable_assignment":
                value = node.child_by_field_name("value")
                name = node.child_by_field_name("name")
                if value is None or name is None:
                    continue
                if value.type == "array":
                    if self._mentions(value, _STARTERS):
                        items = [self.word(item) for item in value.named_children]
                        key = self.text[slice(*self.span(name))]
                        units.append(_ArrayUnit(self.rejoin(items), name=key))
                elif not any(child.type == "+=" for child in node.children):
                    key = self.text[slice(*self.span(name))]
                    known = self.word(value) if self._mentions(value, (b"vllm",)) else None
                    assignments.append((key, known))
        return units, assignments

    def process(
        self,
        units: list[list[Word]],
        assignments: list[tuple[str, Word | None]],
        depth: int,
    ) -> None:
        for key, known in assignments:
            self.assignments.setdefault(key, []).append(known)
        run = {
            match.group(1)
            for words in units
            if words and (match := _ARRAY.fullmatch(words[0].text)) and words[0].splat
        }
        for words in units:
            self._pin(words)
            if not (isinstance(words, _ArrayUnit) and words.name in run):
                self.analyze(words, depth)

    def command_argv(self, node: Node) -> list[Word]:
        """Name and arguments of a `command` node. Bash passes words written after a
        redirection (`vllm serve m > log --port 1`) to the command; the grammar files them
        as extra redirect destinations, so they are taken back from there."""
        words: list[Word] = []
        for index, child in enumerate(node.children):
            if node.field_name_for_child(index) in ("name", "argument"):
                words.append(self.word(child))
        parent = node.parent
        if parent is not None and parent.type == "redirected_statement":
            body = parent.child_by_field_name("body")
            if body is not None and body.id == node.id:
                for redirect in parent.children_by_field_name("redirect"):
                    if redirect.type == "file_redirect":
                        targets = redirect.children_by_field_name("destination")
                        destinations = self.rejoin([self.word(target) for target in targets])
                        words.extend(destinations[1:])  # the first is the file
        return self.rejoin(words)

    def rejoin(self, words: list[Word]) -> list[Word]:
        """Bash splits words at blanks only, and drops `\\`-newline before it does; the
        grammar makes two words of `--max-model\\` + newline + `-len`, and of some
        redirection targets (`> $DIR/log_$i.txt`: `…log_$` and `i.txt`). They are joined
        back."""
        joined: list[Word] = []
        for word in words:
            previous = joined[-1] if joined else None
            if previous is not None and self._one_word(previous, word):
                joined[-1] = replace(
                    previous,
                    text=previous.text + word.text,
                    end=word.end,
                    starts=previous.starts + word.starts,
                    ends=previous.ends + word.ends,
                    unresolved=previous.unresolved + word.unresolved,
                    splat=previous.splat or word.splat,
                )
            else:
                joined.append(word)
        return joined

    def _one_word(self, previous: Word, word: Word) -> bool:
        """`word` continues `previous` in the text: nothing between them, or `\\`-newline.
        Words of one expansion (`$ARGS`) share its span, and are never joined."""
        gap = word.start - previous.end
        if gap == 2:
            return self.text[previous.end : word.start] == "\\\n"
        return gap == 0 and previous.start < previous.end and word.start < word.end

    def heredoc(self, node: Node) -> Heredoc | None:
        """The here-document of a `heredoc_redirect` node (`Heredoc`)."""
        parts = {child.type: child for child in node.children}
        body, delimiter = parts.get("heredoc_body"), parts.get("heredoc_start")
        if body is None or delimiter is None:
            return None
        text = self.text
        quoted = any(char in text[slice(*self.span(delimiter))] for char in "'\"\\")
        first = text.rfind("\n", 0, self.span(body)[0]) + 1
        end = parts.get("heredoc_end")
        last = self.span(body)[1] if end is None else text.rfind("\n", 0, self.span(end)[0]) + 1
        expansions = () if quoted else self._body_expansions(body)
        ends = dict(expansions)
        out = _Builder()
        index = first
        line_start = True
        while index < last:
            char = text[index]
            if line_start and char == "\t" and "<<-" in parts:
                index += 1
                continue
            line_start = char == "\n"
            if index in ends:
                out.verbatim(text[index : ends[index]], index)
                index = ends[index]
                line_start = False
            elif not quoted and char == "\\" and index + 1 < last and text[index + 1] in "$`\\\n":
                if text[index + 1] != "\n":
                    out.add(text[index + 1], index, index + 2)
                index += 2
            else:
                out.add(char, index, index + 1)
                index += 1
        source_map = SourceMap(tuple(out.starts), tuple(out.ends), last)
        start = self.span(node)[0]
        return Heredoc("".join(out.chars), source_map, expansions, self._target(node), start)

    def _body_expansions(self, body: Node) -> tuple[tuple[int, int], ...]:
        """The expansions of an unquoted here-document's body, as document spans."""
        return tuple(self.span(child) for child in body.children if child.type in _EXPANSIONS)

    def _target(self, node: Node) -> str | None:
        """The file a here-document is written to: a `>`/`>>` redirection of its command,
        or the file `tee` writes."""
        statement = node.parent
        if statement is None or statement.type != "redirected_statement":
            return None
        # `cat <<EOF > f`: the grammar files the redirection after the delimiter under it
        for child in (*statement.children, *node.children):
            if child.type == "file_redirect" and child.children:
                operator = self.text[slice(*self.span(child.children[0]))]
                targets = child.children_by_field_name("destination")
                if operator in (">", ">>", ">|") and targets:
                    return self.word(targets[0]).text
        command = statement.child_by_field_name("body")
        if command is not None and command.type == "command":
            words = self.command_argv(command)
            if words and words[0].text == "tee":
                files = [word.text for word in words[1:] if not word.text.startswith("-")]
                return files[0] if files else None
        return None

    # -- words -------------------------------------------------------------------------

    def word(self, node: Node) -> Word:
        """The argv element a word node becomes, with the span of every character."""
        out = _Builder()
        self._decode(node, out)
        inner = (
            node.named_children[0] if node.type == "command_name" and node.named_children else node
        )
        if inner.type in _SPLITTING:
            out.splat = True
        start, end = self.span(node)
        return Word(
            "".join(out.chars),
            start,
            end,
            tuple(out.starts),
            tuple(out.ends),
            unresolved=tuple(out.unresolved),
            quoting=self.quoting,
            splat=out.splat,
        )

    def _decode(self, node: Node, out: _Builder) -> None:
        kind = node.type
        start, end = self.span(node)
        if kind in _EXPANSIONS:
            out.verbatim(self.text[start:end], start)
        elif kind == "raw_string":
            close = end - 1 if end - start >= 2 and self.text[end - 1] == "'" else end
            for offset in range(start + 1, close):
                out.add(self.text[offset], offset, offset + 1)
        elif kind == "ansi_c_string":
            close = end - 1 if end - start >= 3 and self.text[end - 1] == "'" else end
            self._ansi_c(start + 2, close, out)
        elif kind in ("string", "translated_string"):
            self._double(node, start + (2 if kind == "translated_string" else 1), out)
        elif kind in ("concatenation", "command_name"):
            cursor = start
            for child in node.children:
                child_start, child_end = self.span(child)
                if child_start > cursor:
                    self._unquoted(cursor, child_start, out)
                self._decode(child, out)
                cursor = max(cursor, child_end)
            if cursor < end:
                self._unquoted(cursor, end, out)
        else:
            self._unquoted(start, end, out)

    def _unquoted(self, start: int, end: int, out: _Builder) -> None:
        """Plain word text: a backslash quotes the next character, `\\`-newline vanishes."""
        text = self.text
        index = start
        while index < end:
            char = text[index]
            if char == "\\" and index + 1 < end:
                if text[index + 1] != "\n":
                    out.add(text[index + 1], index, index + 2)
                index += 2
                continue
            out.add(char, index, index + 1)
            index += 1

    def _double(self, node: Node, content_start: int, out: _Builder) -> None:
        """A double-quoted string: expansions (where the grammar found them) are kept as
        written; a backslash escapes only `$`, a backtick, `"`, `\\` and newline. The
        string's text is scanned here rather than its `string_content` children because
        the grammar leaves whitespace before an expansion outside every child."""
        text = self.text
        _, end = self.span(node)
        closing = node.children[-1] if node.children else None
        closed = closing is not None and closing.type == '"' and not closing.is_missing
        content_end = max(content_start, end - 1 if closed else end)
        spans: list[tuple[int, int]] = []
        for child in node.named_children:
            if child.type not in _EXPANSIONS:
                continue
            child_start, child_end = self.span(child)
            while child_start < child_end and text[child_start] not in "$`":
                child_start += 1
            if child_start < child_end:
                spans.append((child_start, min(child_end, content_end)))
        index = content_start
        next_span = 0
        while index < content_end:
            while next_span < len(spans) and spans[next_span][0] < index:
                next_span += 1
            if next_span < len(spans) and spans[next_span][0] == index:
                span_end = spans[next_span][1]
                out.verbatim(text[index:span_end], index)
                index = max(span_end, index + 1)
                continue
            char = text[index]
            if char == "\\" and index + 1 < content_end and text[index + 1] in '$`"\\\n':
                if text[index + 1] != "\n":
                    out.add(text[index + 1], index, index + 2)
                index += 2
                continue
            out.add(char, index, index + 1)
            index += 1

    def _ansi_c(self, start: int, end: int, out: _Builder) -> None:
        """`$'...'`: C escapes; each produced character maps to its whole escape. An
        unknown escape keeps its backslash, as bash does."""
        text = self.text
        index = start
        while index < end:
            escape = _ansi_c_escape(text, index, end) if text[index] == "\\" else None
            if escape is None:
                out.add(text[index], index, index + 1)
                index += 1
            else:
                out.add(escape[0], index, escape[1])
                index = escape[1]

    # -- commands ----------------------------------------------------------------------

    def analyze(self, words: Sequence[Word], depth: int, image: str | None = None) -> None:
        """The start in one argv (`sources.argv` decides what it runs); a script it runs
        (`bash -c '...'`, `eval "..."`) is read as shell in turn. A command line the script
        built in a variable (`$CMD`, `"${ARGS[@]}"`) is read as each value it may hold
        there (`_Values`)."""
        if depth == 0 and any(word.splat for word in words):
            for built in self.values.commands(words):
                self._analyze(built, depth, image)
            return
        self._analyze(words, depth, image)

    @cached_property
    def values(self) -> _Values:
        return _Values(self)

    def _analyze(self, words: Sequence[Word], depth: int, image: str | None) -> None:
        # `$NAME`s the script sets certainly hold their value; a string run as a script
        # (`sh -c "…$NAME…"`) is read as written, since its words map through the string
        filled = self.values.filled(words) if depth == 0 else words
        found = argv.match(filled, image=image, resolve=self._resolve)
        if filled is not words and not isinstance(found, argv.Start):
            found = argv.match(words, image=image, resolve=self._resolve)
        if found is None:
            return
        before = len(self.scan.invocations)
        if isinstance(found, argv.Start):
            invocation = argv.invocation(found, self.scan.source, image=self.image)
            self.scan.invocations.append(self.values.with_fills(invocation))
        else:
            self._nested(found.script, depth, found.image, found.parameters)
        if found.container is None:
            return
        for at in range(before, len(self.scan.invocations)):
            invocation = self.scan.invocations[at]
            if isinstance(found, argv.Script):
                invocation = argv.in_container(invocation, found.container)
                self.scan.invocations[at] = invocation
            self.scan.containers.add(invocation.start)

    def _resolve(self, word: Word) -> str:
        """The image a word names: `$IMAGE` becomes the value of the script's one literal
        `IMAGE=...` (or the literal default of `IMAGE=${IMAGE:-...}`)."""
        match = _VARIABLE.fullmatch(word.text)
        if not match or word.text != "".join(word.unresolved):
            return word.text
        values = self.assignments.get(match.group(1), [])
        if len(values) != 1:
            return word.text
        value = values[0]
        if value is None:
            return word.text
        if value.resolved:
            return value.text
        default = _DEFAULTED.fullmatch(value.text)
        return default.group(1) if default and default.group(1) else word.text

    def _nested(
        self, script: Word, depth: int, image: str | None, parameters: tuple[Word, ...] = ()
    ) -> None:
        """A string the shell runs as a script (`sh -c`, `eval`): parse its text as shell
        and map what is found back through the quoting of the string. The words after a
        `sh -c` script are its positional parameters: a `"$@"` (`$1`…) there is them."""
        if depth >= _MAX_DEPTH or not script.text.strip():
            return
        if depth == 0 and script.unresolved:
            built = self.values.strings(script)
            if built is not None:  # `eval "$CMD"`: each value the variable may hold
                for value in built:
                    self._nested(value, depth + 1, image)
                return
        inner = _Scan(self.scan.source)
        _Analyzer(
            script.text,
            inner,
            self.assignments,
            image=image if image is not None else self.image,
        ).run(depth + 1)
        for invocation in inner.invocations:
            invocation = _expanded_before(invocation, script)
            relocated = with_parameters(
                _relocated(invocation, script), parameters if plain_parameters(script.text) else ()
            )
            relocated = self.values.with_fills(relocated)
            self.scan.invocations.append(relocated)
            if invocation.start in inner.containers:
                self.scan.containers.add(relocated.start)
        self.scan.pins.extend(inner.pins)

    def _pin(self, words: Sequence[Word]) -> None:
        """`pip install vllm==X` / `uv pip install "vllm==X"` states the release, and so
        does `pip install vllm-X-cp310-…whl` (a wheel by its file name or URL)."""
        if not any(word.text == "install" for word in words):
            return
        for word in words:
            match = _PIN.fullmatch(word.text) or _WHEEL.search(word.text)
            if match and word.resolved:
                self.scan.pins.append(match.group(1).replace("%2B", "+").replace("%2b", "+"))
                return


#: At most this many values of one variable are followed where it is used (one per arm of
#: an `if`/`case` that assigns it); a script with more is read for the first ones.
_MAX_VALUES = 8
_SCALAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
_ARRAY = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}")
#: A reference a certain value may fill: `$NAME`, `${NAME}`, `${NAME:-default}`.
_FILLABLE = re.compile(
    r"\$(?:\{(?P<braced>[A-Za-z_]\w*)(?P<default>:?-[^${}`]*)?\}|(?P<bare>[A-Za-z_]\w*))"
)
_BLANKS = re.compile(r"[^ \t\n]+")
#: Statements whose condition may decide whether a use inside them runs.
_GUARDS = frozenset({"if_statement", "case_statement", "list", "while_statement"})
#: What a variable holds: a string, an array's words, or nothing known.
_Value = Word | tuple[Word, ...] | None
#: Statements whose assignments do not reach the script (a subshell, a pipeline's parts, a
#: command's own `NAME=value` prefix) or that do not run where they stand (a function).
_OPAQUE = frozenset(
    {"command", "function_definition", "subshell", "pipeline", "command_substitution"}
)


def _command_position(words: Sequence[Word], index: int) -> bool:
    """Whether the shell runs `words[index]` as a command: it is the first word, or the
    first expansion after a wrapper that runs its tail (`exec $CMD`, `nohup $CMD`,
    `srun -N1 $CMD`: `argv.WRAPPERS`), which `argv` then looks through."""
    if index == 0:
        return True
    head = words[0]
    return (
        head.resolved
        and head.text.rsplit("/", 1)[-1] in argv.WRAPPERS
        and not any(word.splat for word in words[1:index])
    )


class _Values:
    """What a variable may hold where a command uses it, for the command lines a script
    builds in a variable: `CMD="vllm serve m"`, `CMD+=" --flag"`, `CMD="$CMD --flag"`,
    `ARGS=(…)`, `ARGS+=(…)`, `ARGS=("${ARGS[@]}" …)`, read in the order the script runs
    them. An `if` or `case` whose arms assign the variable gives one value per arm that
    does, so that two exclusive arms never make one command line; what an arm appends is
    there when it is taken (the value before it is kept as well only when an arm replaces
    it). `&&`/`||` lists are taken. A use inside a function reads the function's body
    before it; a function called elsewhere, a subshell, a pipeline and a command's own
    `NAME=value` prefix do not set the script's variables."""

    def __init__(self, analyzer: _Analyzer) -> None:
        self.analyzer = analyzer
        #: Whether the script assigns a name at all, by name (most expansions it has not).
        self.assigned: dict[str, bool] = {}
        #: The top-level statements whose text names it, by name: one pass per name, not
        #: one per use (a script of 20,000 statements and 400 uses).
        self.mentioning: dict[str, list[Node]] = {}
        #: How the script writes each name asked about (`shell_certain`).
        self.writes: dict[str, shell_certain.Writes] = {}
        #: Every reference filled with a certain value, by its document offset.
        self.fills: dict[int, Fill] = {}

    def filled(self, words: Sequence[Word]) -> Sequence[Word]:
        """`words` with each `$NAME`/`${NAME}` (`${NAME:-x}`) whose value at that place
        is certain (`certain`) holding it, its characters on the reference; `words`
        itself when none is."""
        if not any(word.unresolved for word in words):
            return words
        out = [task_env.substituted(word, self.certain) for word in words]
        return words if all(a is b for a, b in zip(out, words, strict=True)) else out

    def certain(self, part: str, at: int) -> str | None:
        """The value the reference `part` (at document offset `at`) has for sure: the one
        value the flow gives, plain and fully known, that nothing the flow does not
        show may change (`shell_certain`); unquoted, one that does not split or glob."""
        match = _FILLABLE.fullmatch(part)
        if match is None:
            return None
        name = match.group("braced") or match.group("bare")
        values = self.at(name, at)
        value = values[0] if len(values) == 1 else None
        if not isinstance(value, Word) or not value.resolved or not value.text:
            return None  # empty: `if [ -n "$X" ]` guards its uses, and unquoted it is no word
        if name not in self.writes:
            analyzer = self.analyzer
            root, data, char = analyzer.tree.root_node, analyzer.data, analyzer.char
            self.writes[name] = shell_certain.writes_of(root, data, name, char, self.shared)
        if not self.writes[name].certain(value.start, at):
            return None
        if self._guarded(name, at):
            return None
        if not self._quoted(at) and (
            not task_env.PLAIN_VALUE.fullmatch(value.text) or self.at("IFS", at) != [None]
        ):
            return None  # word splitting, globbing
        self.fills[at] = Fill(name, at, at + len(part), value.start, value.end)
        return value.text

    @cached_property
    def shared(self) -> shell_certain.Writes:
        """The `source`/`.`/`eval` commands, which may set any name."""
        analyzer = self.analyzer
        return shell_certain.any_name_commands(analyzer.nodes(), analyzer.data, analyzer.char)

    def with_fills(self, invocation: Invocation) -> Invocation:
        """The start with the fills of its words (`Invocation.fills`)."""
        if not self.fills:
            return invocation
        fills = tuple(
            {
                at: self.fills[at]
                for word in invocation.args
                for at in word.starts
                if at in self.fills
            }.values()
        )
        return replace(invocation, fills=fills) if fills else invocation

    def _node(self, at: int) -> tuple[Node | None, int]:
        """The smallest node at document offset `at`, and its byte offset."""
        to_char = self.analyzer.byte_to_char
        byte = at if to_char is None else bisect_left(to_char, at)
        return self.analyzer.tree.root_node.descendant_for_byte_range(byte, byte + 1), byte

    def _quoted(self, at: int) -> bool:
        """Whether the expansion at document offset `at` is inside double quotes."""
        node, _ = self._node(at)
        while node is not None and node.type not in ("simple_expansion", "expansion"):
            node = node.parent
        return node is not None and node.parent is not None and node.parent.type == "string"

    def _guarded(self, name: str, at: int) -> bool:
        """Whether the use at `at` runs only if a test of the name's value passes (`if [
        "$TP" -gt 1 ]; then …`, `[ -n "$X" ] && …`): the value it has may be one that
        never reaches it, so it is not filled."""
        node, byte = self._node(at)
        mention = re.compile(rb"\$\{?" + re.escape(name.encode()) + rb"(?!\w)")
        data = self.analyzer.data
        while node is not None:
            if node.type in _GUARDS and mention.search(data, node.start_byte, byte):
                return True
            node = node.parent
        return False

    def commands(self, words: Sequence[Word]) -> list[list[Word]]:
        """The command lines `words` may be once `"${ARGS[@]}"` and a leading `$CMD`
        hold what the script put in them (one per combination of values, at most
        `_MAX_VALUES`); `words` itself when the script says nothing of them."""
        lines: list[list[Word]] = [[]]
        for index, word in enumerate(words):
            choices = [[word]]
            if word.splat:
                arrays = self._array(word)
                if arrays:
                    choices = [list(value) for value in arrays]
                elif _command_position(words, index):
                    built = self.strings(word)
                    if built:
                        choices = [_fields(value) for value in built]
            lines = [line + choice for line in lines for choice in choices][:_MAX_VALUES]
        return lines

    def strings(self, word: Word) -> list[Word] | None:
        """The command lines a string variable may hold where `word` (`$CMD`, `"${CMD}"`,
        an `eval`/`sh -c` script of nothing else) uses it, when it holds one that starts
        something (vLLM, a container runtime); None otherwise."""
        match = _SCALAR.fullmatch(word.text)
        if match is None or word.unresolved != (word.text,):
            return None
        found = [
            value
            for value in self.at(match.group(1) or match.group(2), word.start)
            if isinstance(value, Word)
        ]
        if not any(starter.decode() in value.text for value in found for starter in _STARTERS):
            return None
        # `CMD="vllm serve $MODEL"` expands `$MODEL` where it is assigned
        return [task_env.substituted(value, self.certain) for value in found]

    def _array(self, word: Word) -> list[tuple[Word, ...]]:
        match = _ARRAY.fullmatch(word.text)
        if match is None or word.unresolved != (word.text,):
            return []
        return [value for value in self.at(match.group(1), word.start) if isinstance(value, tuple)]

    def at(self, name: str, offset: int) -> list[_Value]:
        """The values `name` may hold at `offset` (a document offset)."""
        if name not in self.assigned:
            pattern = rf"(?<![\w$]){re.escape(name)}\+?="
            self.assigned[name] = re.search(pattern, self.analyzer.text) is not None
        if not self.assigned[name]:
            return [None]
        if name not in self.mentioning:  # the others leave its value as it is
            data, needle = self.analyzer.data, name.encode()
            self.mentioning[name] = [
                node
                for node in self.analyzer.tree.root_node.children
                if needle in data[node.start_byte : node.end_byte]
            ]
        try:
            return self._run(self.mentioning[name], [None], name, offset)
        except RecursionError:  # nesting Python cannot walk: nothing known
            return [None]

    def _run(self, nodes: Sequence[Node], values: list[_Value], name: str, at: int) -> list[_Value]:
        """Run `nodes` in order up to the one holding `at`, into which it goes on."""
        for node in nodes:
            start, end = self.analyzer.span(node)
            if start >= at:
                break
            if end > at:
                return self._inside(node, values, name, at)
            values = self._after(node, values, name)
        return values

    def _inside(self, node: Node, values: list[_Value], name: str, at: int) -> list[_Value]:
        """The values at `at` inside `node`: the arm of an `if`/`case` that holds it."""
        if node.type == "command":
            return values
        children = node.children
        if node.type in ("if_statement", "case_statement"):
            for child in children:
                if child.type in ("elif_clause", "else_clause", "case_item"):
                    start, end = self.analyzer.span(child)
                    if start <= at < end:
                        return self._run(child.children, values, name, at)
            children = [c for c in children if c.type not in ("elif_clause", "else_clause")]
        return self._run(children, values, name, at)

    def _after(self, node: Node, values: list[_Value], name: str) -> list[_Value]:
        """The values once `node` (a statement before the use) has run."""
        if name.encode() not in self.analyzer.data[node.start_byte : node.end_byte]:
            return values
        kind = node.type
        if kind == "variable_assignment":
            return self._assign(node, values, name)
        if kind in _OPAQUE:
            return values
        if kind == "if_statement":
            clauses = [c for c in node.children if c.type in ("elif_clause", "else_clause")]
            head = [c for c in node.children if c not in clauses]
            arms = [head, *(clause.children for clause in clauses)]
            complete = any(clause.type == "else_clause" for clause in clauses)
            return self._arms(arms, values, name, complete)
        if kind == "case_statement":
            items = [c.children for c in node.children if c.type == "case_item"]
            return self._arms(items, values, name, False)
        for child in node.children:
            values = self._after(child, values, name)
        return values

    def _arms(
        self, arms: Sequence[Sequence[Node]], values: list[_Value], name: str, complete: bool
    ) -> list[_Value]:
        """The values after one of `arms` runs (`complete`: one of them always does)."""
        results: list[_Value] = []
        silent = not complete
        for arm in arms:
            out = values
            for node in arm:
                out = self._after(node, out, name)
            if out is values:
                silent = True
            else:
                results.extend(out)
        if silent:  # a way through that leaves the value: kept unless every arm appends to it
            results.extend(v for v in values if not any(_extends(r, v) for r in results))
        distinct: list[_Value] = []
        for value in results:
            if not any(value is seen for seen in distinct):
                distinct.append(value)
        return distinct[:_MAX_VALUES] or values

    def _assign(self, node: Node, values: list[_Value], name: str) -> list[_Value]:
        name_node = node.child_by_field_name("name")
        if name_node is None or self.analyzer.text[slice(*self.analyzer.span(name_node))] != name:
            return values
        append = any(child.type == "+=" for child in node.children)
        value = node.child_by_field_name("value")
        if value is None:
            end = self.analyzer.span(node)[1]
            return values if append else [Word("", end, end, (), ())]
        if value.type == "array":
            items = [self.analyzer.word(item) for item in value.named_children]
            return [_array_value(items, name, old, append) for old in values]
        word = self.analyzer.word(value)
        out: list[_Value] = []
        for old in values:
            new = _substituted(word, name, old if isinstance(old, Word) else None)
            out.append(_concatenated(old, new) if append and isinstance(old, Word) else new)
        return out


def _extends(value: _Value, before: _Value) -> bool:
    """`value` is `before` with more after it (an append)."""
    if isinstance(value, Word) and isinstance(before, Word):
        return value.text.startswith(before.text) and value.starts[: len(before.starts)] == (
            before.starts
        )
    if isinstance(value, tuple) and isinstance(before, tuple):
        return value[: len(before)] == before
    return False


def _array_value(items: list[Word], name: str, old: _Value, append: bool) -> tuple[Word, ...]:
    """`NAME=(items)` / `NAME+=(items)`, with `"${NAME[@]}"` among them its old words."""
    before: tuple[Word, ...] = old if isinstance(old, tuple) else (() if old is None else (old,))
    words: list[Word] = list(before) if append else []
    for item in items:
        match = _ARRAY.fullmatch(item.text)
        if match and match.group(1) == name and item.unresolved == (item.text,):
            words.extend(before)
        else:
            words.append(item)
    return tuple(words)


def _substituted(word: Word, name: str, old: Word | None) -> Word:
    """`word` with each `$NAME`/`${NAME}` in it replaced by `old` (`CMD="$CMD --flag"`)."""
    parts = {
        part
        for part in word.unresolved
        if (match := _SCALAR.fullmatch(part)) and name in (match.group(1), match.group(2))
    }
    if old is None or not parts:
        return word
    text, starts, ends = word.text, list(word.starts), list(word.ends)
    pattern = re.compile("|".join(re.escape(part) + r"(?![A-Za-z0-9_])" for part in parts))
    at = 0
    while (found := pattern.search(text, at)) is not None:
        first, last = found.span()
        text = text[:first] + old.text + text[last:]
        starts[first:last] = old.starts
        ends[first:last] = old.ends
        at = first + len(old.text)
    unresolved = tuple(p for p in word.unresolved if p not in parts) + old.unresolved
    return replace(
        word,
        text=text,
        starts=tuple(starts),
        ends=tuple(ends),
        unresolved=unresolved,
        splat=word.splat or old.splat,
    )


def _concatenated(first: Word, second: Word) -> Word:
    """`CMD+=" --flag"`: the old value and the appended text as one string."""
    return replace(
        first,
        text=first.text + second.text,
        end=max(first.end, second.end),
        starts=first.starts + second.starts,
        ends=first.ends + second.ends,
        unresolved=first.unresolved + second.unresolved,
        splat=first.splat or second.splat,
    )


def _fields(value: Word) -> list[Word]:
    """What an unquoted `$CMD` becomes: its value split at blanks, with no quote removal
    (quotes inside the value stay in the words). A field holding an expansion the
    assignment made is not known; one that is nothing else may be several words."""
    fields: list[Word] = []
    for found in _BLANKS.finditer(value.text):
        first, last = found.span()
        text = found.group()
        parts = tuple(part for part in value.unresolved if part in text)
        starts, ends = value.starts[first:last], value.ends[first:last]
        fields.append(
            Word(
                text,
                starts[0],
                ends[-1],
                starts,
                ends,
                unresolved=parts,
                quoting=value.quoting,
                splat=bool(parts) and text in parts,
            )
        )
    return fields


def _scanner_safe(text: str) -> str:
    """`text` with the characters that crash tree-sitter-bash 0.25 replaced by ASCII of the
    same UTF-8 length, so byte offsets do not move. Its scanner tests a possible `{1..9}`
    with C `isdigit()` on the code point after `{`, `{12` or `{1..2`, and a code point
    outside the C table reads out of bounds (SIGSEGV with `{` + U+D1B3F; tree-sitter-bash
    issue 337). Such a character is a word character either way. A backtick comment
    (`_BACKTICK_COMMENT`) becomes blanks of its UTF-8 length, as bash drops the word."""
    if "`" in text:
        text = _BACKTICK_COMMENT.sub(_blanks, text)
    return _BRACE_PROBE.sub(_ascii_stand_in, text)


def _blanks(match: re.Match[str]) -> str:
    return " " * len(match.group(0).encode("utf-8", "surrogatepass"))


def _ascii_stand_in(match: re.Match[str]) -> str:
    width = len(match.group(2).encode("utf-8", "surrogatepass"))
    return match.group(1) + "x" * width


def _byte_map(data: bytes) -> list[int]:
    """Character index of every UTF-8 byte offset (the grammar counts bytes): the number of
    characters that start before it, counted in C by itertools over a 0/1 lead-byte mask."""
    return [0, *accumulate(data.translate(_LEAD_BYTES))]


def _ansi_c_escape(text: str, index: int, end: int) -> tuple[str, int] | None:
    """The character an ANSI-C escape at `text[index]` (a backslash) stands for, and where
    the escape ends; None when it is not one."""
    if index + 1 >= end:
        return None
    letter = text[index + 1]
    if letter in _ANSI_C:
        return _ANSI_C[letter], index + 2
    if letter in _OCTAL:
        alphabet, base, first, limit = _OCTAL, 8, index + 1, 3
    elif letter in _HEX_LIMITS:
        alphabet, base, first, limit = _HEX, 16, index + 2, _HEX_LIMITS[letter]
    else:
        return None
    stop = first
    while stop < end and stop - first < limit and text[stop] in alphabet:
        stop += 1
    if stop == first:
        return None
    value = int(text[first:stop], base)
    return (chr(value), stop) if value <= 0x10FFFF else None
