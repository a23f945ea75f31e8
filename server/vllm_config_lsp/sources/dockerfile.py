"""vLLM server starts in Dockerfiles: what the container runs, with the text that says so.

A Dockerfile starts vLLM through its ENTRYPOINT and CMD, combined the way Docker combines
them, not as two command lines: an exec-form `ENTRYPOINT ["vllm", "serve"]` takes the
exec-form CMD as its arguments, a shell-form ENTRYPOINT runs through `/bin/sh -c` and ignores
CMD, the last ENTRYPOINT/CMD of a stage wins, a stage built `FROM` an earlier one inherits
them, and setting ENTRYPOINT drops the CMD inherited from the base. `FROM vllm/vllm-openai`
(any image whose name contains `vllm-openai`) brings the image's own entrypoint, `vllm
serve`, so a bare `CMD ["--model", "x"]` is a start with those arguments.

Instructions come from the tree-sitter-containerfile grammar (the maintained fork of
tree-sitter-dockerfile, with wheels for every platform the extension ships) rather than from
dockerfile-parse:
the grammar gives the exact span of every instruction, JSON string, escape sequence, line
continuation and comment, which the flags' positions need (dockerfile-parse reports only
line numbers and the already-joined value). Shell-form text goes to `sources.shell` with
Docker's own preprocessing applied first (continued lines joined, comment lines inside them
removed), and exec-form strings are decoded here with each character mapped to the JSON
text that wrote it, escapes included.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

import tree_sitter_containerfile
from tree_sitter import Node

from vllm_config_lsp.sources import argv, exec_form, shell, task_env
from vllm_config_lsp.sources.invocation import Break, EnvVar, Invocation, Word
from vllm_config_lsp.sources.parsers import per_thread
from vllm_config_lsp.sources.source_map import SourceMap

__all__ = ["built_image", "find_invocations"]

#: `$NAME`, `${NAME}`, `${NAME:-default}` in a FROM line (global ARGs are substituted).
_ARG_REFERENCE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|([A-Za-z_]\w*))")
_JSON_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r"}
_JSON_ESCAPES["t"] = "\t"
_INSTRUCTIONS = frozenset({"FROM", "ENTRYPOINT", "CMD", "ARG", "ENV"})
_DOCKER_REFERENCE = re.compile(r"\$(?:\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)")


def find_invocations(text: str) -> list[Invocation]:
    """Every vLLM start the Dockerfile's stages define, in document order, with offsets
    into `text`. Each invocation's `image` is the base image of its stage (following
    `FROM <earlier stage>` back to an external image, with global ARG defaults filled in)."""
    document = _Document(text)
    reader = _Reader(document)
    for keyword, parts in _instructions(document.tree.root_node):
        reader.instruction(keyword, parts)
    reader.finish()
    unique: dict[tuple[int, tuple[int, ...]], Invocation] = {}
    for invocation in reader.found:
        key = (invocation.start, tuple(word.start for word in invocation.args))
        unique.setdefault(key, invocation)
    return sorted(unique.values(), key=lambda invocation: invocation.start)


def built_image(text: str) -> tuple[str, str] | None:
    """What the image this Dockerfile builds starts when a container runs it with arguments
    (a compose service `build:` from it, with a `command:`): its final stage's base image and
    the vLLM entrypoint the arguments go to — the stage's own exec-form ENTRYPOINT when it
    starts vLLM, else a vLLM base image's (`FROM vllm/vllm-openai`). None when the image
    does not start vLLM with its arguments (a shell-form ENTRYPOINT ignores them)."""
    document = _Document(text)
    reader = _Reader(document)
    for keyword, parts in _instructions(document.tree.root_node):
        reader.instruction(keyword, parts)
    if not reader.stages:
        return None
    final = reader.stages[-1]
    if final.entrypoint is None:
        if final.vllm_image:
            return final.image, argv.image_entrypoint(final.image)
        return None
    if not final.entrypoint.exec_form:
        return None
    found = argv.match(final.entrypoint.words, image=final.image)
    return (final.image, found.entrypoint) if isinstance(found, argv.Start) else None


#: The calling thread's parser (the language server checks on several threads).
_parser = per_thread(tree_sitter_containerfile.language)


class _Document:
    """The text, its tree, and byte-to-character offsets (the grammar counts bytes)."""

    def __init__(self, text: str) -> None:
        self.text = text
        data = text.encode("utf-8", "surrogatepass")
        self.tree = _parser().parse(data)
        self.byte_to_char: list[int] | None = None
        if len(data) != len(text):
            mapping = [0] * (len(data) + 1)
            byte = 0
            for index, char in enumerate(text):
                code = ord(char)
                width = 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
                for _ in range(width):
                    mapping[byte] = index
                    byte += 1
            mapping[len(data)] = len(text)
            self.byte_to_char = mapping

    def char(self, byte: int) -> int:
        return byte if self.byte_to_char is None else self.byte_to_char[byte]

    def start(self, node: Node) -> int:
        return self.char(node.start_byte)

    def end(self, node: Node) -> int:
        return self.char(node.end_byte)

    def source(self, node: Node) -> str:
        return self.text[self.start(node) : self.end(node)]


def _instructions(root: Node) -> Iterator[tuple[str, list[Node]]]:
    """(keyword, argument nodes) of every top-level instruction the stages read. Where the
    grammar gave up (an ERROR node, e.g. a continuation at the end of the file), the flat
    pieces after an instruction keyword are taken as that instruction's arguments, so a
    half-typed or oddly ended Dockerfile still yields its ENTRYPOINT. Instructions under
    ONBUILD and HEALTHCHECK are not the container's command and are not visited."""
    stack: list[Iterator[Node]] = [iter(root.children)]
    while stack:
        pending: tuple[str, list[Node]] | None = None
        for node in stack[-1]:
            if node.type == "ERROR":
                if pending is not None:
                    yield pending
                    pending = None
                stack.append(iter(node.children))
                break
            if node.type.endswith("_instruction"):
                if pending is not None:
                    yield pending
                    pending = None
                keyword = node.children[0].type.upper() if node.children else ""
                if keyword in _INSTRUCTIONS:
                    yield keyword, list(node.children[1:])
            elif node.type.upper() in _INSTRUCTIONS and not node.is_named:
                if pending is not None:
                    yield pending
                pending = (node.type.upper(), [])
            elif pending is not None:
                pending[1].append(node)
        else:
            stack.pop()
        if pending is not None:
            yield pending


