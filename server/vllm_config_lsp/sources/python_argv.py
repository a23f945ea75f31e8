"""vLLM server starts in Python launchers: argv lists and command strings, read with `ast`.

RL, eval and orchestration code starts vLLM from Python, as an argv list (`["vllm", "serve",
model, "--port", str(port)]`, often built up with `cmd += [...]` under `if`s) or as a command
string run with `shell=True` (or written into a generated script). The file is parsed with
the standard `ast` module and never imported or executed: launchers import GPU stacks and
start servers at import time. Only string literals are read, so comments that mention flags
(`# --host: use ::`) are ignored by construction.

Positions point inside the literal that wrote each character (after the opening quote), so a
flag's diagnostic lands on the flag and not on the quote. Each literal's text is decoded here
(escapes, implicit concatenation, f-string fields) with every character mapped to its source,
and the decoding is checked against the value `ast` computed; a literal that does not check
out is still read, with all its characters mapped to the whole literal.

A module constant is known: a name the module assigns exactly once, at its top level, to a
string or number literal, that nothing else binds in the module's scope and no function
declares `global` (`python_calls.module_constants`), used where no function around the use
binds the name, as an argv item, `str(NAME)`, a `+` operand or a plain f-string field
(`f"--model={HF_MODEL}"`), is its literal's text, mapped to the literal (a finding on it
lands there, and its fix edits it). Otherwise, what Python computes is not known: a name, a
call or an f-string field becomes a word that
shows the expression in braces (`{str(port)}`) and lists it in `unresolved`; `*args`,
`cmd.extend(extra)` and a whole unquoted field in a shell string (`f"vllm serve {extra}"`,
which the shell splits) are splats. `{name}` placeholders in plain strings are `str.format`
templates filled later, so they are unresolved too.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import unicodedata
import warnings
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from vllm_config_lsp.sources import argv, python_calls, shell
from vllm_config_lsp.sources.invocation import EnvVar, Invocation, Word
from vllm_config_lsp.sources.source_map import SourceMap

__all__ = ["find_invocations"]

#: Calls whose string arguments are messages, not commands.
_OUTPUT_CALLS = frozenset(
    {
        "print",
        "debug",
        "info",
        "warning",
        "warn",
        "error",
        "exception",
        "critical",
        "fatal",
        "log",
        "echo",
        "secho",
        "write",
        "add_argument",
    }
)
#: Keyword arguments whose strings are messages (`help=`, `description=`).
_TEXT_KEYWORDS = frozenset({"help", "description", "epilog", "usage", "msg", "message"})
#: A `str.format` replacement field in a plain string: `{name}`, `{0}`, `{obj.attr[0]!r:>8}`.
_FORMAT_FIELD = re.compile(
    r"\{(?:[A-Za-z_][A-Za-z0-9_]*|\d+)(?:\.[A-Za-z_][A-Za-z0-9_]*|\[[^\]{}]*\])*"
    r"(?:![rsa])?(?::[^{}]*)?\}"
)
_SIMPLE_ESCAPES = {
    "\\": "\\",
    "'": "'",
    '"': '"',
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
}
_HEX_WIDTHS = {"x": 2, "u": 4, "U": 8}
_PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError)


def find_invocations(text: str) -> list[Invocation]:
    """Every vLLM server start a Python file spells out, in document order, with offsets
    into `text`: argv lists (and lists grown with `+=`/`.extend`/`.append` in the same
    scope) and command strings (f-strings included) that a shell would run, and the
    engine-argument calls and Modal GPUs `python_calls` reads."""
    if "vllm" not in text and "ray.serve.llm" not in text and "ray.llm" not in text:
        return []  # every start names vLLM, or imports Ray Serve LLM: no parse, no tokens
    try:
        with warnings.catch_warnings():
            # `"\d"` in the user's file is their warning to see, not ours to print.
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except _PARSE_ERRORS:
        return []
    try:
        reader = _Reader(_Source(text), tree)
        reader.run()
        calls, scopes = python_calls.read(tree, reader)
        reader.found.extend(calls)
        found = _in_ray_workers(reader, reader.found) if "ray" in text else reader.found
    except RecursionError:
        return []
    unique: dict[int, Invocation] = {}
    for invocation in found:
        unique.setdefault(invocation.start, invocation)
    found = sorted(unique.values(), key=lambda invocation: invocation.start)
    return python_calls.with_gpus(found, scopes)


# -- source positions -----------------------------------------------------------------------


class _Source:
    """The text, `ast` position conversion (ast counts UTF-8 bytes per line), and the span
    of every string token (implicitly concatenated literals are one `ast` node)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.line_starts = [0]
        for match in re.finditer(r"\r\n?|\n", text):
            self.line_starts.append(match.end())
        self.pieces = _string_tokens(text, self.line_starts)
        self.piece_starts = [start for start, _ in self.pieces]

    def offset(self, line: int, column: int) -> int:
        """Character offset of an `ast` (1-based line, UTF-8 byte column) position."""
        index = min(max(line - 1, 0), len(self.line_starts) - 1)
        start = self.line_starts[index]
        end = self.line_starts[index + 1] if index + 1 < len(self.line_starts) else len(self.text)
        line_text = self.text[start:end]
        if line_text.isascii():
            return start + min(column, len(line_text))
        prefix = line_text.encode("utf-8", "surrogatepass")[:column]
        return start + len(prefix.decode("utf-8", "replace"))

    def span(self, node: ast.AST) -> tuple[int, int]:
        line = getattr(node, "lineno", 1)
        column = getattr(node, "col_offset", 0)
        end_line = getattr(node, "end_lineno", None) or line
        end_column = getattr(node, "end_col_offset", None)
        start = self.offset(line, column)
        end = self.offset(end_line, end_column) if end_column is not None else start
        return start, max(start, end)

    def pieces_in(self, start: int, end: int) -> list[tuple[int, int]]:
        index = bisect_left(self.piece_starts, start)
        found: list[tuple[int, int]] = []
        while index < len(self.pieces) and self.pieces[index][1] <= end:
            found.append(self.pieces[index])
            index += 1
        return found


