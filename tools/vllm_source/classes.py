"""Extract config dataclasses (fields, defaults, bounds, docs) and enums from the AST."""

from __future__ import annotations

import ast
import contextlib
import inspect
from dataclasses import dataclass, field, replace
from typing import Any

from .modules import Ref, SourceIndex
from .typetree import TNode, TypeResolver, call_constraints
from .values import NotConstant, const_eval, default_repr, factory_repr

_FIELD_FUNCS = {"pydantic.Field", "pydantic.fields.Field", "dataclasses.field"}
_SKIP_ANN = {"typing.ClassVar", "typing_extensions.ClassVar"}
_INITVAR = {"dataclasses.InitVar"}


@dataclass
class FieldInfo:
    name: str
    annotation: str
    type: TNode
    default: Any
    required: bool
    init: bool
    initvar: bool
    constraints: dict[str, Any]
    doc: str
    source: str
    before_validator: str | None = None
    validator_input: TNode | None = None
    #: What the before validator leaves alone (`before_shape`), when its body says it.
    before_passes: dict[str, Any] | None = None
    #: `file:line` of a `mode="wrap"` validator that returns None without validating it.
    none_validator: str | None = None
    #: The `mode="before"` validator hands a text on untouched (it reshapes only dicts or
    #: other non-text inputs): the declared type then judges a text.
    before_keeps_text: bool = False


@dataclass
class ClassInfo:
    name: str
    ref: Ref
    doc: str
    source: str
    #: pydantic's ``extra``: what an unknown key does (``forbid``, ``ignore``, ``allow``).
    extra: str
    fields: dict[str, FieldInfo] = field(default_factory=dict)


@dataclass
class EnumInfo:
    name: str
    doc: str
    source: str
    members: dict[str, Any]
    value_type: str  # "int", "str" or "object": what the members' values are
    mixin: str | None  # "int"/"str" for IntEnum/StrEnum/(str, Enum): values are that type


def _returns_none_unvalidated(function: ast.FunctionDef) -> bool:
    """The function's first statement (after its docstring) returns None untouched: `if
    <value> is None: return <value>`, or `return None if <value> is None else ...`, with
    <value> its first argument after `cls`."""
    params = function.args.args
    if len(params) < 2:
        return False
    value = params[1].arg
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if not body:
        return False
    first = body[0]
    if isinstance(first, ast.If):
        then = first.body
        return (
            _is_none_test(first.test, value)
            and len(then) == 1
            and isinstance(then[0], ast.Return)
            and _is_none_or(then[0].value, value)
        )
    return (
        isinstance(first, ast.Return)
        and isinstance(first.value, ast.IfExp)
        and _is_none_test(first.value.test, value)
        and _is_none_or(first.value.body, value)
    )


def _isinstance_of(test: ast.expr, value: str) -> list[str] | None:
    """The type names of `isinstance(<value>, T)` (`T` a name or a tuple of names)."""
    if not (
        isinstance(test, ast.Call)
        and isinstance(test.func, ast.Name)
        and test.func.id == "isinstance"
        and len(test.args) == 2
        and isinstance(test.args[0], ast.Name)
        and test.args[0].id == value
    ):
        return None
    kinds = test.args[1]
    parts = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
    return [ast.unparse(part) for part in parts]


def _returns(stmt: ast.stmt, value: str) -> bool:
    return (
        isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name) and stmt.value.id == value
    )


def _rebinds(stmts: list[ast.stmt], value: str) -> bool:
    """The block returns or assigns to <value> anywhere (it may then change the input)."""
    for node in ast.walk(ast.Module(body=stmts, type_ignores=[])):
        if isinstance(node, ast.Return):
            return True
        if isinstance(node, ast.Name) and node.id == value and isinstance(node.ctx, ast.Store):
            return True
    return False