# -- one instruction's argument -------------------------------------------------------------


@dataclass
class _Command:
    """An ENTRYPOINT or CMD: exec form (`words`) or shell form (`script`, with the document
    offset of each of its characters)."""

    exec_form: bool
    start: int
    end: int
    words: list[Word] = field(default_factory=list)
    script: str = ""
    positions: list[int] = field(default_factory=list)
    #: A bracketed text that is not valid JSON (`exec_form.lenient`): run in shell form,
    #: read as the exec form its author meant, with the break.
    broken: Break | None = None


def _command(document: _Document, parts: Sequence[Node]) -> _Command | None:
    """Read an ENTRYPOINT/CMD argument the way Docker does: a valid JSON array of strings is
    exec form, anything else (an unclosed array included) is a shell command line."""
    pieces = _flatten(parts)
    if not pieces:
        return None
    start, end = document.start(pieces[0]), _end(document, pieces[-1])
    script, positions = _shell_script(document, pieces, start, end)
    if script.startswith("["):
        try:
            value = json.loads(script)
        except (ValueError, RecursionError):  # nested arrays: no array of strings either way
            value = None
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            strings = [node for node in _walk(pieces) if node.type == "json_string"]
            words = [_json_word(document, node) for node in strings]
            if [word.text for word in words] != value:
                words = _approximate(value, strings, document, start, end)
            return _Command(True, start, end, words=words)
        stop = _logical_line_end(document.text, start)  # the grammar may stop at the error
        meant = exec_form.lenient(document.text[start:stop], range(start, stop))
        if meant is not None:  # Docker: shell form; its author: this exec form
            return _Command(True, start, end, words=meant[0], broken=meant[1])
    return _Command(False, start, end, script=script, positions=positions)


def _logical_line_end(text: str, start: int) -> int:
    """Where Docker's instruction line from `start` ends: the first line end that no `\\`
    continues."""
    at = start
    while True:
        newline = text.find("\n", at)
        if newline == -1:
            return len(text)
        if not text[at:newline].rstrip("\r").endswith("\\"):
            return newline
        at = newline + 1


