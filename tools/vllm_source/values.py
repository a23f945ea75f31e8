"""Evaluate the constant expressions vLLM uses for defaults, choices and enum values."""

from __future__ import annotations

import ast
import contextlib
import operator
from typing import Any

from .modules import Ref, SourceIndex, class_member

JSON = Any  # a JSON-compatible value (None, bool, int, float, str, list, dict)

_BINOPS: dict[type[ast.operator], Any] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Pow: operator.pow,
    ast.FloorDiv: operator.floordiv,
    ast.Div: operator.truediv,
    ast.LShift: operator.lshift,
}


class NotConstant(Exception):
    """The expression depends on something only known at runtime (env, platform, ...)."""


def const_eval(
    index: SourceIndex,
    module: str,
    node: ast.AST,
    cls: ast.ClassDef | None = None,
    _depth: int = 0,
) -> JSON:
    """Evaluate ``node`` to a JSON value, following names across modules.

    ``cls`` is the class body the expression appears in: class-level constants and
    earlier enum members are visible there.
    """
    if _depth > 30:
        raise NotConstant("too deep")

    def ev(n: ast.AST) -> JSON:
        return const_eval(index, module, n, cls, _depth + 1)

    if isinstance(node, ast.Constant):
        if isinstance(node.value, (str, int, float, bool)) or node.value is None:
            return node.value
        raise NotConstant(repr(node.value))
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        if any(isinstance(e, ast.Starred) for e in node.elts):
            raise NotConstant("starred")
        return [ev(e) for e in node.elts]
    if isinstance(node, ast.Dict):
        out: dict[str, JSON] = {}
        for k, v in zip(node.keys, node.values, strict=False):
            if k is None:
                raise NotConstant("dict unpack")
            key = ev(k)
            if not isinstance(key, str):
                raise NotConstant("non-str key")
            out[key] = ev(v)
        return out
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        val = ev(node.operand)
        if isinstance(val, bool) or not isinstance(val, (int, float)):
            raise NotConstant("unary")
        return -val if isinstance(node.op, ast.USub) else val
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        left, right = ev(node.left), ev(node.right)
        if isinstance(left, (int, float, str, list)) and type(left) is type(right):
            return _BINOPS[type(node.op)](left, right)
        if isinstance(left, (int, float)) and isinstance(right, (int, float)):
            return _BINOPS[type(node.op)](left, right)
        raise NotConstant("binop")
    if isinstance(node, ast.Name):
        if cls is not None:
            member = class_member(cls, node.id)
            if member is not None and not isinstance(member, ast.FunctionDef):
                return const_eval(index, module, member, cls, _depth + 1)
        ref = index.resolve(module, node.id)
        if ref.kind == "value" and ref.node is not None:
            return const_eval(index, ref.module, ref.node, None, _depth + 1)
        raise NotConstant(node.id)
    if isinstance(node, ast.Attribute):
        aref = index.resolve_expr(module, node)
        if aref is not None and aref.kind == "value" and aref.node is not None:
            owner: Ref | None = index.resolve_expr(module, node.value)
            owner_cls = owner.node if owner and isinstance(owner.node, ast.ClassDef) else None
            return const_eval(index, aref.module, aref.node, owner_cls, _depth + 1)
        raise NotConstant(ast.unparse(node))
    raise NotConstant(type(node).__name__)


def default_repr(
    index: SourceIndex, module: str, node: ast.AST, cls: ast.ClassDef | None = None
) -> JSON:
    """A JSON default, or ``{"expr": <source>}`` when it is only known at runtime."""
    try:
        return const_eval(index, module, node, cls)
    except NotConstant:
        return {"expr": index.segment(module, node)}


_CONTAINER_FACTORIES: dict[str, JSON] = {"list": [], "dict": {}, "set": [], "tuple": []}


def factory_repr(index: SourceIndex, module: str, node: ast.AST) -> dict[str, JSON]:
    """``{"factory": <source>}`` plus ``"value"`` when the produced value is static."""
    text = index.segment(module, node)
    out: dict[str, JSON] = {"factory": text}
    if isinstance(node, ast.Name) and node.id in _CONTAINER_FACTORIES:
        out["value"] = _CONTAINER_FACTORIES[node.id]
    elif isinstance(node, ast.Lambda):
        with contextlib.suppress(NotConstant):
            out["value"] = const_eval(index, module, node.body)
    return out
