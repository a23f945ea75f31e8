"""Which config-class parameter each `EngineArgs` attribute reaches (`x-vllm` flags'
``passed_to``).

A flag registered with its own keywords (``--shutdown-timeout``, ``type=int``) names no
config field, yet ``create_engine_config`` hands its value to a config class:
``VllmConfig(shutdown_timeout=self.shutdown_timeout)``, whose ``Field(ge=0)`` pydantic then
enforces. A flag that does name a field may still be validated first by another class
(``--limit-mm-per-prompt`` fills ``MultiModalConfig.limit_per_prompt`` but reaches
``ModelConfig(limit_mm_per_prompt=...)``, an ``InitVar`` with its own type). Those calls
are read here from ``EngineArgs``' methods with ``ast``.

An argument counts when it is the user's value whenever the user set one:
``self.x``; ``self.x if self.x is not None else DEFAULT``; or a local variable that every
path assigns ``self.x`` (in either of those shapes) or a value chosen only when ``self.x``
is None, or that raises for the value first. Anything else (``self.x or 1``, arithmetic,
an attribute rewritten by another method) is left out: what reaches the class is unknown.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .modules import Ref, SourceIndex

ENGINE_ARGS = ("vllm.engine.arg_utils", "EngineArgs")
PYDANTIC_DATACLASS = "pydantic.dataclasses.dataclass"
#: vLLM's decorator: pydantic's dataclass from 0.16 on; before, a registry decorator that
#: needs a dataclass under it (which is then pydantic's or the standard library's).
VLLM_CONFIG = "vllm.config.utils.config"
STDLIB_DATACLASS = "dataclasses.dataclass"


def validated_by_pydantic(index: SourceIndex, ref: Ref) -> bool:
    """The class's constructor validates its arguments: pydantic's dataclass decorates it,
    or vLLM's `config` alone does (a standard dataclass under it validates nothing)."""
    if not isinstance(ref.node, ast.ClassDef):
        return False
    names = set()
    for decorator in ref.node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        found = index.resolve_expr(ref.module, target)
        names.add(found.qualname if found is not None else "")
    return PYDANTIC_DATACLASS in names or (VLLM_CONFIG in names and STDLIB_DATACLASS not in names)


def _self_attr(node: ast.expr | None) -> str | None:
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    ):
        return node.attr
    return None


def _is_none_test(test: ast.expr, attr: str, negated: bool) -> bool:
    """`self.<attr> is not None` (or `is None` when `negated`)."""
    wanted = ast.Is if negated else ast.IsNot
    return (
        isinstance(test, ast.Compare)
        and _self_attr(test.left) == attr
        and len(test.ops) == 1
        and isinstance(test.ops[0], wanted)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    )


def _user_value(node: ast.expr | None) -> str | None:
    """The attribute an expression passes on unchanged whenever the user set it."""
    attr = _self_attr(node)
    if attr is not None:
        return attr
    if isinstance(node, ast.IfExp):
        attr = _self_attr(node.body)
        if attr is not None and _is_none_test(node.test, attr, negated=False):
            return attr
    return None


def _mentions(node: ast.AST, attr: str) -> bool:
    return any(_self_attr(n) == attr for n in ast.walk(node) if isinstance(n, ast.expr))


def _raises_on(body: list[ast.stmt], attr: str) -> bool:
    """The block starts by refusing values of `self.<attr>` (`if <test on it>: raise`)."""
    return any(
        isinstance(st, ast.If)
        and _mentions(st.test, attr)
        and any(isinstance(s, ast.Raise) for s in st.body)
        for st in body
    )


def _assignments(body: list[ast.stmt], name: str) -> Iterator[tuple[ast.expr, list[ast.expr]]]:
    """Every `name = value` of a function body with the `if` tests that lead to it
    (`(test, True)` is written as the test, a branch taken when it is false as `not test`)."""

    def walk(stmts: list[ast.stmt], tests: list[ast.expr]) -> Iterator[tuple[ast.expr, list]]:
        for st in stmts:
            if isinstance(st, ast.Assign):
                if any(isinstance(t, ast.Name) and t.id == name for t in st.targets):
                    yield st.value, tests
            elif isinstance(st, ast.If):
                yield from walk(st.body, [*tests, st.test])
                yield from walk(st.orelse, [*tests, ast.UnaryOp(ast.Not(), st.test)])
            elif isinstance(st, (ast.For, ast.While, ast.With, ast.Try)):
                for block in ("body", "orelse", "finalbody"):
                    yield from walk(getattr(st, block, []) or [], tests)
                for handler in getattr(st, "handlers", []):
                    yield from walk(handler.body, tests)

    yield from walk(body, [])


