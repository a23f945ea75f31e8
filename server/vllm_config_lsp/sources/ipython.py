"""vLLM starts in IPython code: a notebook's code cell, or a ```` ```python ```` block of a doc.

Colab and Kaggle guides start vLLM from a code cell in three ways, often in one notebook:
a shell escape (`!vllm serve … &`, `!python -m vllm.entrypoints.openai.api_server \\`), a
shell cell (`%%bash`, `%%sh`, `%%script bash`, Colab's `%%shell`), and Python
(`subprocess.Popen([...])`, `LLM(...)`). IPython turns the first two into shell commands
before Python sees the cell (`IPython.core.inputtransformer2`: `EscapedCommand` for `!`
and `!!`, a `\\`-ended line continuing the command; `cell_magic` for `%%` on the first
line), so they are read here as the shell host reads a script (`sources.shell_script`),
and the rest of the cell as Python (`sources.python_argv`), each through a map back to the
cell's characters.

In a `!` line IPython fills in `{expr}` and `$name` from the Python namespace
(`InteractiveShell.var_expand`) before the shell runs it: a `{NAME}` field of a constant
the cells' Python assigns before the line (`python_calls.module_constants`: once, to a
string or number literal) is that text; any other `{…}` field is unresolved (unknown,
never checked as written), as a template hole is; `$name` is left to the shell
reader, which takes it for a variable it does not know. `%env NAME=value` (and `%env NAME
value`, `%set_env`) sets the kernel's environment, which every later command inherits: it
is read as `export NAME=value`. `%pip`/`%conda` lines are shell lines (a `%pip install
vllm==X` pins the release, as `!pip install` does). Every other magic is left out of the
Python text (written over with a `0` and spaces, so the rest keeps its offsets and still
parses: `out = !ls` becomes `out = 0  `). `%%writefile NAME` writes its body to a file:
when a host reads a file of that name (`serve.sh`, `Dockerfile`), the body is read by it.
"""

from __future__ import annotations

import ast
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

from vllm_config_lsp.sources import hosts, python_argv, python_calls, shell_script
from vllm_config_lsp.sources.invocation import Invocation
from vllm_config_lsp.sources.source_map import SourceMap
from vllm_config_lsp.sources.yaml_hosts import Masked

__all__ = ["find_invocations", "read_cells"]

#: Cell magics whose body is a shell script (`%%script bash`, `%%bash --bg`).
_SHELL_CELL = re.compile(r"%%(?:bash|sh|shell|script[ \t]+(?:ba|z|k)?sh)\b[^\n]*(?:\n|$)")
_WRITEFILE = re.compile(r"%%(?:writefile|file)[ \t]+(?:-a[ \t]+)?(\S+)[^\n]*(?:\n|$)")
#: A line IPython reads as a shell command or a magic: indentation, an optional
#: `name = ` (`out = !ls`), then `!`, `!!` or `%name`.
_ESCAPE = re.compile(r"[ \t]*(?:[A-Za-z_][\w.]*[ \t]*=[ \t]*)?(!!?|%[A-Za-z_]\w*)")
_ENV = re.compile(r"%(?:env|set_env)[ \t]+([A-Za-z_]\w*)(?:[ \t]*=[ \t]*|[ \t]+)(\S.*)?$")
#: Line magics that run their line as a shell command (after the magic's name).
_SHELL_MAGICS = frozenset({"%pip", "%conda", "%mamba", "%uv", "%sx", "%system"})
#: `{expr}` fields IPython evaluates in a `!` line (`{{` is a literal brace).
_FIELD = re.compile(r"\{(?!\{)[^{}\n]*\}")
#: Words that say a cell may start vLLM (or pin it): the rest are never parsed.
_STARTERS = ("vllm", "ray.serve.llm", "ray.llm")


@dataclass
class _Shell:
    """The shell script a cell's `!` lines, `%env` and `%pip` lines make, with the cell
    offset of each of its characters and the `{expr}` fields IPython fills in."""

    text: list[str] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)
    fields: list[tuple[int, int]] = field(default_factory=list)

    def add(self, text: str, positions: Sequence[int], end: int, expand: bool) -> None:
        """A command whose characters sit at `positions` of the cell, ending at `end`
        (`expand`: IPython fills its `{expr}` fields)."""
        offset = len(self.text)
        if expand:
            self.fields.extend(
                (offset + m.start(), offset + m.end()) for m in _FIELD.finditer(text)
            )
        self.text.extend(text)
        self.text.append("\n")
        self.positions.extend(positions)
        self.positions.append(end)

    def invocations(self, constants: dict[str, tuple[str, int]]) -> list[Invocation]:
        """The starts of the script, with each `{NAME}` field of a Python constant
        assigned before it (`constants`: name → its text and where it is assigned) filled
        in, as IPython fills it; the other fields unresolved."""
        chars: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        kept: list[tuple[int, int]] = []
        cursor = 0
        for start, stop in [*self.fields, (len(self.text), len(self.text))]:
            chars.extend(self.text[cursor:start])
            starts.extend(self.positions[cursor:start])
            ends.extend(at + 1 for at in self.positions[cursor:start])
            if start == len(self.text):
                break
            name = "".join(self.text[start + 1 : stop - 1]).strip()
            value = constants.get(name)
            if value is not None and value[1] < self.positions[start]:
                chars.extend(value[0])
                starts.extend([self.positions[start]] * len(value[0]))
                ends.extend([self.positions[stop - 1] + 1] * len(value[0]))
            else:
                kept.append((len(chars), len(chars) + stop - start))
                chars.extend(self.text[start:stop])
                starts.extend(self.positions[start:stop])
                ends.extend(at + 1 for at in self.positions[start:stop])
            cursor = stop
        script = "".join(chars)
        if not any(starter in script for starter in _STARTERS):
            return []
        found = Masked(script, script, kept).restore(shell_script.find_invocations(script))
        to_cell = SourceMap.of_positions(starts, ends)
        return [to_cell.invocation(invocation) for invocation in found]


