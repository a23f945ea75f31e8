"""Whether a shell variable's value at a use is certain enough to fill the use's word.

`shell._Values` follows what a variable holds along the script's flow, arm by arm, but it
reads only plain `NAME=value` statements and treats a command as opaque. That is right for
command lines built in a variable (every value it gives is one that may run), and too
little to say a `$NAME` in an argv *is* a value: a `read NAME`, a `for NAME in` loop, an
assignment in a function called in between, one under `&&`, `${NAME:=x}`, a `source`d file
or an `eval` may set it in ways the flow does not show. A name is settled here only when
every write of it is a plain assignment the flow reads exactly (at statement level, or in
an `if`/`case` arm), and no `source`/`.`/`eval` runs between the assignment and the use;
anything else leaves the word unknown, as the README promises ("unknown, never wrong").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tree_sitter import Node

__all__ = ["Writes", "any_name_commands", "writes_of"]

#: Statements a plain assignment may sit under and still be read in order by `_Values`.
_FLOW = frozenset(
    {
        "program",
        "if_statement",
        "elif_clause",
        "else_clause",
        "case_statement",
        "case_item",
        "compound_statement",
        "redirected_statement",
        "declaration_command",
    }
)
#: Where an assignment does not reach the script (`_Values` skips them as it should).
_CONFINED = frozenset({"subshell", "command_substitution", "command", "pipeline"})
#: Declarations that do not change a value they name without one (`export NAME`).
_KEEPING = (b"export", b"readonly")
#: Commands that may set any variable: what they do is not in the script.
_ANY_NAME = frozenset({b"source", b".", b"eval"})


@dataclass(frozen=True)
class Writes:
    """What the script does to one name, in document character offsets."""

    #: A write `_Values` cannot follow exactly (a loop variable, `read`, `&&`,
    #: `${NAME:=x}`, `source`/`eval` in a function): the name is never certain.
    unsettled: bool
    #: Spans of every function, and of those whose body assigns the name: a function runs
    #: where it is called, with what the caller set then.
    functions: tuple[tuple[int, int], ...]
    writers: tuple[tuple[int, int], ...]
    #: Starts of `source`/`.`/`eval` commands, which may set the name where they run.
    any_name: tuple[int, ...]

    def certain(self, assigned: int, use: int) -> bool:
        """Whether the value assigned at `assigned` is the one the use at `use` sees."""
        if self.unsettled or any(not start <= use < end for start, end in self.writers):
            return False
        inside = [(start, end) for start, end in self.functions if start <= use < end]
        if inside and not inside[-1][0] <= assigned < inside[-1][1]:
            return False  # the innermost function holding the use must assign it first
        return not any(assigned < at < use for at in self.any_name)


def any_name_commands(nodes: Iterable[Node], data: bytes, char: Callable[[int], int]) -> Writes:
    """The `source`/`.`/`eval` commands of a script (of its `nodes`, here-document bodies and
    comments left out), as the writes every name shares: one in a function runs where the
    function is called, so it unsettles every name."""
    starts: list[int] = []
    unsettled = False
    for node in nodes:
        if node.type == "command":
            head = node.child_by_field_name("name")
            if head is not None and data[head.start_byte : head.end_byte] in _ANY_NAME:
                unsettled |= _enclosing(node, "function_definition") is not None
                starts.append(char(node.start_byte))
    return Writes(unsettled, (), (), tuple(starts))


def writes_of(
    root: Node, data: bytes, name: str, char: Callable[[int], int], shared: Writes
) -> Writes:
    """How `name` is written by the script `data` of tree `root`, with the writes every
    name shares (`any_name_commands`); only the statements that name it are walked."""
    key = name.encode()
    word = re.compile(rb"(?<![\w${])" + re.escape(key) + rb"(?!\w)")
    unsettled = shared.unsettled
    functions: list[tuple[int, int]] = []
    writers: list[tuple[int, int]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        kind = node.type
        text = data[node.start_byte : node.end_byte]
        if kind in ("heredoc_body", "comment") or key not in text:
            continue
        stack.extend(reversed(node.children))
        if kind == "function_definition":
            functions.append((char(node.start_byte), char(node.end_byte)))
        elif kind == "word" and word.search(text):
            unsettled = True  # `read NAME`, `printf -v NAME`, `let NAME=1`, `getopts x NAME`
        elif kind == "variable_name" and text == key and node.parent is not None:
            verdict = _written(node.parent, data)
            if verdict == "plain":
                function = _enclosing(node.parent, "function_definition")
                if function is not None:
                    writers.append((char(function.start_byte), char(function.end_byte)))
                unsettled |= not _in_flow(node.parent)
            unsettled |= verdict == "unsettled"
    return Writes(unsettled, tuple(functions), tuple(writers), shared.any_name)


def _written(parent: Node, data: bytes) -> str:
    """What the use of a name under `parent` does to it: "read", "plain" (an assignment
    `_Values` reads) or "unsettled"."""
    kind = parent.type
    if kind == "simple_expansion":
        return "read"
    if kind == "expansion":
        operators = {child.type for child in parent.children}
        return "unsettled" if operators & {"=", ":="} else "read"
    if kind == "variable_assignment":
        declaration = parent.parent
        options = (
            declaration is not None
            and declaration.type == "declaration_command"
            and any(
                child.type == "word" and data[child.start_byte : child.start_byte + 1] == b"-"
                for child in declaration.children
            )
        )
        return "unsettled" if options else "plain"  # `declare -i N=1+1` holds 2
    if kind == "declaration_command":
        head = parent.children[0] if parent.children else None
        keeps = head is not None and data[head.start_byte : head.end_byte] in _KEEPING
        return "read" if keeps else "unsettled"
    return "unsettled"  # a loop variable, `unset`, arithmetic, `[[ -v NAME ]]`…


def _in_flow(assignment: Node) -> bool:
    """The assignment runs where it stands (in its function's body), in an order `_Values`
    reads: not under a loop, `&&`/`||`, a negation… (a subshell or a command's prefix
    keeps it to itself)."""
    node = assignment.parent
    while node is not None:
        if node.type in _CONFINED or node.type == "function_definition":
            return True
        if node.type not in _FLOW:
            return False
        node = node.parent
    return True


def _enclosing(node: Node, kind: str) -> Node | None:
    parent = node.parent
    while parent is not None and parent.type != kind:
        parent = parent.parent
    return parent