def _string_tokens(text: str, line_starts: list[int]) -> list[tuple[int, int]]:
    """Spans of the outermost string tokens (an f-string with all its nested parts, on
    Python 3.12+ where the tokenizer splits f-strings, is one span)."""
    spans: list[tuple[int, int]] = []

    def offset(position: tuple[int, int]) -> int:
        return line_starts[min(position[0] - 1, len(line_starts) - 1)] + position[1]

    fstring_start = getattr(tokenize, "FSTRING_START", -1)
    fstring_end = getattr(tokenize, "FSTRING_END", -2)
    depth = 0
    opened = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text, newline="").readline):
            if token.type == fstring_start:
                if depth == 0:
                    opened = offset(token.start)
                depth += 1
            elif token.type == fstring_end:
                depth -= 1
                if depth == 0:
                    spans.append((opened, offset(token.end)))
            elif token.type == tokenize.STRING and depth == 0:
                spans.append((offset(token.start), offset(token.end)))
    except (tokenize.TokenError, SyntaxError):
        pass
    return spans


# -- decoded text ---------------------------------------------------------------------------


@dataclass
class _Text:
    """Text a string expression produces, with the source span of each character. Python
    fields (f-string `{expr}`, a non-literal operand) appear as written in `chars`; in
    `shell` they are opaque runs the shell keeps as one literal word piece."""

    chars: list[str] = field(default_factory=list)
    shell: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    #: (start, end, what `unresolved` lists) of each field, in `chars` offsets: an f-string
    #: field as written (`{args.model}`), another operand as its source (`model`).
    fields: list[tuple[int, int, str]] = field(default_factory=list)

    def add(self, char: str, start: int, end: int) -> None:
        self.chars.append(char)
        self.shell.append(char)
        self.starts.append(start)
        self.ends.append(end)

    def add_field(
        self, written: str, start: int, end: int, *, exact: bool, source: str | None = None
    ) -> None:
        """A Python expression shown as `written`: `exact` when that is the source text at
        `start`; `source` is what `unresolved` lists (default: `written`)."""
        first = len(self.chars)
        for index, char in enumerate(written):
            self.chars.append(char)
            self.shell.append("Z")
            if exact:
                self.starts.append(start + index)
                self.ends.append(start + index + 1)
            else:
                self.starts.append(start)
                self.ends.append(end)
        if written:
            # `%` cannot continue a `$` expansion, so `$` + placeholder stays literal.
            self.shell[first] = "%"
            self.shell[-1] = "%"
        self.fields.append((first, len(self.chars), written if source is None else source))

    def extend(self, other: _Text) -> None:
        shift = len(self.chars)
        self.chars.extend(other.chars)
        self.shell.extend(other.shell)
        self.starts.extend(other.starts)
        self.ends.extend(other.ends)
        self.fields.extend((start + shift, end + shift, text) for start, end, text in other.fields)

    def part(self, start: int, end: int) -> _Text:
        """Characters `[start, end)`, with the fields that lie inside them."""
        out = _Text(self.chars[start:end], self.shell[start:end])
        out.starts, out.ends = self.starts[start:end], self.ends[start:end]
        out.fields = [(a - start, b - start, w) for a, b, w in self.fields if start <= a < end]
        return out

    def text(self) -> str:
        return "".join(self.chars)

    def source_map(self) -> SourceMap:
        """The text's offsets → document offsets, as the text stands now."""
        return SourceMap(tuple(self.starts), tuple(self.ends), self.ends[-1] if self.ends else 0)