def _constants(python: str) -> dict[str, tuple[str, int]]:
    """The Python constants of the cells (`python_calls.module_constants`): name → the
    text IPython puts for `{name}` and the offset of its assignment."""
    if "=" not in python:
        return {}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(python)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return {}
    literals = python_calls.literal_constants(python_calls.module_constants(tree), frozenset())
    lines = [0, *(at + 1 for at, char in enumerate(python) if char == "\n")]
    found: dict[str, tuple[str, int]] = {}
    for name, node in literals.items():
        if isinstance(node, ast.Constant):
            found[name] = (str(node.value), lines[node.lineno - 1] + node.col_offset)
    return found


def find_invocations(text: str) -> list[Invocation]:
    """Every vLLM start of one IPython cell (a Markdown block, an editor's cell document),
    in cell offsets and cell order."""
    return read_cells([text])


def read_cells(cells: Sequence[str]) -> list[Invocation]:
    """Every vLLM start of a notebook's code cells, in offsets of `"\\n".join(cells)`. One
    kernel runs them in order, so they share one Python namespace (the import in one cell,
    `LLM(...)` in a later one) and one environment (`%env`). When the Python of the cells
    together does not parse (one broken cell), each cell's is read on its own."""
    if not any(starter in cell for cell in cells for starter in _STARTERS):
        return []
    shell = _Shell()
    found: list[Invocation] = []
    pythons: list[str] = []
    offset = 0
    for cell in cells:
        pythons.append(_cell(cell, offset, shell, found))
        offset += len(cell) + 1
    in_python = python_argv.find_invocations("\n".join(pythons))
    if not in_python and len(pythons) > 1:
        offset = 0
        for python in pythons:
            in_python.extend(inv.moved(offset) for inv in python_argv.find_invocations(python))
            offset += len(python) + 1
    found.extend(in_python)
    found.extend(shell.invocations(_constants("\n".join(pythons))))
    return sorted(found, key=lambda invocation: invocation.start)


def _cell(text: str, offset: int, shell: _Shell, found: list[Invocation]) -> str:
    """One cell at `offset`: its shell lines go to `shell`, the starts of a file it writes
    to `found`; what it returns is its Python (all blank for a shell or a file cell)."""
    shell_cell = _SHELL_CELL.match(text)
    written = _WRITEFILE.match(text)
    if shell_cell is not None:
        at = offset + shell_cell.end()
        body = text[shell_cell.end() :]
        shell.add(body, range(at, at + len(body)), at + len(body), expand=False)
    elif written is not None:
        body = text[written.end() :]
        found.extend(
            found.moved(offset + written.end()) for found in _written_file(written[1], body)
        )
    else:
        return _split(text, offset, shell)
    return "".join(char if char in "\r\n" else " " for char in text)


def _written_file(name: str, body: str) -> list[Invocation]:
    """`%%writefile NAME`: the body read by the host that reads a file of that name."""
    kind = hosts.host_of(name, body)
    if kind is None or hosts.HOSTS[kind].reads_next_to_path or hosts.HOSTS[kind].nested:
        return []
    return hosts.find_invocations(kind, body)


def _split(text: str, at: int, shell: _Shell) -> str:
    """The cell's Python (IPython lines written over, offsets kept); its shell lines, at
    `at` in the joined cells, go to `shell`."""
    python = list(text)
    lines = text.split("\n")
    offset = 0
    index = 0
    while index < len(lines):
        line = lines[index]
        escape = _ESCAPE.match(line)
        count = 1
        if escape is not None:
            mark = escape.group(1)
            body_at = escape.end() if mark.startswith("!") else escape.start(1) + 1
            if mark.startswith("!") or mark in _SHELL_MAGICS:
                while line.endswith("\\") and index + count < len(lines):
                    line += "\n" + lines[index + count]
                    count += 1
                start = at + offset + body_at
                body = line[body_at:]
                if mark in ("%sx", "%system"):
                    start, body = start + len(mark) - 1, body[len(mark) - 1 :]
                shell.add(body, range(start, start + len(body)), start + len(body), True)
            else:
                env = _ENV.match(line, escape.start(1))
                if env is not None:
                    shell.add(*_export(env, at + offset), expand=True)
            _write_over(python, offset + escape.start(1), offset + len(line))
        offset += len(line) + 1
        index += count
    return "".join(python)


def _export(env: re.Match[str], offset: int) -> tuple[str, list[int], int]:
    """`export NAME=value`, what a `%env` line stands for, with the cell offset of each
    character: `export ` at the magic, the `=` at the separator (`=` or a blank)."""
    name, value = env.group(1), env.group(2) or ""
    value_at = offset + (env.start(2) if env.group(2) is not None else env.end())
    positions = [
        *[offset + env.start()] * len("export "),
        *range(offset + env.start(1), offset + env.end(1)),
        offset + env.end(1),
        *range(value_at, value_at + len(value)),
    ]
    return f"export {name}={value}", positions, value_at + len(value)


def _write_over(python: list[str], start: int, end: int) -> None:
    """Write `0` and spaces over an IPython line's text (line breaks kept)."""
    for at in range(start, end):
        if python[at] not in "\r\n":
            python[at] = " "
    python[start] = "0"