def _local_user_value(function: ast.FunctionDef, name: str) -> str | None:
    """The attribute a local variable holds on every path where the user set it: one
    assignment passes `self.x` on; each other one sits under `self.x is None` or `not
    (self.x is not None)`, or in a branch that first raises for values of `self.x`."""
    found = list(_assignments(function.body, name))
    for attr in dict.fromkeys(_user_value(value) for value, _ in found):
        if attr is not None and all(
            _user_value(value) == attr
            or any(_only_when_unset(test, attr) for test in tests)
            or _guarded(function.body, value, attr)
            for value, tests in found
        ):
            return attr
    return None


def _only_when_unset(test: ast.expr, attr: str) -> bool:
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _is_none_test(test.operand, attr, negated=False)
    return _is_none_test(test, attr, negated=True)


def _guarded(body: list[ast.stmt], value: ast.expr, attr: str) -> bool:
    """`value` is assigned in a block that begins by raising for values of `self.<attr>`."""
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        for block in ("body", "orelse"):
            stmts = getattr(node, block, None)
            if not isinstance(stmts, list) or not stmts:
                continue
            if any(isinstance(st, ast.Assign) and st.value is value for st in stmts):
                return _raises_on(stmts, attr)
    return False


def _rewritten(cls: ast.ClassDef) -> set[str]:
    """Attributes a method of EngineArgs assigns, other than under `if self.x is None:`
    (a default filled in): what they hold when a config class is built is not the flag's."""
    out: set[str] = set()

    def walk(stmts: list[ast.stmt], unset: set[str]) -> None:
        for st in stmts:
            if isinstance(st, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = st.targets if isinstance(st, ast.Assign) else [st.target]
                out.update(a for t in targets if (a := _self_attr(t)) and a not in unset)
            for block in ("body", "orelse", "finalbody"):
                inner = getattr(st, block, None)
                if isinstance(inner, list) and not isinstance(st, ast.FunctionDef):
                    guard = (
                        {a for a in _attrs(st.test) if _is_none_test(st.test, a, negated=True)}
                        if isinstance(st, ast.If) and block == "body"
                        else set()
                    )
                    walk(inner, unset | guard)
            for handler in getattr(st, "handlers", []):
                walk(handler.body, unset)

    for function in cls.body:
        if isinstance(function, ast.FunctionDef):
            walk(function.body, set())
    return out


def _unconditional_calls(stmts: list[ast.stmt]) -> Iterator[ast.Call]:
    """Calls a method makes whenever it runs to its end: not under an `if`, a loop, an
    `except`, a conditional expression or a nested function (`LoRAConfig(...) if
    self.enable_lora else None` builds, and validates, only sometimes), nor after a
    branch that may return."""
    skipped = (ast.If, ast.For, ast.While, ast.Try, ast.FunctionDef, ast.ClassDef, ast.Lambda)

    def visit(node: ast.AST) -> Iterator[ast.Call]:
        if isinstance(node, (*skipped, ast.IfExp, ast.BoolOp, ast.comprehension)):
            return
        if isinstance(node, ast.Call):
            yield node
        for child in ast.iter_child_nodes(node):
            yield from visit(child)

    for st in stmts:
        if isinstance(st, ast.With):
            yield from _unconditional_calls(st.body)
        elif not isinstance(st, skipped):
            yield from visit(st)
        elif any(isinstance(node, ast.Return) for node in ast.walk(st)):
            return  # calls after `if …: return` run only on the other path


def _attrs(node: ast.AST) -> set[str]:
    return {a for n in ast.walk(node) if isinstance(n, ast.expr) and (a := _self_attr(n))}


def passed_to(index: SourceIndex) -> dict[str, list[str]]:
    """EngineArgs attribute → `Class.parameter` of each pydantic config class a method
    builds with it on every run."""
    ref = index.resolve(*ENGINE_ARGS)
    if not isinstance(ref.node, ast.ClassDef):
        return {}
    rewritten = _rewritten(ref.node)
    out: dict[str, list[str]] = {}
    for function in ref.node.body:
        if not isinstance(function, ast.FunctionDef):
            continue
        for call in _unconditional_calls(function.body):
            cls = index.resolve_expr(ref.module, call.func)
            if cls is None or cls.kind != "class" or not validated_by_pydantic(index, cls):
                continue
            for keyword in call.keywords:
                if keyword.arg is None:
                    continue
                value = keyword.value
                attr = _user_value(value)
                if attr is None and isinstance(value, ast.Name):
                    attr = _local_user_value(function, value.id)
                if attr is not None and attr not in rewritten:
                    target = f"{cls.short}.{keyword.arg}"
                    if target not in out.setdefault(attr, []):
                        out[attr].append(target)
    return out