def _decode_piece(text: str, start: int, end: int) -> _Text | None:
    """One string token (`'a'`, `rb"..."`, `f'''...'''`) decoded with positions; None for
    bytes or anything this decoder does not recognise."""
    raw = text[start:end]
    index = 0
    while index < len(raw) and raw[index] in "rRbBuUfF":
        index += 1
    prefix = raw[:index].lower()
    if "b" in prefix or index >= len(raw):
        return None
    quote = raw[index : index + 3] if raw[index : index + 3] in ('"""', "'''") else raw[index]
    if quote not in ('"', "'", '"""', "'''") or len(raw) < index + 2 * len(quote):
        return None
    if not raw.endswith(quote):
        return None
    is_raw, is_f = "r" in prefix, "f" in prefix
    out = _Text()
    cursor = start + index + len(quote)
    stop = end - len(quote)
    while cursor < stop:
        char = text[cursor]
        if char == "\\" and not is_raw:
            cursor = _escape(text, cursor, stop, out)
            continue
        if is_f and char == "{":
            if cursor + 1 < stop and text[cursor + 1] == "{":
                out.add("{", cursor, cursor + 2)
                cursor += 2
                continue
            close = _field_end(text, cursor, stop)
            if close is None:
                return None
            out.add_field(text[cursor:close], cursor, close, exact=True)
            cursor = close
            continue
        if is_f and char == "}" and cursor + 1 < stop and text[cursor + 1] == "}":
            out.add("}", cursor, cursor + 2)
            cursor += 2
            continue
        if char == "\\" and is_raw and cursor + 1 < stop:
            out.add(char, cursor, cursor + 1)
            out.add(text[cursor + 1], cursor + 1, cursor + 2)
            cursor += 2
            continue
        if char == "\r":
            # Python reads \r\n and a lone \r inside a triple-quoted string as \n.
            width = 2 if text[cursor + 1 : cursor + 2] == "\n" else 1
            out.add("\n", cursor, cursor + width)
            cursor += width
            continue
        out.add(char, cursor, cursor + 1)
        cursor += 1
    return out


def _escape(text: str, index: int, stop: int, out: _Text) -> int:
    """Decode the escape at `text[index]` (a backslash) into `out`; return where it ends."""
    if index + 1 >= stop:
        out.add("\\", index, index + 1)
        return index + 1
    letter = text[index + 1]
    if letter == "\n":
        return index + 2
    if letter == "\r":
        return index + 3 if text[index + 2 : index + 3] == "\n" else index + 2
    if letter in _SIMPLE_ESCAPES:
        out.add(_SIMPLE_ESCAPES[letter], index, index + 2)
        return index + 2
    if letter in "01234567":
        stop_digits = index + 1
        while stop_digits < min(stop, index + 4) and text[stop_digits] in "01234567":
            stop_digits += 1
        out.add(chr(int(text[index + 1 : stop_digits], 8)), index, stop_digits)
        return stop_digits
    if letter in _HEX_WIDTHS:
        digits = text[index + 2 : index + 2 + _HEX_WIDTHS[letter]]
        if len(digits) == _HEX_WIDTHS[letter] and index + 2 + len(digits) <= stop:
            try:
                value = int(digits, 16)
                out.add(chr(value), index, index + 2 + len(digits))
                return index + 2 + len(digits)
            except ValueError:
                pass
    if letter == "N" and text[index + 2 : index + 3] == "{":
        close = text.find("}", index + 3, stop)
        if close > 0:
            try:
                out.add(unicodedata.lookup(text[index + 3 : close]), index, close + 1)
                return close + 1
            except KeyError:
                pass
    out.add("\\", index, index + 1)
    return index + 1


def _field_end(text: str, index: int, stop: int) -> int | None:
    """End (exclusive) of the f-string field opening at `text[index]`: brackets nest, and
    quotes inside the expression are skipped."""
    depth = 0
    cursor = index
    while cursor < stop:
        char = text[cursor]
        if char in "'\"":
            close = text.find(char, cursor + 1, stop)
            if close < 0:
                return None
            cursor = close + 1
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return cursor + 1 if char == "}" else None
        cursor += 1
    return None


# -- reading the tree -----------------------------------------------------------------------


@dataclass
class _Sequence:
    """An argv list variable as the scope builds it: its elements in source order."""

    words: list[Word]
    nodes: list[ast.AST]


