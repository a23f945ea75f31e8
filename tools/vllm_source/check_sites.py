"""Find an imperative check of one release in another release's source.

A rule from VC300 on transcribes checks of the release it was written against (its
`file:line` strings, the `VLLM_SOURCE` and the other sources its findings cite). A check is
the same in another release when the statement at that line (a `raise`, an `assert`, an
enum lookup …) sits in a function of the same qualified name, under the same chain of
enclosing conditions (each `if`/`elif` test, loop, `with` and `except` header, compared as
`ast` shapes: names, attributes, operators, constants), and has the same shape itself
(the exception raised, an assert's test; other statements compared whole). The message
words may differ: they are kept so that the finding can speak that release's words. Anything
else (a condition that grew or lost a clause, a check that moved to another function) is a
different check, and the rule does not run for that release: a false error on an older
release is worse than a missed one.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .wheel import WheelSource

SITE = re.compile(r"vllm/[\w/]+\.py:\d+")
#: The headers of compound statements that decide whether a statement in them runs.
_HEADERS: dict[type[ast.AST], tuple[str, ...]] = {
    ast.If: ("test",),
    ast.While: ("test",),
    ast.For: ("target", "iter"),
    ast.AsyncFor: ("target", "iter"),
    ast.With: ("items",),
    ast.AsyncWith: ("items",),
    ast.ExceptHandler: ("type",),
    ast.match_case: ("pattern", "guard"),
}
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass(frozen=True)
class Step:
    """One enclosing header with the branch taken; for the body of an `if`, also its test's
    conjuncts (`a and b` → {a, b}), so that a release whose test has fewer of them is seen to
    refuse whenever the other does."""

    header: str
    conjuncts: frozenset[str] | None = None


@dataclass(frozen=True)
class Found:
    """One check as it stands in one release."""

    qualname: str
    #: The enclosing headers from the scope down.
    path: tuple[Step, ...]
    shape: str
    #: The message as written, f-string fields as `{expression}`.
    message: str
    #: The message's constant words, what two releases must share to say the same.
    words: tuple[str, ...]
    line: int


def _dump(node: ast.AST | list[ast.AST] | None) -> str:
    if isinstance(node, list):
        return "[" + ", ".join(_dump(item) for item in node) + "]"
    return "" if node is None else ast.dump(node)


def _pieces(node: ast.expr | None) -> Iterator[tuple[bool, str]]:
    """(is a constant, text) of a message expression, in order."""
    if node is None:
        return
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield True, node.value
    elif isinstance(node, ast.JoinedStr):
        for value in node.values:
            if isinstance(value, ast.FormattedValue):
                yield False, ast.unparse(value)[1:-1]  # f"{x!r}" → x!r
            else:
                yield from _pieces(value)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        yield from _pieces(node.left)
        yield from _pieces(node.right)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        yield from _pieces(node.left)  # "…%s…" % args: the template's words
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
    ):
        yield from _pieces(node.func.value)
    else:
        yield False, ast.unparse(node)


def _message(stmt: ast.stmt) -> ast.expr | None:
    if isinstance(stmt, ast.Assert):
        return stmt.msg
    if isinstance(stmt, ast.Raise) and isinstance(stmt.exc, ast.Call) and stmt.exc.args:
        return stmt.exc.args[0]
    return None


def _shape(stmt: ast.stmt) -> str:
    """What the statement checks, its message aside."""
    if isinstance(stmt, ast.Assert):
        return "assert " + _dump(stmt.test)
    if isinstance(stmt, ast.Raise) and isinstance(stmt.exc, ast.Call):
        call = stmt.exc
        rest = [*call.args[1:], *[kw.value for kw in call.keywords]]
        return "raise " + _dump(call.func) + _dump(list(rest))
    return _dump(stmt)


def _found(qualname: str, path: tuple[Step, ...], stmt: ast.stmt) -> Found:
    pieces = list(_pieces(_message(stmt)))
    text = "".join(piece if constant else "{" + piece + "}" for constant, piece in pieces)
    words = " ".join(piece for constant, piece in pieces if constant).split()
    return Found(qualname, path, _shape(stmt), text, tuple(words), stmt.lineno)


Placed = tuple[tuple[Step, ...], ast.stmt]


def _walk(body: list[ast.stmt], path: tuple[Step, ...] = ()) -> Iterator[Placed]:
    """Every statement of a scope with its path (nested scopes are their own). An assert
    earlier in the scope is no part of a later check's path: whether it holds or stops
    vLLM, a config the later check refuses is refused (only the message may differ), so
    releases that added or dropped such an assert still have the same later check."""
    for stmt in body:
        yield path, stmt
        if isinstance(stmt, _SCOPES):
            continue
        for branch, child in _branches(stmt):
            header = _header(stmt if not isinstance(child, ast.AST) else child)
            inner = child.body if isinstance(child, (ast.ExceptHandler, ast.match_case)) else child
            assert isinstance(inner, list)
            step = Step(f"{type(stmt).__name__}.{branch}{header}", _conjuncts(stmt, branch))
            yield from _walk(inner, (*path, step))


def _conjuncts(stmt: ast.stmt, branch: str) -> frozenset[str] | None:
    if not isinstance(stmt, ast.If) or branch != "body":
        return None  # an else branch runs when the test fails: fewer clauses, fewer runs
    test = stmt.test
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    return frozenset(_dump(part) for part in parts)


def _implied(path: tuple[Step, ...], by: tuple[Step, ...]) -> bool:
    """Whether the check under `path` runs whenever the one under `by` does: the same
    headers, except `if` tests that keep only some of `by`'s conjuncts."""
    return len(path) == len(by) and all(
        mine == theirs
        or (
            mine.conjuncts is not None
            and theirs.conjuncts is not None
            and mine.conjuncts < theirs.conjuncts
        )
        for mine, theirs in zip(path, by, strict=True)
    )