def _approximate(
    value: list[str], strings: list[Node], document: _Document, start: int, end: int
) -> list[Word]:
    """Exec-form words whose JSON text this decoder did not reproduce: the values Docker
    reads, each character mapped to its whole string (or the whole array)."""
    spans = [(document.start(node), document.end(node)) for node in strings]
    if len(spans) != len(value):
        spans = [(start, end)] * len(value)
    return [
        Word(
            item,
            item_start,
            item_end,
            tuple([item_start] * len(item)),
            tuple([item_end] * len(item)),
            quoting="json",
        )
        for item, (item_start, item_end) in zip(value, spans, strict=True)
    ]


def _flatten(parts: Sequence[Node]) -> list[Node]:
    """The argument's pieces: its `shell_command` or `json_string_array` node, or the flat
    pieces of error recovery. Comments after the argument are not part of it."""
    pieces = list(parts)
    while pieces and pieces[-1].type in ("comment", "line_continuation"):
        pieces.pop()
    while pieces and pieces[0].type in ("comment", "line_continuation"):
        pieces.pop(0)
    return pieces


def _end(document: _Document, last: Node) -> int:
    """Where the argument ends: a shell command's trailing continuation and the comment
    lines after it are inside its node, but not part of what the container runs."""
    end = document.end(last)
    if last.type == "shell_command":
        for child in reversed(last.children):
            if child.type not in ("comment", "line_continuation"):
                break
            if document.text[document.end(child) : end].strip():
                break
            end = document.start(child)
        end = len(document.text[:end].rstrip(" \t"))
    return end


def _walk(nodes: Sequence[Node]) -> Iterator[Node]:
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def _shell_script(
    document: _Document, pieces: Sequence[Node], start: int, end: int
) -> tuple[str, list[int]]:
    """The instruction's argument as Docker reads it, with the document offset of each
    character: continued lines are joined (`\\`-newline removed, the next line's
    indentation kept) and comment lines inside the continuation dropped. This is the text
    `/bin/sh -c` receives in shell form, and the JSON Docker parses in exec form."""
    text = document.text
    removed: list[tuple[int, int]] = []
    for node in _walk(pieces):
        if node.type == "line_continuation":
            removed.append((document.start(node), document.end(node)))
        if node.type != "comment":
            continue
        comment_start = document.start(node)
        line_start = text.rfind("\n", 0, comment_start) + 1
        if text[line_start:comment_start].strip():
            continue
        newline = text.find("\n", comment_start)
        removed.append((line_start, end if newline < 0 else min(newline + 1, end)))
    out: list[str] = []
    positions: list[int] = []
    cursor = start
    for removed_start, removed_end in sorted(removed):
        if removed_start > cursor:
            out.append(text[cursor:removed_start])
            positions.extend(range(cursor, removed_start))
        cursor = max(cursor, removed_end)
    if cursor < end:
        out.append(text[cursor:end])
        positions.extend(range(cursor, end))
    return "".join(out), positions


def _json_word(document: _Document, node: Node) -> Word:
    """A JSON string as the argv element it becomes, each character mapped to the JSON text
    that wrote it (`\\"` to both characters, `\\u00e9` to all six)."""
    start, end = document.start(node), document.end(node)
    text = document.text
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    index = start + 1
    stop = end - 1 if end - start >= 2 and text[end - 1] == '"' else end
    while index < stop:
        char = text[index]
        if char != "\\" or index + 1 >= stop:
            chars.append(char)
            starts.append(index)
            ends.append(index + 1)
            index += 1
            continue
        letter = text[index + 1]
        if letter in _JSON_ESCAPES:
            chars.append(_JSON_ESCAPES[letter])
            starts.append(index)
            ends.append(index + 2)
            index += 2
            continue
        code = _hex4(text, index + 2, stop) if letter == "u" else None
        if code is None:
            chars.append(char)
            starts.append(index)
            ends.append(index + 1)
            index += 1
            continue
        escape_end = index + 6
        if 0xD800 <= code < 0xDC00 and text[escape_end : escape_end + 2] == "\\u":
            low = _hex4(text, escape_end + 2, stop)
            if low is not None and 0xDC00 <= low < 0xE000:
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                escape_end += 6
        chars.append(chr(code))
        starts.append(index)
        ends.append(escape_end)
        index = escape_end
    return Word("".join(chars), start, end, tuple(starts), tuple(ends), quoting="json")


def _hex4(text: str, index: int, stop: int) -> int | None:
    digits = text[index : index + 4]
    if index + 4 > stop or len(digits) != 4:
        return None
    try:
        return int(digits, 16)
    except ValueError:
        return None