class _Reader:
    def __init__(self, source: _Source, tree: ast.Module) -> None:
        self.source = source
        self.tree = tree
        self.found: list[Invocation] = []
        self.parents: dict[int, ast.AST] = {}
        #: List literals already read as part of a variable's argv.
        self.consumed: set[int] = set()
        self.string_chains: dict[int, bool] = {}
        self.list_chains: dict[int, bool] = {}
        #: The module's string and number constants (`python_calls.module_constants`), and
        #: the names the scopes around each name bind (there it is not the constant).
        self.constants = python_calls.literal_constants(
            python_calls.module_constants(tree), frozenset()
        )
        self.bound = python_calls.bound_around(tree, (ast.Name,)) if self.constants else {}

    def _strings(self, node: ast.AST) -> bool:
        return _is_string_chain(node, self.string_chains)

    def _lists(self, node: ast.AST) -> bool:
        return _is_list_chain(node, self.list_chains)

    def run(self) -> None:
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
        for scope in ast.walk(self.tree):
            if isinstance(scope, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self._scope(scope.body)
        self._literal_lists()
        self._command_strings()

    # -- argv lists -------------------------------------------------------------------------

    def _scope(self, body: Sequence[ast.stmt]) -> None:
        """Follow list variables through one scope in source order: `cmd = [...]` starts a
        list, `cmd += [...]`, `cmd = cmd + [...]`, `cmd.extend([...])`, `cmd.append(x)`
        grow it (whatever `if` they sit under), a new assignment ends it."""
        sequences: dict[str, _Sequence] = {}
        for statement in _statements(body):
            target, value, grow = _list_event(statement)
            if target is None:
                continue
            if grow == "reset":
                if target in sequences:
                    self._finish(sequences.pop(target))
                words = self._elements(value) if value is not None else None
                if words is not None and value is not None:
                    sequences[target] = _Sequence(words, [value])
                continue
            sequence = sequences.get(target)
            if sequence is None or value is None:
                continue
            if grow == "append":
                sequence.words.append(self._element(value))
                sequence.nodes.append(value)
                continue
            words = self._elements(value)
            if words is None:
                words = [self._splat(value)]
            sequence.words.extend(words)
            sequence.nodes.append(value)
        for sequence in sequences.values():
            self._finish(sequence)

    def _finish(self, sequence: _Sequence) -> None:
        if self._match(sequence.words):
            for node in sequence.nodes:
                for inner in ast.walk(node):
                    self.consumed.add(id(inner))

    def _literal_lists(self) -> None:
        """Argv lists not bound to a variable: `subprocess.Popen(["vllm", "serve", m])`,
        `[sys.executable, "-m", "vllm.entrypoints.openai.api_server", *args]`."""
        for node in ast.walk(self.tree):
            if id(node) in self.consumed or not self._lists(node):
                continue
            parent = self.parents.get(id(node))
            if parent is not None and self._lists(parent):
                continue  # read as part of the larger `a + b`
            words = self._elements(node)
            if words is not None and self._match(words):
                for inner in ast.walk(node):
                    self.consumed.add(id(inner))

    def _elements(self, node: ast.AST) -> list[Word] | None:
        """Argv words of a list-valued expression (`[...]`, `(...)`, `a + [...]`); None when
        it is not one."""
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self._element(item) for item in node.elts]
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and self._lists(node):
            words: list[Word] = []
            for operand in _operands(node):
                if isinstance(operand, (ast.List, ast.Tuple)):
                    words.extend(self._element(item) for item in operand.elts)
                else:
                    words.append(self._splat(operand))
            return words
        return None

    def _element(self, node: ast.AST) -> Word:
        """One argv element: a literal decoded with positions, anything else unresolved."""
        if isinstance(node, ast.Starred):
            return self._splat(node)
        text = self._string(node)
        if text is not None:
            return self._word(text, *self.source.span(node))
        constant = self._constant(node)
        if constant is not None:  # its characters where the module writes the value
            return self._word(constant, *self.source.span(node))
        written = self._written(node)
        start, end = self.source.span(node)
        rendered = "{" + written + "}"
        return Word(
            rendered,
            start,
            end,
            tuple([start] * len(rendered)),
            tuple([end] * len(rendered)),
            unresolved=(written,),
            quoting="python",
        )

    def _splat(self, node: ast.AST) -> Word:
        """`*args`, `cmd.extend(extra)`, `base + [...]`: any number of unknown words."""
        written = self._written(node)
        start, end = self.source.span(node)
        rendered = "{" + written + "}"
        return Word(
            rendered,
            start,
            end,
            tuple([start] * len(rendered)),
            tuple([end] * len(rendered)),
            unresolved=(written,),
            quoting="python",
            splat=True,
        )

    def _word(self, text: _Text, start: int, end: int) -> Word:
        value = text.text()
        unresolved = [written for _, _, written in text.fields]
        masked = list(value)
        for field_start, field_end, _ in text.fields:
            masked[field_start:field_end] = " " * (field_end - field_start)
        unresolved.extend(_format_fields(value, "".join(masked)))
        to_document = text.source_map()
        return Word(
            value,
            start,
            end,
            tuple(to_document.start_of(index) for index in range(len(value))),
            tuple(to_document.end_of(index + 1) for index in range(len(value))),
            unresolved=tuple(dict.fromkeys(unresolved)),
            quoting="python",
        )

    def _match(self, words: list[Word]) -> bool:
        """Record the start in an argv (`sources.argv`): `vllm serve`, `<python> [-u] -m
        <api_server>`, the executable possibly `sys.executable`. A `bash -c` list is read
        with the command strings."""
        found = argv.match(words)
        if not isinstance(found, argv.Start):
            return False
        self.found.append(argv.invocation(found, "python"))
        return True

    # -- command strings --------------------------------------------------------------------

    def _command_strings(self) -> None:
        """Strings a shell runs: a literal, an f-string or a `+` chain of them, or a list of
        script lines (each item one line of a generated script, joined by newlines)."""
        handled: set[int] = set()
        for node in ast.walk(self.tree):
            if id(node) in self.consumed or id(node) in handled:
                continue
            if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) > 1:
                if all(self._strings(item) for item in node.elts):
                    handled.update(id(item) for item in node.elts)
                    if not self._message(node):
                        self._string_list(node)
                continue
            if not self._strings(node):
                continue
            parent = self.parents.get(id(node))
            if parent is not None and self._strings(parent):
                continue  # part of a larger concatenation
            if isinstance(parent, (ast.JoinedStr, ast.FormattedValue)) or self._message(node):
                continue
            text = self._string(node)
            if text is not None:
                self._shell(text)

    def _string_list(self, node: ast.List | ast.Tuple) -> None:
        """A list of strings is either the lines of a script (an item holds a whole command
        line, or ends in a `\\` continuation) or another program's argv, whose items are
        arguments, not commands (`["pkill", "-f", "vllm serve"]`) except the script of
        `["bash", "-c", "..."]`."""
        values = [_static_text(item) for item in node.elts]
        first = values[0].strip()
        if any("\n" in value or value.rstrip().endswith("\\") for value in values) or (
            any(char.isspace() for char in first)
        ):
            self._lines(node)
            return
        shells = ("sh", "bash", "zsh", "dash", "ksh", "ash")
        option = values[1]
        if (
            first.rsplit("/", 1)[-1] in shells
            and option.startswith("-")
            and "c" in option.lstrip("-")
            and len(node.elts) > 2
        ):
            script = self._string(node.elts[2])
            if script is not None:
                self._shell(script)

    def _lines(self, node: ast.List | ast.Tuple) -> None:
        joined = _Text()
        for index, item in enumerate(node.elts):
            text = self._string(item)
            if text is None:
                return
            if index:
                _, previous_end = self.source.span(node.elts[index - 1])
                joined.add("\n", max(previous_end - 1, 0), previous_end)
            joined.extend(text)
        self._shell(joined)

    def _shell(self, text: _Text) -> None:
        script = "".join(text.shell)
        if "vllm" not in script:
            return
        to_document = text.source_map()

        def restored(word: Word) -> Word:
            return _shell_word(word, text, to_document)

        for invocation in shell.find_invocations(script, source="python"):
            moved = to_document.invocation(replace(invocation, args=[], environ=()))
            args = [restored(word) for word in invocation.args]
            environ = tuple(var.relocated(restored) for var in invocation.environ)
            self.found.append(replace(moved, source="python", args=args, environ=environ))

    def _message(self, node: ast.AST) -> bool:
        """Whether a string is a message (docstring, `print`/logging argument, `help=`,
        exception text) rather than something that could be run."""
        current = node
        parent = self.parents.get(id(current))
        while isinstance(parent, (ast.BinOp, ast.IfExp, ast.List, ast.Tuple, ast.JoinedStr)):
            current, parent = parent, self.parents.get(id(parent))
        if isinstance(parent, ast.Expr):
            return True
        if isinstance(parent, ast.keyword):
            return parent.arg in _TEXT_KEYWORDS
        if isinstance(parent, (ast.Raise, ast.Assert)):
            return True
        if isinstance(parent, ast.Call) and current in parent.args:
            name = _call_name(parent.func)
            if name in _OUTPUT_CALLS:
                return True
            grand = self.parents.get(id(parent))
            return isinstance(grand, ast.Raise)
        return False

    def _string(self, node: ast.AST) -> _Text | None:
        """The text of a string expression, with positions: a literal (its tokens decoded
        and checked against `ast`'s value), an f-string, or a `+` chain of them where any
        other operand becomes a field."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and self._strings(node):
            joined = _Text()
            for operand in _operands(node):
                joined.extend(self._string(operand) or self._field(operand))
            return joined
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return self._literal(node, node.value)
        if isinstance(node, ast.JoinedStr):
            return self._literal(node, None)
        return None

    def _field(self, node: ast.AST) -> _Text:
        constant = self._constant(node)
        if constant is not None:
            return constant
        text = _Text()
        start, end = self.source.span(node)
        written = self._written(node)
        text.add_field("{" + written + "}", start, end, exact=False, source=written)
        return text

    def _literal(self, node: ast.Constant | ast.JoinedStr, value: str | None) -> _Text:
        start, end = self.source.span(node)
        decoded = _Text()
        for piece_start, piece_end in self.source.pieces_in(start, end):
            piece = _decode_piece(self.source.text, piece_start, piece_end)
            if piece is None:
                decoded = _Text()
                break
            decoded.extend(piece)
        if _shape(decoded) == _expected_shape(node, value):
            return self._filled(decoded, node) if isinstance(node, ast.JoinedStr) else decoded
        return self._approximate(node, start, end)

    def _filled(self, decoded: _Text, node: ast.JoinedStr) -> _Text:
        """An f-string with each `{NAME}` field of a module constant (no conversion but
        `!s`, no format spec) filled in with the constant's text."""
        parts = [part for part in node.values if isinstance(part, ast.FormattedValue)]
        if len(parts) != len(decoded.fields):
            return decoded
        out = _Text()
        cursor = 0
        for (start, end, _), part in zip(decoded.fields, parts, strict=True):
            plain = part.conversion in (-1, ord("s")) and part.format_spec is None
            constant = self._constant(part.value) if plain else None
            out.extend(decoded.part(cursor, start))
            out.extend(constant if constant is not None else decoded.part(start, end))
            cursor = end
        out.extend(decoded.part(cursor, len(decoded.chars)))
        return out

    def _constant(self, node: ast.AST) -> _Text | None:
        """The text of a module constant (`NAME`, or `str(NAME)`) where the module writes
        it; None for anything else, or a name the scopes around it bind."""
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "str"
            and len(node.args) == 1
            and not node.keywords
            and "str" not in self.bound.get(id(node.func), ())
        ):
            node = node.args[0]
        if not isinstance(node, ast.Name) or node.id in self.bound.get(id(node), ()):
            return None
        literal = self.constants.get(node.id)
        if not isinstance(literal, ast.Constant):
            return None
        if isinstance(literal.value, str):
            return self._literal(literal, literal.value)
        start, end = self.source.span(literal)
        written = str(literal.value)
        text = _Text()
        exact = self.source.text[start:end] == written
        for index, char in enumerate(written):
            text.add(char, start + index if exact else start, start + index + 1 if exact else end)
        return text

    def _approximate(self, node: ast.Constant | ast.JoinedStr, start: int, end: int) -> _Text:
        """The literal's value from `ast`, every character mapped to the whole literal."""
        text = _Text()
        if isinstance(node, ast.Constant):
            for char in str(node.value):
                text.add(char, start, end)
            return text
        for part in node.values:
            if isinstance(part, ast.Constant):
                for char in str(part.value):
                    text.add(char, start, end)
            elif isinstance(part, ast.FormattedValue):
                text.add_field("{" + _unparse(part.value) + "}", start, end, exact=False)
        return text

    def _written(self, node: ast.AST) -> str:
        start, end = self.source.span(node)
        written = self.source.text[start:end]
        return written if written.strip() else _unparse(node)

    # -- what `python_calls` reads through (`python_calls.Strings`) --------------------------

    def span(self, node: ast.AST) -> tuple[int, int]:
        return self.source.span(node)

    def written(self, node: ast.AST) -> str:
        return self._written(node)

    def string_word(self, node: ast.AST, quoting: str) -> Word | None:
        text = self._string(node)
        if text is None:
            return None
        return replace(self._word(text, *self.source.span(node)), quoting=quoting)


