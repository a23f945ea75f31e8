"""Turn annotations into the type trees of docs/schema-format.md, as they are at runtime.

The tree mirrors what ``typing.get_type_hints`` would produce after vLLM's modules are
imported: aliases are followed, TYPE_CHECKING-only names use their runtime fallback
(``QuantizationMethods = str``), nested ``Literal`` is flattened, ``Annotated`` metadata
becomes ``constraints``. The extra keys starting with ``_`` (e.g. ``_dataclass``) are for
the argparse emulation only and are stripped before output.
"""

from __future__ import annotations

import ast
import contextlib
from typing import Any

from .modules import Ref, SourceIndex
from .values import NotConstant, const_eval

TNode = dict[str, Any]

CONSTRAINT_KEYS = ("gt", "ge", "lt", "le", "multiple_of", "min_length", "max_length")

_BUILTIN_SCALARS = {
    "builtins.int": "int",
    "builtins.float": "float",
    "builtins.str": "str",
    "builtins.bool": "bool",
    "builtins.bytes": "str",
    "typing.Any": "any",
    "typing_extensions.Any": "any",
    "builtins.object": "any",
    "pathlib.Path": "path",
    "pathlib.PurePath": "path",
    "os.PathLike": "path",
    "types.NoneType": "none",
}
_LIST = {"builtins.list", "typing.List"}
_SET = {"builtins.set", "builtins.frozenset", "typing.Set", "typing.FrozenSet"}
_TUPLE = {"builtins.tuple", "typing.Tuple"}
_DICT = {"builtins.dict", "typing.Dict"}
_OPTIONAL = {"typing.Optional", "typing_extensions.Optional"}
_UNION = {"typing.Union", "typing_extensions.Union"}
_LITERAL = {"typing.Literal", "typing_extensions.Literal"}
_ANNOTATED = {"typing.Annotated", "typing_extensions.Annotated"}
_TRANSPARENT = {"dataclasses.InitVar", "typing.Final"}
#: `SkipValidation[T]`: pydantic takes any input as it is; T still says what is meant.
_SKIP_VALIDATION = "pydantic.SkipValidation"
#: `Callable[...]`: pydantic checks `callable(value)`, which no value of a file is.
_CALLABLE = {"typing.Callable", "collections.abc.Callable", "typing_extensions.Callable"}
_ENUM_BASES = {"enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "enum.IntFlag"}
_VALIDATOR_META = {"GetPydanticSchema", "PlainValidator", "BeforeValidator", "WrapValidator"}
_DATACLASS_DECOS = {
    "vllm.config.utils.config",
    "pydantic.dataclasses.dataclass",
    "dataclasses.dataclass",
}


def unknown(text: str) -> TNode:
    return {"kind": "unknown", "text": text}


def make_union(options: list[TNode]) -> TNode:
    """Flatten nested unions and drop duplicates (like ``typing.Union``)."""
    flat: list[TNode] = []
    for o in options:
        for sub in o["options"] if o["kind"] == "union" else [o]:
            if sub not in flat:
                flat.append(sub)
    return flat[0] if len(flat) == 1 else {"kind": "union", "options": flat}


class TypeResolver:
    """Resolve annotation ASTs of one wheel into type trees (memoising class kinds)."""

    def __init__(self, index: SourceIndex) -> None:
        self.index = index
        self.classes: dict[str, Ref] = {}  # short name -> class ref, for dataclasses
        self.enums: dict[str, Ref] = {}

    # -- class classification -----------------------------------------------------
    def class_bases(self, ref: Ref) -> list[Ref]:
        assert isinstance(ref.node, ast.ClassDef)
        out: list[Ref] = []
        for b in ref.node.bases:
            target = b.value if isinstance(b, ast.Subscript) else b
            r = self.index.resolve_expr(ref.module, target)
            if r is not None:
                out.append(r)
        return out

    def is_enum(self, ref: Ref, depth: int = 0) -> bool:
        if depth > 10 or ref.kind != "class":
            return ref.qualname in _ENUM_BASES
        return any(
            b.qualname in _ENUM_BASES or self.is_enum(b, depth + 1) for b in self.class_bases(ref)
        )

    def dataclass_decorator(self, ref: Ref) -> str | None:
        assert isinstance(ref.node, ast.ClassDef)
        for d in ref.node.decorator_list:
            target = d.func if isinstance(d, ast.Call) else d
            r = self.index.resolve_expr(ref.module, target)
            if r is not None and r.qualname in _DATACLASS_DECOS:
                return r.qualname
        return None

    def is_dataclass(self, ref: Ref, depth: int = 0) -> bool:
        if ref.kind != "class" or depth > 10:
            return False
        if self.dataclass_decorator(ref):
            return True
        return any(self.is_dataclass(b, depth + 1) for b in self.class_bases(ref))

    def dict_base(self, ref: Ref) -> TNode | None:
        """For ``class X(dict[K, V])`` the tree of ``dict[K, V]``."""
        assert isinstance(ref.node, ast.ClassDef)
        for b in ref.node.bases:
            target = b.value if isinstance(b, ast.Subscript) else b
            r = self.index.resolve_expr(ref.module, target)
            if r is not None and r.qualname in _DICT:
                return self.resolve(ref.module, b)
        return None

    def class_node(self, ref: Ref, written: str) -> TNode:
        if self.is_enum(ref):
            self.enums.setdefault(ref.short, ref)
            return {"kind": "enum", "name": ref.short}
        if self.is_dataclass(ref):
            self.classes.setdefault(ref.short, ref)
            return {"kind": "class", "name": ref.short}
        d = self.dict_base(ref)
        if d is not None:
            return {**d, "_dict_subclass": ref.short}
        return unknown(written)

    # -- annotations --------------------------------------------------------------
    def resolve(self, module: str, node: ast.AST | None, depth: int = 0) -> TNode:
        if depth > 40:
            return unknown(ast.unparse(node) if node else "?")
        if node is None or (isinstance(node, ast.Constant) and node.value is None):
            return {"kind": "none"}
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                parsed = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                return unknown(node.value)
            return self.resolve(module, parsed, depth + 1)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return make_union(
                [
                    self.resolve(module, node.left, depth + 1),
                    self.resolve(module, node.right, depth + 1),
                ]
            )
        if isinstance(node, (ast.Name, ast.Attribute)):
            return self._resolve_name(module, node, depth)
        if isinstance(node, ast.Subscript):
            return self._resolve_subscript(module, node, depth)
        return unknown(ast.unparse(node))

    def _resolve_name(self, module: str, node: ast.expr, depth: int) -> TNode:
        ref = self.index.resolve_expr(module, node)
        written = ast.unparse(node)
        if ref is None:
            return unknown(written)
        if ref.kind == "external":
            if ref.qualname in _BUILTIN_SCALARS:
                return {"kind": _BUILTIN_SCALARS[ref.qualname]}
            if ref.qualname in _LIST:
                return {"kind": "list", "item": {"kind": "any"}}
            if ref.qualname in _SET:
                return {"kind": "set", "item": {"kind": "any"}}
            if ref.qualname in _TUPLE:
                return {"kind": "tuple", "items": [{"kind": "any"}], "variadic": True}
            if ref.qualname in _DICT:
                return {"kind": "dict", "key": {"kind": "any"}, "value": {"kind": "any"}}
            if ref.qualname in _CALLABLE:
                return {"kind": "callable"}
            return unknown(written)
        if ref.kind == "value" and ref.node is not None:
            if isinstance(ref.node, ast.Call):  # TypeVar(...), NewType(...), LazyLoader...
                return unknown(written)
            return self.resolve(ref.module, ref.node, depth + 1)
        if ref.kind == "class":
            return self.class_node(ref, written)
        return unknown(written)

    def _resolve_subscript(self, module: str, node: ast.Subscript, depth: int) -> TNode:
        base = self.index.resolve_expr(module, node.value)
        q = base.qualname if base is not None else ""
        sl = node.slice
        args = list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]

        def r(n: ast.AST) -> TNode:
            return self.resolve(module, n, depth + 1)

        if q in _OPTIONAL:
            return make_union([r(args[0]), {"kind": "none"}])
        if q in _UNION:
            return make_union([r(a) for a in args])
        if q in _LITERAL:
            return {"kind": "literal", "values": self._literal_values(module, args, depth)}
        if q in _ANNOTATED:
            if any(self._is_validator(module, m) for m in args[1:]):
                # The input goes through a custom validator: the declared type does not
                # describe what users may write (e.g. QuantKeyField accepts "fp8").
                return unknown(ast.unparse(node))
            inner = r(args[0])
            cons = self.annotated_constraints(module, args[1:])
            return {**inner, "_constraints": cons} if cons else inner
        if q in _TRANSPARENT:
            return r(args[0])
        if q == _SKIP_VALIDATION:
            return {**r(args[0]), "skip_validation": True}
        if q in _CALLABLE:
            return {"kind": "callable"}
        if q in _LIST:
            return {"kind": "list", "item": r(args[0])}
        if q in _SET:
            return {"kind": "set", "item": r(args[0])}
        if q in _TUPLE:
            variadic = len(args) == 2 and isinstance(args[1], ast.Constant) and args[1].value is ...
            items = [r(args[0])] if variadic else [r(a) for a in args]
            return {"kind": "tuple", "items": items, "variadic": variadic}
        if q in _DICT:
            if len(args) == 2:
                return {"kind": "dict", "key": r(args[0]), "value": r(args[1])}
            return {"kind": "dict", "key": {"kind": "any"}, "value": {"kind": "any"}}
        if base is not None and base.kind == "value" and base.node is not None:
            # A generic alias used with parameters: resolve the alias body.
            return self.resolve(base.module, base.node, depth + 1)
        return unknown(ast.unparse(node))

    def _is_validator(self, module: str, meta: ast.expr) -> bool:
        target = meta.func if isinstance(meta, ast.Call) else meta
        ref = self.index.resolve_expr(module, target)
        return ref is not None and ref.short in _VALIDATOR_META

    def _literal_values(self, module: str, args: list[ast.expr], depth: int) -> list[Any]:
        values: list[Any] = []
        for a in args:
            try:
                v = const_eval(self.index, module, a)
                values.append(v)
                continue
            except NotConstant:
                pass
            sub = self.resolve(module, a, depth + 1)  # Literal["x", OtherLiteralAlias]
            opts = sub["options"] if sub["kind"] == "union" else [sub]
            for o in opts:
                if o["kind"] == "literal":
                    values.extend(v for v in o["values"] if v not in values)
        return values

    def annotated_constraints(self, module: str, metadata: list[ast.expr]) -> dict[str, Any]:
        """Bounds from ``Field(gt=...)`` or annotated-types ``Gt(0)`` metadata."""
        out: dict[str, Any] = {}
        for m in metadata:
            if not isinstance(m, ast.Call):
                continue
            name = ast.unparse(m.func).rsplit(".", 1)[-1]
            if name.endswith("Field"):
                out.update(call_constraints(self.index, module, m))
            elif name.lower() in CONSTRAINT_KEYS and m.args:
                with contextlib.suppress(NotConstant):
                    out[name.lower()] = const_eval(self.index, module, m.args[0])
        return out


def call_constraints(index: SourceIndex, module: str, call: ast.Call) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kw in call.keywords:
        if kw.arg in CONSTRAINT_KEYS:
            try:
                out[kw.arg] = const_eval(index, module, kw.value)
            except NotConstant:
                out[kw.arg] = {"expr": ast.unparse(kw.value)}
    return out


def public(node: TNode) -> TNode:
    """Strip the internal ``_`` keys recursively."""
    out: TNode = {}
    for k, v in node.items():
        if k.startswith("_"):
            continue
        if isinstance(v, dict) and "kind" in v:
            out[k] = public(v)
        elif isinstance(v, list) and v and all(isinstance(x, dict) and "kind" in x for x in v):
            out[k] = [public(x) for x in v]
        else:
            out[k] = v
    return out