def before_shape(function: ast.FunctionDef) -> dict[str, Any] | None:
    """What a `mode="before"` validator leaves to the declared type, when its body is one of
    vLLM's three shapes (imports and the docstring aside), `v` its value parameter:

    * `if not isinstance(v, T): return v` first: inputs that are not `T` go on unchanged;
    * `if isinstance(v, T): return EXPR` then `return v`: the same, and when `T` is `str`
      and `EXPR` only chains str methods on `v`, `"str"` keeps `lambda v: EXPR` (the
      reshaping `KernelConfig._normalize_moe_backend` does);
    * `if isinstance(v, T): <checks that only raise>` then `return v`: every input goes on
      unchanged (`ObservabilityConfig._reject_bool_histogram_bounds`).

    `{"unless": [type names]}`; None for any other body (its result is unknown)."""
    params = function.args.args
    if len(params) < 2:
        return None
    value = params[1].arg
    body = [
        st
        for st in function.body
        if not isinstance(st, (ast.Import, ast.ImportFrom))
        and not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant))
    ]
    if not body or not isinstance(body[0], ast.If) or body[0].orelse:
        return None
    first = body[0]
    test = first.test
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        kinds = _isinstance_of(test.operand, value)
        if kinds is not None and len(first.body) == 1 and _returns(first.body[0], value):
            return {"unless": kinds}
        return None
    kinds = _isinstance_of(test, value)
    if kinds is None or len(body) != 2 or not _returns(body[1], value):
        return None
    if len(first.body) == 1 and isinstance(first.body[0], ast.Return):
        shape: dict[str, Any] = {"unless": kinds}
        returned = first.body[0].value
        if kinds == ["str"] and returned is not None:
            shape["str"] = f"lambda {value}: {ast.unparse(returned)}"
        return shape
    return None if _rebinds(first.body, value) else {"unless": []}


def _is_none_test(test: ast.expr, value: str) -> bool:
    """`<value> is None`."""
    return (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and test.left.id == value
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
    )


def _is_none_or(expr: ast.expr | None, value: str) -> bool:
    """`None` or `<value>` (which is None where this is returned)."""
    if isinstance(expr, ast.Constant):
        return expr.value is None
    return isinstance(expr, ast.Name) and expr.id == value


def _docstring_after(body: list[ast.stmt], i: int) -> str:
    if i + 1 < len(body):
        nxt = body[i + 1]
        if (
            isinstance(nxt, ast.Expr)
            and isinstance(nxt.value, ast.Constant)
            and isinstance(nxt.value.value, str)
        ):
            return inspect.cleandoc(nxt.value.value)
    return ""