def _shell_word(word: Word, text: _Text, to_document: SourceMap) -> Word:
    """A word the shell found in a Python string, with Python fields restored in its text
    (the shell saw opaque placeholders), marked unresolved, and moved to the document."""
    spans = [(start, end) for start, end, _ in text.fields]
    field_starts = [start for start, _ in spans]

    def field_of(position: int) -> int | None:
        index = bisect_left(field_starts, position + 1) - 1
        if index >= 0 and spans[index][0] <= position < spans[index][1]:
            return index
        return None

    chars = list(word.text)
    masked = list(word.text)
    touched: dict[int, None] = {}
    for index, position in enumerate(word.starts[: len(chars)]):
        owner = field_of(position)
        if owner is not None:
            chars[index] = text.chars[position]
            masked[index] = " "
            touched[owner] = None
    restored = "".join(chars)
    unresolved: list[str] = []
    for item in word.unresolved:
        at = word.text.find(item)
        unresolved.append(restored[at : at + len(item)] if at >= 0 else item)
    unresolved.extend(text.fields[owner][2] for owner in touched)
    unresolved.extend(_format_fields(restored, "".join(masked)))
    # An unquoted field that is the whole word: the shell splits whatever Python put there.
    splat = word.splat or any(
        (word.start, word.end) == spans[owner] and not _quoted(word) for owner in touched
    )
    restored_word = replace(
        word,
        text=restored,
        unresolved=tuple(dict.fromkeys(unresolved)),
        splat=splat,
        quoting="python",
    )
    return to_document.word(restored_word)