# -- stages ---------------------------------------------------------------------------------


@dataclass
class _Stage:
    """One FROM stage: its base image and the ENTRYPOINT/CMD in force at its end."""

    image: str
    image_start: int
    image_end: int
    alias: str | None
    vllm_image: bool
    entrypoint: _Command | None = None
    cmd: _Command | None = None
    #: The CMD came from the parent stage (setting ENTRYPOINT here drops it).
    cmd_inherited: bool = False
    #: `ENV` of this stage and the stages it is built from, in order.
    environ: list[EnvVar] = field(default_factory=list)


class _Reader:
    """Reads instructions in order, keeping global ARGs and stages, and turns every stage
    into its vLLM start when it is complete."""

    def __init__(self, document: _Document) -> None:
        self.document = document
        self.arguments: dict[str, str] = {}
        self.stages: list[_Stage] = []
        self.found: list[Invocation] = []

    def instruction(self, keyword: str, parts: list[Node]) -> None:
        if keyword == "ARG":
            if not self.stages:
                self._argument(parts)
            return
        if keyword == "FROM":
            self._from(parts)
            return
        if not self.stages:
            return
        stage = self.stages[-1]
        if keyword == "ENV":
            stage.environ.extend(self._env(parts))
            return
        command = _command(self.document, parts)
        if keyword == "ENTRYPOINT":
            stage.entrypoint = command
            if stage.cmd_inherited:
                stage.cmd, stage.cmd_inherited = None, False
        else:
            stage.cmd, stage.cmd_inherited = command, False

    def finish(self) -> None:
        for number, stage in enumerate(self.stages):
            before = len(self.found)
            self._stage(stage, final=number == len(self.stages) - 1)
            for at in range(before, len(self.found)):
                found = self.found[at]
                self.found[at] = replace(found, environ=(*stage.environ, *found.environ))

    def _env(self, parts: Sequence[Node]) -> list[EnvVar]:
        """`ENV NAME=value …` and the legacy `ENV NAME value`: quotes removed, `$NAME` and
        `${NAME}` (earlier ENV and ARG values, which the build fills in) unresolved."""
        found: list[EnvVar] = []
        for part in parts:
            if part.type != "env_pair" or len(part.named_children) < 2:
                continue
            named = part.named_children
            name = self._plain(named[0])
            found.append(EnvVar(name, self._env_value(named[-1]), "ENV"))
        return found

    def _plain(self, node: Node) -> Word:
        start, end = self.document.start(node), self.document.end(node)
        text = self.document.text[start:end]
        return Word(text, start, end, tuple(range(start, end)), tuple(range(start + 1, end + 1)))

    def _env_value(self, node: Node) -> Word:
        start, end = self.document.start(node), self.document.end(node)
        written = self.document.text[start:end]
        first, last = start, end
        if node.type in ("double_quoted_string", "single_quoted_string") and len(written) >= 2:
            first, last = start + 1, end - 1
        chars: list[str] = []
        starts: list[int] = []
        at = first
        while at < last:
            char = self.document.text[at]
            if char == "\\" and node.type != "single_quoted_string" and at + 1 < last:
                chars.append(self.document.text[at + 1])
                starts.append(at)
                at += 2
                continue
            chars.append(char)
            starts.append(at)
            at += 1
        ends = tuple(s + 1 for s in starts)
        text = "".join(chars)
        unresolved: tuple[str, ...] = ()
        if node.type != "single_quoted_string":
            unresolved = tuple(m.group(0) for m in _DOCKER_REFERENCE.finditer(text))
        return Word(text, start, end, tuple(starts), ends, unresolved, "shell")

    def _argument(self, parts: Sequence[Node]) -> None:
        """A global `ARG NAME=default ...` (only these reach FROM lines)."""
        pairs = [part.named_children for part in parts if part.type == "arg_pair"]
        for named in pairs or [[part for part in parts if part.is_named]]:
            if len(named) < 2 or named[0].type != "unquoted_string":
                continue
            value = self.document.source(named[1])
            quoted = named[1].type in ("double_quoted_string", "single_quoted_string")
            if quoted and len(value) >= 2:
                value = value[1:-1]
            self.arguments[self.document.source(named[0])] = value

    def _from(self, parts: Sequence[Node]) -> None:
        spec = next((part for part in parts if part.type == "image_spec"), None)
        alias_node = next((part for part in parts if part.type == "image_alias"), None)
        if spec is None:
            spec = next((part for part in parts if part.is_named and part.type != "param"), None)
        if spec is None:
            return
        written = self.document.source(spec).split()[0] if self.document.source(spec) else ""
        alias = self.document.source(alias_node).lower() if alias_node is not None else None
        parent = next(
            (stage for stage in reversed(self.stages) if stage.alias == written.lower()), None
        )
        if parent is not None:
            self.stages.append(
                replace(
                    parent,
                    alias=alias,
                    cmd_inherited=parent.cmd is not None,
                    environ=list(parent.environ),
                )
            )
            return
        image = self._substitute(written)
        self.stages.append(
            _Stage(
                image,
                self.document.start(spec),
                self.document.start(spec) + len(written),
                alias,
                argv.is_vllm_image(image),
            )
        )

    def _substitute(self, written: str) -> str:
        """The image a FROM names once global ARG defaults are filled in (as written when a
        reference has no default)."""
        missing = False

        def value(match: re.Match[str]) -> str:
            nonlocal missing
            name = match.group(1) or match.group(3)
            if name in self.arguments:
                return self.arguments[name]
            if match.group(2) is not None:
                return match.group(2)
            missing = True
            return match.group(0)

        substituted = _ARG_REFERENCE.sub(value, written)
        return written if missing else substituted

    # -- what a stage runs ------------------------------------------------------------------

    def _stage(self, stage: _Stage, *, final: bool) -> None:
        """What the stage runs; a start read from an exec form that is not valid JSON
        carries the break (`exec_form`)."""
        before = len(self.found)
        self._runs(stage, final=final)
        broken = [c.broken for c in (stage.entrypoint, stage.cmd) if c and c.broken]
        for at in range(before, len(self.found)):
            invocation = self.found[at]
            self.found[at] = replace(invocation, breaks=(*invocation.breaks, *broken))

    def _runs(self, stage: _Stage, *, final: bool) -> None:
        entrypoint, cmd = stage.entrypoint, stage.cmd
        if entrypoint is not None and not entrypoint.exec_form:
            self._script(stage, entrypoint)  # shell form: CMD is ignored
            return
        if entrypoint is not None:
            self._argv(stage, entrypoint.words, cmd)
            return
        if cmd is None:
            if stage.vllm_image and final:
                self._container(stage, [])
            return
        if cmd.exec_form:
            self._container(stage, cmd.words)
            return
        if self._script(stage, cmd) or not stage.vllm_image:
            return
        self._container(stage, self._command_words(cmd))

    def _argv(self, stage: _Stage, head: list[Word], cmd: _Command | None) -> None:
        """Exec-form ENTRYPOINT: CMD supplies its arguments (a shell-form CMD's words are
        taken as arguments, which is what its author meant even though Docker would pass
        `/bin/sh -c ...`)."""
        tail: list[Word] = []
        if cmd is not None:
            tail = cmd.words if cmd.exec_form else self._command_words(cmd)
        self.found.extend(
            shell.container_invocations(stage.image, tail, source="dockerfile", entrypoint=head)
        )

    def _container(self, stage: _Stage, words: list[Word]) -> None:
        """No ENTRYPOINT of the stage's own: the CMD when it starts vLLM itself, else the
        base image's entrypoint with the CMD as its arguments (`argv.container`); the start
        spans the first CMD word, the FROM image when there is none."""
        self.found.extend(
            shell.container_invocations(
                stage.image,
                words,
                source="dockerfile",
                anchor=(stage.image_start, stage.image_end),
            )
        )

    def _script(self, stage: _Stage, command: _Command) -> bool:
        """A shell-form command line, read by the shell source. The container's shell
        expands its `$NAME`s with the stage's `ENV` (an `ARG` is gone by then): a plain
        value fills them, as a task's `envs:` do (`sources.task_env`)."""
        found = shell.find_invocations(command.script, source="dockerfile")
        to_document = SourceMap.of_positions(command.positions)
        fills = task_env.fills(tuple(stage.environ), command.script)
        for invocation in found:
            args = [task_env.filled(word, fills) for word in invocation.args]
            moved = to_document.invocation(replace(invocation, args=args), image=stage.image)
            self.found.append(moved)
        return bool(found)

    def _command_words(self, command: _Command) -> list[Word]:
        to_document = SourceMap.of_positions(command.positions)
        return [to_document.word(word) for word in shell.command_words(command.script)]
