"""Every warning call in the vLLM code that `vllm serve` runs before its engine starts.

Read with `ast` from the wheel (never imported), like the raise/assert reader of the rules
catalogue (shared/recipes/catalogue-extraction/extract_raises.py): each `logger.warning`,
`logger.warning_once`, `logger.warn`, `logger.info_once` and `warnings.warn` site, with its
enclosing function, the `if` tests that guard it (source text; `not (…)` for an `else`
branch) and its message (constants verbatim, f-string fields and `%` arguments as `{expr}`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

#: Calls that report something at start: `logger.<method>(…)` and `warnings.warn(…)`.
LOGGER_METHODS = ("warning", "warning_once", "warn", "info_once")


@dataclass(frozen=True)
class WarningSite:
    file: str
    line: int
    function: str
    call: str
    guards: tuple[str, ...]
    message: str


def f_string_text(node: ast.JoinedStr) -> str:
    """An f-string as its template: its text, each expression as `{expression}`."""
    parts = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(str(value.value))
        elif isinstance(value, ast.FormattedValue):
            parts.append("{" + ast.unparse(value.value) + "}")
    return "".join(parts)


def _render(node: ast.expr, args: list[ast.expr]) -> str:
    """A message as vLLM writes it: `%s` placeholders filled with `{argument}`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _fill(node.value, args)
    if isinstance(node, ast.JoinedStr):
        return _fill(f_string_text(node), args)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _render(node.left, []) + _render(node.right, args)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        right = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        return _render(node.left, list(right))
    return "{" + ast.unparse(node) + "}"


def _fill(text: str, args: list[ast.expr]) -> str:
    """Replace `%s`/`%d`/`%r`/`%.2f`… by the argument's source, in order."""
    out, rest, index = [], text, 0
    while "%" in rest:
        head, _, tail = rest.partition("%")
        out.append(head)
        if tail.startswith("%"):
            out.append("%")
            rest = tail[1:]
            continue
        spec_end = next((i for i, c in enumerate(tail) if c.isalpha()), -1)
        if spec_end == -1 or index >= len(args):
            out.append("%")
            rest = tail
            continue
        out.append("{" + ast.unparse(args[index]) + "}")
        index += 1
        rest = tail[spec_end + 1 :]
    out.append(rest)
    return "".join(out)


def _call_name(node: ast.Call) -> str | None:
    func = node.func
    if not isinstance(func, ast.Attribute):
        return None
    owner = ast.unparse(func.value)
    if owner == "warnings" and func.attr == "warn":
        return "warnings.warn"
    if owner.endswith("logger") and func.attr in LOGGER_METHODS:
        return f"logger.{func.attr}"
    return None


@dataclass
class _Visitor(ast.NodeVisitor):
    path: str
    only: frozenset[str] = frozenset()
    stack: list[str] = field(default_factory=list)
    guards: list[str] = field(default_factory=list)
    sites: list[WarningSite] = field(default_factory=list)
    #: Messages assigned to a name before the call (`msg = "..."; logger.warning(msg)`).
    assigned: dict[str, ast.expr] = field(default_factory=dict)
    #: Module-level messages (`_X_DEPRECATION_MESSAGE = ("..." "...")`).
    constants: dict[str, ast.expr] = field(default_factory=dict)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.stack.append(node.name)
        self.generic_visit(node)
        self.stack.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.stack.append(node.name)
        saved, self.guards, saved_assigned = self.guards, [], self.assigned
        self.assigned = {}
        self.generic_visit(node)
        self.guards, self.assigned = saved, saved_assigned
        self.stack.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            scope = self.assigned if self.stack else self.constants
            scope[node.targets[0].id] = node.value
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        test = ast.unparse(node.test)
        self.guards.append(test)
        for statement in node.body:
            self.visit(statement)
        self.guards[-1] = f"not ({test})"
        for statement in node.orelse:
            self.visit(statement)
        self.guards.pop()

    def visit_For(self, node: ast.For | ast.AsyncFor) -> None:
        self.guards.append(f"for {ast.unparse(node.target)} in {ast.unparse(node.iter)}")
        self.generic_visit(node)
        self.guards.pop()

    visit_AsyncFor = visit_For

    def visit_Try(self, node: ast.Try) -> None:
        for statement in node.body:
            self.visit(statement)
        for handler in node.handlers:
            caught = ast.unparse(handler.type) if handler.type else ""
            self.guards.append(f"except {caught}".rstrip())
            for statement in handler.body:
                self.visit(statement)
            self.guards.pop()
        for statement in node.orelse + node.finalbody:
            self.visit(statement)

    def visit_Call(self, node: ast.Call) -> None:
        name = _call_name(node)
        function = ".".join(self.stack)
        in_scope = not self.only or any(part in self.only for part in self.stack)
        if name is not None and node.args and in_scope:
            first = node.args[0]
            if isinstance(first, ast.JoinedStr) and len(first.values) == 1:
                only = first.values[0]  # f"{MESSAGE}"
                if isinstance(only, ast.FormattedValue) and isinstance(only.value, ast.Name):
                    first = only.value
            if isinstance(first, ast.Name):
                first = self.assigned.get(first.id) or self.constants.get(first.id, first)
            args = [] if name == "warnings.warn" else list(node.args[1:])
            self.sites.append(
                WarningSite(
                    self.path,
                    node.lineno,
                    function or "<module>",
                    name,
                    tuple(self.guards),
                    " ".join(_render(first, args).split()),
                )
            )
        self.generic_visit(node)


def warning_sites(path: str, text: str, only: frozenset[str] = frozenset()) -> list[WarningSite]:
    """The warning calls of one file; with `only`, those inside the named functions."""
    visitor = _Visitor(path, only)
    visitor.visit(ast.parse(text, filename=path))
    return visitor.sites