def _format_fields(text: str, masked: str) -> list[str]:
    """`str.format` fields written in the literal parts of `text` (`masked` is `text` with
    the Python fields blanked, so `f"{x:{w}}"` does not also count `{w}`)."""
    return [text[match.start() : match.end()] for match in _FORMAT_FIELD.finditer(masked)]


def _quoted(word: Word) -> bool:
    """Whether the shell removed quotes around (part of) the word."""
    return len(word.starts) != word.end - word.start


def _shape(text: _Text) -> str:
    """A literal's value with each field replaced by a marker (fields compare by count)."""
    out: list[str] = []
    cursor = 0
    for start, end, _ in text.fields:
        out.append("".join(text.chars[cursor:start]))
        out.append("\0field\0")
        cursor = end
    out.append("".join(text.chars[cursor:]))
    return "".join(out)


def _expected_shape(node: ast.Constant | ast.JoinedStr, value: str | None) -> str:
    if value is not None:
        return value
    out: list[str] = []
    if isinstance(node, ast.JoinedStr):
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value))
            else:
                out.append("\0field\0")
    return "".join(out)


def _static_text(node: ast.AST) -> str:
    """The literal parts of a string expression (fields and other operands left out)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(_static_text(part) for part in node.values)
    if isinstance(node, ast.BinOp):
        return _static_text(node.left) + _static_text(node.right)
    return ""


def _unparse(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except (ValueError, RecursionError, AttributeError):
        return "..."


def _call_name(func: ast.AST) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _is_string_chain(node: ast.AST, cache: dict[int, bool]) -> bool:
    """A string expression: a str literal, an f-string, or `+` with one among its operands."""
    return _any_operand(node, cache, lambda leaf: isinstance(leaf, ast.JoinedStr) or _is_str(leaf))


def _is_list_chain(node: ast.AST, cache: dict[int, bool]) -> bool:
    """A list expression: a list/tuple literal or `+` with one among its operands."""
    return _any_operand(node, cache, lambda leaf: isinstance(leaf, (ast.List, ast.Tuple)))


def _is_str(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _any_operand(node: ast.AST, cache: dict[int, bool], leaf: Callable[[ast.AST], bool]) -> bool:
    """Whether `leaf` holds for `node` or, for `a + b`, for any operand; computed without
    recursion and memoized, so every node of a long `a + b + ...` chain costs O(1)."""
    stack: list[tuple[ast.AST, bool]] = [(node, False)]
    while stack:
        current, expanded = stack.pop()
        if id(current) in cache:
            continue
        if isinstance(current, ast.BinOp) and isinstance(current.op, ast.Add):
            if expanded:
                cache[id(current)] = cache[id(current.left)] or cache[id(current.right)]
            else:
                stack.extend([(current, True), (current.right, False), (current.left, False)])
        else:
            cache[id(current)] = leaf(current)
    return cache[id(node)]


def _operands(node: ast.AST) -> list[ast.AST]:
    """The operands of an `a + b + ...` chain in source order (iteratively: chains of
    thousands of terms exist in generated code)."""
    operands: list[ast.AST] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.BinOp) and isinstance(current.op, ast.Add):
            stack.extend([current.right, current.left])
        else:
            operands.append(current)
    return operands


def _statements(body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of one scope in source order, entering `if`/`for`/`while`/`with`/
    `try`/`match` blocks but not nested functions or classes (scopes of their own)."""
    stack: list[Iterator[ast.stmt]] = [iter(body)]
    while stack:
        statement = next(stack[-1], None)
        if statement is None:
            stack.pop()
            continue
        yield statement
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        blocks: list[list[ast.stmt]] = []
        for name in ("body", "orelse", "finalbody"):
            block = getattr(statement, name, None)
            if isinstance(block, list):
                blocks.append(block)
        for handler in getattr(statement, "handlers", []):
            blocks.append(handler.body)
        for case in getattr(statement, "cases", []):
            blocks.append(case.body)
        # Source order: handlers sit between body and orelse/finalbody.
        blocks.sort(key=lambda block: (block[0].lineno, block[0].col_offset) if block else (0, 0))
        stack.append(_chain(blocks))