class ClassExtractor:
    """Builds ``ClassInfo``/``EnumInfo`` for dataclasses and enums found by the resolver."""

    def __init__(self, index: SourceIndex, types: TypeResolver) -> None:
        self.index = index
        self.types = types
        self._cache: dict[str, ClassInfo] = {}

    def extra_mode(self, ref: Ref) -> str:
        """What pydantic does with a key the class has no field for: ``forbid``, ``ignore``
        or ``allow``. vLLM's ``@config`` forbids extras only where its body says so
        (``ConfigDict(extra="forbid")``, 0.16 on); before, it returned the class unchanged
        and the ``@dataclass`` under it decided: pydantic's default is ``ignore``, and
        ``config=ConfigDict(extra=...)`` overrides it (compilation classes from 0.13). A
        stdlib dataclass rejects unknown keyword arguments (TypeError)."""
        assert isinstance(ref.node, ast.ClassDef)
        if self.types.dataclass_decorator(ref) is None:  # inherits dataclass-ness
            bases = [b for b in self.types.class_bases(ref) if self.types.is_dataclass(b)]
            return self.extra_mode(bases[0]) if bases else "forbid"
        extra = "ignore"
        # Decorators apply bottom-up: the outermost one that sets `extra` wins.
        for deco in reversed(ref.node.decorator_list):
            target = deco.func if isinstance(deco, ast.Call) else deco
            resolved = self.index.resolve_expr(ref.module, target)
            qualname = resolved.qualname if resolved is not None else ""
            if qualname == "dataclasses.dataclass":
                extra = "forbid"
            elif qualname.endswith(".config") and resolved is not None:
                extra = self._decorator_default(resolved) or extra
            if isinstance(deco, ast.Call):
                extra = self._config_kwarg(ref.module, deco) or extra
        return extra

    def _decorator_default(self, ref: Ref) -> str | None:
        """The ``extra`` a decorator function's own ``ConfigDict(extra=...)`` sets (its
        ``@overload`` stubs included: the module is searched by name)."""
        tree = self.index.src.tree(ref.module)
        if tree is None:
            return None
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == ref.short:
                for call in ast.walk(node):
                    if isinstance(call, ast.Call) and ast.unparse(call.func).endswith("ConfigDict"):
                        found = self._extra_keyword(ref.module, call)
                        if found is not None:
                            return found
        return None

    def _config_kwarg(self, module: str, deco: ast.Call) -> str | None:
        """``extra`` of a decorator call's ``config=ConfigDict(extra=...)``."""
        for kw in deco.keywords:
            if kw.arg == "config" and isinstance(kw.value, ast.Call):
                return self._extra_keyword(module, kw.value)
        return None

    def _extra_keyword(self, module: str, call: ast.Call) -> str | None:
        for kw in call.keywords:
            if kw.arg == "extra":
                with contextlib.suppress(NotConstant):
                    value = const_eval(self.index, module, kw.value)
                    return value if isinstance(value, str) else None
        return None

    def extract(self, ref: Ref) -> ClassInfo:
        if ref.qualname in self._cache:
            return self._cache[ref.qualname]
        node = ref.node
        assert isinstance(node, ast.ClassDef)
        info = ClassInfo(
            name=node.name,
            ref=ref,
            doc=inspect.cleandoc(ast.get_docstring(node, clean=False) or ""),
            source=self.index.source_of(ref.module, node),
            extra=self.extra_mode(ref),
        )
        self._cache[ref.qualname] = info
        # Dataclass semantics: base fields first (in MRO order), then own fields.
        for base in reversed(self.types.class_bases(ref)):
            if base.kind == "class" and self.types.is_dataclass(base):
                info.fields.update(self.extract(base).fields)
        validators = self._before_validators(ref)
        none_passes = self._none_passing_validators(ref)
        for i, st in enumerate(node.body):
            if not isinstance(st, ast.AnnAssign) or not isinstance(st.target, ast.Name):
                continue
            f = self._field(ref, node, st, _docstring_after(node.body, i))
            if f is None:
                continue
            found = validators.get(f.name, validators.get("*"))
            if found is not None:
                f.before_validator, f.validator_input, f.before_passes = found
            elif f.name in info.fields and info.fields[f.name].before_validator:
                f.before_validator = info.fields[f.name].before_validator
                f.validator_input = info.fields[f.name].validator_input
                f.before_passes = info.fields[f.name].before_passes
            if f.name in none_passes:
                f.none_validator = none_passes[f.name]
            elif f.name in info.fields:
                f.none_validator = info.fields[f.name].none_validator
            if not f.doc and f.name in info.fields:
                f.doc = info.fields[f.name].doc
            info.fields[f.name] = f
        for name, source in none_passes.items():  # validators on inherited fields
            if name in info.fields and info.fields[name].none_validator is None:
                info.fields[name] = replace(info.fields[name], none_validator=source)
        return info

    def _annotation_head(self, module: str, ann: ast.expr) -> str:
        target = ann.value if isinstance(ann, ast.Subscript) else ann
        r = self.index.resolve_expr(module, target)
        return r.qualname if r is not None else ""

    def _field(self, ref: Ref, cls: ast.ClassDef, st: ast.AnnAssign, doc: str) -> FieldInfo | None:
        assert isinstance(st.target, ast.Name)
        module = ref.module
        head = self._annotation_head(module, st.annotation)
        if head in _SKIP_ANN:
            return None
        tree = self.types.resolve(module, st.annotation)
        constraints: dict[str, Any] = dict(tree.get("_constraints", {}))
        required, init = st.value is None, True
        default: Any = None
        value = st.value
        if isinstance(value, ast.Call):
            fr = self.index.resolve_expr(module, value.func)
            if fr is not None and fr.qualname in _FIELD_FUNCS:
                kws = {kw.arg: kw.value for kw in value.keywords if kw.arg}
                if value.args:
                    default = default_repr(self.index, module, value.args[0], cls)
                elif "default" in kws:
                    default = default_repr(self.index, module, kws["default"], cls)
                elif "default_factory" in kws:
                    default = factory_repr(self.index, module, kws["default_factory"])
                else:
                    required = True
                if "init" in kws:
                    with contextlib.suppress(NotConstant):
                        init = bool(const_eval(self.index, module, kws["init"]))
                constraints.update(call_constraints(self.index, module, value))
                value = None
        if value is not None:
            default = default_repr(self.index, module, value, cls)
        return FieldInfo(
            name=st.target.id,
            annotation=ast.unparse(st.annotation),
            type=tree,
            default=None if required else default,
            required=required,
            init=init,
            initvar=head in _INITVAR,
            constraints=constraints,
            doc=doc,
            source=self.index.source_of(module, st),
        )

    def _before_validators(
        self, ref: Ref
    ) -> dict[str, tuple[str, TNode | None, dict[str, Any] | None]]:
        """Fields pre-processed by ``@field_validator(..., mode="before"|"plain")``
        (``"*"``: every field, as ``IrOpPriorityConfig`` does with comma-separated strings).

        Their declared type describes the value *after* the validator, so the input may
        legitimately look different (e.g. ``{"image": 16}`` for ``limit_per_prompt``).
        """
        assert isinstance(ref.node, ast.ClassDef)
        out: dict[str, tuple[str, TNode | None, dict[str, Any] | None]] = {}
        for st in ref.node.body:
            if not isinstance(st, ast.FunctionDef):
                continue
            for d in st.decorator_list:
                if not (
                    isinstance(d, ast.Call) and ast.unparse(d.func).endswith("field_validator")
                ):
                    continue
                mode = next(
                    (
                        kw.value.value
                        for kw in d.keywords
                        if kw.arg == "mode" and isinstance(kw.value, ast.Constant)
                    ),
                    "after",
                )
                if mode not in ("before", "plain"):
                    continue
                params = st.args.args
                ann = params[1].annotation if len(params) > 1 else None
                tin = self.types.resolve(ref.module, ann) if ann is not None else None
                if tin is not None and tin["kind"] in ("any", "unknown"):
                    tin = None
                src = self.index.source_of(ref.module, st)
                shape = before_shape(st) if mode == "before" else None
                for a in d.args:
                    if isinstance(a, ast.Constant) and isinstance(a.value, str):
                        out[a.value] = (src, tin, shape)
        return out

    def _none_passing_validators(self, ref: Ref) -> dict[str, str]:
        """Fields whose ``@field_validator(..., mode="wrap")`` starts with ``if value is
        None: return value`` (vLLM's ``_skip_none_validation``, for fields set later in
        ``__post_init__``): None is accepted whatever the declared type."""
        assert isinstance(ref.node, ast.ClassDef)
        out: dict[str, str] = {}
        for st in ref.node.body:
            if not isinstance(st, ast.FunctionDef) or not _returns_none_unvalidated(st):
                continue
            for d in st.decorator_list:
                if not (
                    isinstance(d, ast.Call) and ast.unparse(d.func).endswith("field_validator")
                ):
                    continue
                modes = [kw.value for kw in d.keywords if kw.arg == "mode"]
                if not (modes and isinstance(modes[0], ast.Constant) and modes[0].value == "wrap"):
                    continue
                src = self.index.source_of(ref.module, st)
                for a in d.args:
                    if isinstance(a, ast.Constant) and isinstance(a.value, str):
                        out[a.value] = src
        return out

    def extract_enum(self, ref: Ref) -> EnumInfo:
        node = ref.node
        assert isinstance(node, ast.ClassDef)
        members: dict[str, Any] = {}
        for st in node.body:
            if isinstance(st, ast.Assign) and len(st.targets) == 1:
                t = st.targets[0]
                if isinstance(t, ast.Name) and not t.id.startswith("_"):
                    members[t.id] = default_repr(self.index, ref.module, st.value, node)
        bases = {ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases}
        mixin = "int" if bases & {"IntEnum", "IntFlag", "int"} else None
        mixin = "str" if bases & {"StrEnum", "str"} else mixin
        kinds = {type(v).__name__ for v in members.values()}
        vt = "int" if kinds == {"int"} else "str" if kinds == {"str"} else "object"
        return EnumInfo(
            name=node.name,
            doc=inspect.cleandoc(ast.get_docstring(node, clean=False) or ""),
            source=self.index.source_of(ref.module, node),
            members=members,
            value_type=vt,
            mixin=mixin,
        )