def _scopes(body: list[ast.stmt], qualname: str = "") -> Iterator[tuple[str, list[ast.stmt]]]:
    """Each function or class body with its qualified name, the module's own first."""
    yield qualname, body
    for _, stmt in _walk(body):
        if isinstance(stmt, _SCOPES):
            yield from _scopes(stmt.body, f"{qualname}.{stmt.name}".lstrip("."))


def _branches(stmt: ast.stmt) -> Iterator[tuple[str, list[ast.stmt] | ast.AST]]:
    for name in ("body", "orelse", "finalbody"):
        block = getattr(stmt, name, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            yield name, block
    for handler in getattr(stmt, "handlers", ()):
        yield "except", handler
    for case in getattr(stmt, "cases", ()):
        yield "case", case


def _header(node: ast.AST) -> str:
    fields = _HEADERS.get(type(node), ())
    return "(" + ", ".join(_dump(getattr(node, name)) for name in fields) + ")"


_CHECKS = ("raise ", "assert ")
_NAME = re.compile(r"(?<![\w-])--[a-z][\w-]*|\b[a-z]\w*_\w+")


def _names(found: Found) -> set[str]:
    """The settings a message names (`max_num_seqs`, `--enable-hc-sp`)."""
    return {name for word in found.words for name in _NAME.findall(word)}


def _covers(stmt: ast.stmt, line: int) -> bool:
    return stmt.lineno <= line <= (stmt.end_lineno or stmt.lineno)


def _innermost(tree: ast.Module, line: int) -> Found | None:
    """The statement that starts last among those around `line`: the deepest one (a
    compound statement when the line is in its header: then it is compared whole)."""
    best: tuple[str, tuple[str, ...], ast.stmt] | None = None
    for qualname, body in _scopes(tree.body):
        for path, stmt in _walk(body):
            inside_scope = isinstance(stmt, _SCOPES) and line > stmt.lineno
            later = best is None or stmt.lineno >= best[2].lineno
            if _covers(stmt, line) and not inside_scope and later:
                best = (qualname, path, stmt)
    return None if best is None else _found(*best)


class Sites:
    """The checks of one wheel, found by qualified name."""

    def __init__(self, src: WheelSource) -> None:
        self.src = src
        self._trees: dict[str, ast.Module | None] = {}
        self._by_name: dict[str, list[tuple[str, list[ast.stmt]]]] | None = None

    def _tree(self, path: str) -> ast.Module | None:
        if path not in self._trees:
            try:
                self._trees[path] = ast.parse(self.src.text(path), filename=path)
            except (KeyError, SyntaxError):
                self._trees[path] = None
        return self._trees[path]

    def at(self, site: str) -> Found | None:
        """The check at `file:line` of this wheel (the reference release's)."""
        path, line = site.rsplit(":", 1)
        tree = self._tree(path)
        return None if tree is None else _innermost(tree, int(line))

    def same(self, ref: Found, ref_path: str) -> tuple[str, Found] | None:
        """The one statement of this wheel that is `ref`'s check, as `(file, found)`."""
        scope = [(p, f) for p, f in self._scope(ref.qualname, ref_path) if f.shape == ref.shape]
        candidates = [(p, f) for p, f in scope if f.path == ref.path]
        if len(candidates) > 1:  # the same check twice: only the same words tell them apart
            candidates = [(p, f) for p, f in candidates if f.words == ref.words]
        if len(candidates) == 1 and _names(candidates[0][1]) == _names(ref):
            return candidates[0]
        # A release whose condition lacks some of the reference's clauses refuses whenever
        # the reference does (and more): the rule, written to the reference, stays right.
        broader = [(p, f) for p, f in scope if _implied(f.path, ref.path)]
        if not candidates and len(broader) == 1 and _names(broader[0][1]) <= _names(ref):
            return broader[0]
        return None  # other settings named: the check is about something else there

    def _scope(self, qualname: str, ref_path: str) -> list[tuple[str, Found]]:
        """The statements of `qualname` in the file of the same path, else in the one
        other file that defines it (checks move between modules across releases)."""
        bodies = self._index().get(qualname, [])
        if not _may_hold_checks(ref_path):  # a rule cites a file the index leaves out
            tree = self._tree(ref_path)
            bodies = bodies + [
                (ref_path, body)
                for name, body in _scopes(tree.body if tree else [])
                if name == qualname
            ]
        same_file = [(p, body) for p, body in bodies if p == ref_path]
        if not same_file and len({p for p, _ in bodies}) != 1:
            return []
        return [
            (path, _found(qualname, where, stmt))
            for path, body in same_file or bodies
            for where, stmt in _walk(body)
        ]

    def _index(self) -> dict[str, list[tuple[str, list[ast.stmt]]]]:
        if self._by_name is None:
            self._by_name = {}
            for path in filter(_may_hold_checks, self.src.paths()):
                tree = self._tree(path)
                for qualname, body in _scopes(tree.body if tree else []):
                    self._by_name.setdefault(qualname, []).append((path, body))
        return self._by_name


def _may_hold_checks(path: str) -> bool:
    """Where rules' checks live: the config, engine and entry-point code (not kernels,
    models' layers or tests; model registries are read on demand)."""
    return path.startswith(("vllm/config", "vllm/engine/", "vllm/entrypoints/")) or path in (
        "vllm/model_executor/models/registry.py",
        "vllm/reasoning/abs_reasoning_parsers.py",
    )


def rule_sites() -> dict[str, tuple[str, set[str], set[str]]]:
    """Code → (the release an imperative rule transcribes, the `file:line` strings it cites
    in its code: its findings' sources, the docstring's ranges being prose; and the lines a
    rule formats into a template, `SOURCE = "vllm/….py:{}"` with `SOURCE.format(line)`:
    that file at each integer its code holds, of which only raises and asserts count)."""
    from vllm_config_lsp.rules import FIRST_IMPERATIVE_CODE, all_rules

    out = {}
    for rule in all_rules():
        if rule.code < FIRST_IMPERATIVE_CODE:
            continue
        tree = ast.parse(inspect.getsource(rule.module))
        docstring = tree.body[0] if ast.get_docstring(tree) else None
        constants = [
            node.value
            for stmt in tree.body
            if stmt is not docstring
            for node in ast.walk(stmt)
            if isinstance(node, ast.Constant)
        ]
        strings = [c for c in constants if isinstance(c, str)]
        lines = {c for c in constants if isinstance(c, int) and not isinstance(c, bool) and c > 0}
        cited = {c for c in strings if SITE.fullmatch(c)}
        templates = [c[:-3] for c in strings if c.endswith(":{}") and SITE.fullmatch(c[:-2] + "1")]
        formatted = {f"{template}:{n}" for template in templates for n in lines}
        out[rule.code] = (rule.transcribes, cited, formatted - cited)
    return out


def release_checks(
    here: Sites, reference: Callable[[str], Sites]
) -> dict[str, dict[str, dict[str, str]]]:
    """Code → {a site of the release the rule transcribes → this release's `source`, and
    its `message` where the words differ from the transcribed release's (whose own
    catalogue has them all)}, for every imperative rule with one of its checks here.
    `reference(version)` is the checks of that release's wheel."""
    out: dict[str, dict[str, dict[str, str]]] = {}
    for code, (transcribes, cited, formatted) in rule_sites().items():
        there = reference(transcribes)
        for site in sorted(cited | formatted):
            ref = there.at(site)
            if ref is None or (site in formatted and not ref.shape.startswith(_CHECKS)):
                continue
            match = here.same(ref, site.rsplit(":", 1)[0])
            if match is None:
                continue
            path, found = match
            entry = {"source": f"{path}:{found.line}"}
            if found.message and (here is there or found.words != ref.words):
                entry["message"] = found.message
            out.setdefault(code, {})[site] = entry
    return out