def _chain(blocks: list[list[ast.stmt]]) -> Iterator[ast.stmt]:
    for block in blocks:
        yield from block


def _list_event(statement: ast.stmt) -> tuple[str | None, ast.expr | None, str]:
    """What a statement does to a list variable: ("cmd", value, "reset"|"extend"|"append")."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Name):
            value = statement.value
            if (
                isinstance(value, ast.BinOp)
                and isinstance(value.op, ast.Add)
                and isinstance(value.left, ast.Name)
                and value.left.id == target.id
            ):
                return target.id, value.right, "extend"
            return target.id, value, "reset"
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return statement.target.id, statement.value, "reset"
    if (
        isinstance(statement, ast.AugAssign)
        and isinstance(statement.target, ast.Name)
        and isinstance(statement.op, ast.Add)
    ):
        return statement.target.id, statement.value, "extend"
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        call = statement.value
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.attr in ("append", "extend")
            and len(call.args) == 1
            and not call.keywords
        ):
            return func.value.id, call.args[0], func.attr
    return None, None, ""


# -- Ray's runtime environment ---------------------------------------------------------------

#: Decorators whose function or class runs in a Ray worker (a task, an actor, a Serve
#: deployment's replicas), with the `runtime_env` option each takes.
_RAY_WORKERS = {"remote": "runtime_env", "deployment": "ray_actor_options"}


def _in_ray_workers(reader: _Reader, found: list[Invocation]) -> list[Invocation]:
    """The starts inside a Ray task, actor or Serve deployment, with the environment Ray
    gives its workers: the job's `ray.init(runtime_env={"env_vars": {...}})`, then the
    worker's own (`@ray.remote(runtime_env=...)`, `@serve.deployment(ray_actor_options=
    {"runtime_env": ...})`), whose `env_vars` win a name both set (ray
    python/ray/_private/runtime_env: a task's runtime_env is merged over the job's). The
    node's own environment is not written here: open."""
    job: tuple[EnvVar, ...] = ()
    scopes: list[tuple[int, int, tuple[EnvVar, ...]]] = []
    for node in ast.walk(reader.tree):
        if isinstance(node, ast.Call) and _called(node.func) == ("ray", "init"):
            job = (*job, *_env_vars(reader, _keyword(node, "runtime_env"), "ray.init"))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator in node.decorator_list:
                own = _worker_environ(reader, decorator)
                if own is not None:
                    scopes.append((*reader.source.span(node), own))
    if not scopes:
        return found
    out = []
    for invocation in found:
        inside = [own for start, end, own in scopes if start <= invocation.start < end]
        if inside:
            environ = (*job, *(var for own in inside for var in own), *invocation.environ)
            invocation = replace(invocation, environ=environ, environ_open=True)
        out.append(invocation)
    return out


def _called(func: ast.expr) -> tuple[str, ...]:
    """`ray.init` → ("ray", "init"); `remote` → ("remote",)."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return (func.value.id, func.attr)
    return (func.id,) if isinstance(func, ast.Name) else ()


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((kw.value for kw in call.keywords if kw.arg == name), None)


def _worker_environ(reader: _Reader, decorator: ast.expr) -> tuple[EnvVar, ...] | None:
    """The environment a worker decorator sets (None: not a Ray worker decorator)."""
    call = decorator if isinstance(decorator, ast.Call) else None
    name = _called(call.func if call is not None else decorator)
    if not name or name[-1] not in _RAY_WORKERS or name[0] not in ("ray", "serve", name[-1]):
        return None
    if call is None:
        return ()
    option = _keyword(call, _RAY_WORKERS[name[-1]])
    if name[-1] == "deployment":
        option = _entry(option, "runtime_env")
    return _env_vars(reader, option, "runtime_env")


def _entry(node: ast.expr | None, key: str) -> ast.expr | None:
    """`{"key": value}` or `dict(key=value)`'s value."""
    if isinstance(node, ast.Dict):
        for name, value in zip(node.keys, node.values, strict=True):
            if isinstance(name, ast.Constant) and name.value == key:
                return value
    if isinstance(node, ast.Call) and _called(node.func) == ("dict",):
        return _keyword(node, key)
    return None


def _env_vars(reader: _Reader, runtime_env: ast.expr | None, origin: str) -> tuple[EnvVar, ...]:
    """`runtime_env={"env_vars": {"NAME": "value"}}` (or `dict(env_vars=dict(NAME=...))`):
    a name or value that is no string literal is not known here."""
    env_vars = _entry(runtime_env, "env_vars")
    pairs: list[tuple[ast.expr | str, ast.expr]] = []
    if isinstance(env_vars, ast.Dict):
        pairs = [(k, v) for k, v in zip(env_vars.keys, env_vars.values, strict=True) if k]
    elif isinstance(env_vars, ast.Call) and _called(env_vars.func) == ("dict",):
        pairs = [(kw.arg, kw.value) for kw in env_vars.keywords if kw.arg]
    found = []
    for key, value in pairs:
        name = _env_word(reader, key)
        if name is not None and name.starts:
            # the name is its characters, not its quotes: a rename writes only those
            name = replace(name, start=name.starts[0], end=name.ends[-1])
            found.append(EnvVar(name, _env_word(reader, value), origin))
    return tuple(found)


def _env_word(reader: _Reader, node: ast.expr | str) -> Word | None:
    if isinstance(node, str):  # a `dict(NAME=...)` keyword: no node of its own
        return None
    text = reader._string(node) if isinstance(node, ast.Constant) else None
    if text is None:
        return None
    return reader._word(text, *reader.source.span(node))
