"""A tiny abstract interpreter for vLLM's argparse registration code.

``vllm serve`` builds its parser by running ``ServeSubcommand.subparser_init`` ->
``make_arg_parser`` -> ``FrontendArgs.add_cli_args`` / ``AsyncEngineArgs.add_cli_args`` ->
``EngineArgs.add_cli_args``. Those functions are straight-line code over dicts returned by
``get_kwargs(Config)`` (mutated in place, spread into ``add_argument``), a loop over a
kwargs table, and a few ``if`` tests on ``sys.argv``. Interpreting that subset directly
(instead of pattern-matching ``add_argument`` calls) follows renames, overrides such as
``kwargs["type"] = optional_type(json.loads)``, ``del kwargs["nargs"]`` and subclass
hooks without hard-coding any flag. Anything outside the subset evaluates to ``Opaque``.
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass, field
from typing import Any

from .classes import ClassExtractor
from .kwargs import Kwargs, KwargsComputer, KwTable, TypeFn
from .modules import Ref, SourceIndex, class_member
from .typetree import TypeResolver
from .values import NotConstant, const_eval

SIMULATED_ARGV = ["vllm", "serve", "MODEL"]  # a normal ``vllm serve`` invocation


@dataclass
class Opaque:
    """A value only known at runtime; ``partial`` keeps a known list prefix."""

    text: str
    partial: list[Any] | None = None


@dataclass(frozen=True)
class External:
    qualname: str


@dataclass(frozen=True)
class ClassVal:
    ref: Ref


@dataclass(frozen=True)
class Instance:
    cls: ClassVal


@dataclass(frozen=True)
class FuncVal:
    ref: Ref
    bound_cls: ClassVal | None = None


@dataclass(frozen=True)
class ModuleVal:
    module: str


@dataclass(frozen=True)
class TypeExpr:
    """A type alias used as a value (e.g. ``get_args(LogLevel)``)."""

    module: str
    node: ast.expr


@dataclass(frozen=True)
class LambdaVal:
    source: str


@dataclass(frozen=True)
class SuperVal:
    owner: ClassVal
    bound_cls: ClassVal | None


@dataclass(frozen=True)
class Method:
    obj: Any
    name: str


@dataclass
class ArgCall:
    """One ``add_argument`` call as it was executed."""

    args: list[Any]
    kwargs: dict[str, Any]
    origin: str | None
    source: str
    group: str | None


@dataclass
class ParserVal:
    calls: list[ArgCall] = field(default_factory=list)
    hooks: list[str] = field(default_factory=list)


@dataclass
class GroupVal:
    parser: ParserVal
    title: str | None


@dataclass
class SubparsersVal:
    parsers: list[ParserVal] = field(default_factory=list)
    names: list[str | None] = field(default_factory=list)


class _Return(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


@dataclass
class Frame:
    module: str
    locals: dict[str, Any]
    cls: ClassVal | None = None  # class whose method is running (for super())
    bound_cls: ClassVal | None = None


_PARSERISH = (ParserVal, GroupVal, SubparsersVal, KwTable, Kwargs)


class Interpreter:
    def __init__(
        self,
        index: SourceIndex,
        types: TypeResolver,
        extractor: ClassExtractor,
        kwargs: KwargsComputer,
    ) -> None:
        self.index = index
        self.types = types
        self.extractor = extractor
        self.kwargs = kwargs
        self.warnings: list[str] = []
        self.depth = 0
        #: ``add_subparsers()`` results of parsers the interpreted code built itself.
        self.subparsers: list[SubparsersVal] = []

    # -- entry ----------------------------------------------------------------------
    def run_method(self, module: str, cls_name: str, method: str, args: list[Any]) -> Any:
        ref = self.index.resolve(module, cls_name)
        if ref.kind != "class":
            raise RuntimeError(f"{module}.{cls_name} not found")
        cv = ClassVal(ref)
        fn = self._lookup(cv, method)
        if fn is None:
            raise RuntimeError(f"{cls_name}.{method} not found")
        return self.call_function(fn, [Instance(cv), *args], {})

    def run_function(self, module: str, name: str, args: list[Any]) -> Any:
        """Run a module-level function (the 0.6 entry point ``vllm.scripts.main``)."""
        ref = self.index.resolve(module, name)
        if ref.kind != "func":
            raise RuntimeError(f"{module}.{name} not found")
        return self.call_function(FuncVal(ref), args, {})

    def _is_parser_class(self, ref: Ref) -> bool:
        """A subclass of ``argparse.ArgumentParser`` (``FlexibleArgumentParser``)."""
        return any(
            b.qualname == "argparse.ArgumentParser"
            for r in self._mro(ref)
            for b in self.types.class_bases(r)
        )

    # -- lookups ----------------------------------------------------------------------
    def _lookup(self, cv: ClassVal, name: str, skip_self: bool = False) -> Any:
        """Attribute lookup along the (approximate) MRO: own body, then bases."""
        order = self._mro(cv.ref)
        if skip_self:
            order = order[1:]
        for ref in order:
            assert isinstance(ref.node, ast.ClassDef)
            member = class_member(ref.node, name)
            if member is None:
                continue
            if isinstance(member, ast.FunctionDef):
                return FuncVal(Ref("func", f"{ref.qualname}.{name}", ref.module, member))
            try:
                return const_eval(self.index, ref.module, member, ref.node)
            except NotConstant:
                return Opaque(f"{ref.qualname}.{name}")
        return None

    def _mro(self, ref: Ref) -> list[Ref]:
        out = [ref]
        for b in self.types.class_bases(ref):
            if b.kind == "class":
                out += [r for r in self._mro(b) if r not in out]
        return out

    # -- functions --------------------------------------------------------------------
    def call_function(self, fn: FuncVal, args: list[Any], kwargs: dict[str, Any]) -> Any:
        node = fn.ref.node
        assert isinstance(node, ast.FunctionDef)
        decos = {ast.unparse(d) for d in node.decorator_list}
        owner = self._owner_class(fn)
        if "classmethod" in decos:
            args = [fn.bound_cls or owner, *args]
        params = [a.arg for a in node.args.posonlyargs + node.args.args]
        defaults = node.args.defaults
        env: dict[str, Any] = {}
        first_default = len(params) - len(defaults)
        for i, p in enumerate(params):
            if i < len(args):
                env[p] = args[i]
            elif p in kwargs:
                env[p] = kwargs[p]
            elif i >= first_default:
                env[p] = self.eval(Frame(fn.ref.module, {}), defaults[i - first_default])
            else:
                env[p] = Opaque(p)
        for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults, strict=False):
            env[a.arg] = kwargs.get(a.arg, self.eval(Frame(fn.ref.module, {}), d) if d else None)
        bound = fn.bound_cls or (args[0] if args and isinstance(args[0], ClassVal) else None)
        frame = Frame(fn.ref.module, env, owner, bound if "classmethod" in decos else None)
        self.depth += 1
        if self.depth > 40:
            raise RuntimeError("interpreter recursion too deep")
        try:
            self.exec_body(frame, node.body)
        except _Return as r:
            return r.value
        finally:
            self.depth -= 1
        return None

    def _owner_class(self, fn: FuncVal) -> ClassVal | None:
        qual = fn.ref.qualname.rsplit(".", 1)[0]
        mod, _, cls = qual.rpartition(".")
        if mod != fn.ref.module:
            return None
        ref = self.index.resolve(mod, cls)
        return ClassVal(ref) if ref.kind == "class" else None

    # -- statements -------------------------------------------------------------------
    def exec_body(self, f: Frame, body: list[ast.stmt]) -> None:
        for st in body:
            self.exec_stmt(f, st)

    def exec_stmt(self, f: Frame, st: ast.stmt) -> None:
        if isinstance(st, ast.Expr):
            self.eval(f, st.value)
        elif isinstance(st, ast.Assign):
            val = self.eval(f, st.value)
            for t in st.targets:
                self.assign(f, t, val)
        elif isinstance(st, ast.AnnAssign) and st.value is not None:
            self.assign(f, st.target, self.eval(f, st.value))
        elif isinstance(st, ast.AugAssign):
            cur = self.eval(f, st.target)
            rhs = self.eval(f, st.value)
            self.assign(f, st.target, self.binop(st.op, cur, rhs, st))
        elif isinstance(st, ast.Return):
            raise _Return(self.eval(f, st.value) if st.value else None)
        elif isinstance(st, ast.If):
            test = self.eval(f, st.test)
            if isinstance(test, Opaque):
                self.warnings.append(f"unknown condition {ast.unparse(st.test)}: took if-branch")
                self.exec_body(f, st.body)
            else:
                self.exec_body(f, st.body if test else st.orelse)
        elif isinstance(st, ast.For):
            it = self.eval(f, st.iter)
            if isinstance(it, (list, tuple)):
                for item in list(it):
                    self.assign(f, st.target, item)
                    self.exec_body(f, st.body)
            else:
                self.warnings.append(f"skipped loop over {ast.unparse(st.iter)}")
        elif isinstance(st, ast.Delete):
            for t in st.targets:
                if isinstance(t, ast.Subscript):
                    obj, key = self.eval(f, t.value), self.eval(f, t.slice)
                    if isinstance(obj, dict) and key in obj:
                        del obj[key]
        elif isinstance(st, ast.ImportFrom):
            for a in st.names:
                mod = st.module or ""
                f.locals[a.asname or a.name] = self._ref_value(self.index.resolve(mod, a.name))
        elif isinstance(st, (ast.Pass, ast.Import)):
            pass
        else:
            self.warnings.append(f"ignored statement {type(st).__name__} at line {st.lineno}")

    def assign(self, f: Frame, target: ast.expr, val: Any) -> None:
        if isinstance(target, ast.Name):
            f.locals[target.id] = val
        elif isinstance(target, ast.Tuple):
            if isinstance(val, (list, tuple)) and len(val) == len(target.elts):
                for t, v in zip(target.elts, val, strict=False):
                    self.assign(f, t, v)
            else:
                for t in target.elts:
                    self.assign(f, t, Opaque(ast.unparse(t)))
        elif isinstance(target, ast.Subscript):
            obj, key = self.eval(f, target.value), self.eval(f, target.slice)
            if isinstance(obj, dict):
                obj[key] = val
        # attribute assignment (parser.epilog = ...) does not affect options

    # -- expressions ------------------------------------------------------------------
    def _ref_value(self, ref: Ref) -> Any:
        if ref.kind == "class":
            return ClassVal(ref)
        if ref.kind == "func":
            return FuncVal(ref)
        if ref.kind == "module":
            return ModuleVal(ref.module)
        if ref.kind == "value" and ref.node is not None:
            try:
                return const_eval(self.index, ref.module, ref.node)
            except NotConstant:
                assert isinstance(ref.node, ast.expr)
                return TypeExpr(ref.module, ref.node)
        return External(ref.qualname)

    def eval(self, f: Frame, node: ast.expr | None) -> Any:
        if node is None:
            return None
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id in f.locals:
                return f.locals[node.id]
            return self._ref_value(self.index.resolve(f.module, node.id))
        if isinstance(node, ast.JoinedStr):
            parts: list[str] = []
            for v in node.values:
                x = self.eval(f, v.value) if isinstance(v, ast.FormattedValue) else self.eval(f, v)
                if not isinstance(x, (str, int, float)):
                    return Opaque(ast.unparse(node))
                parts.append(str(x))
            return "".join(parts)
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items: list[Any] = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    v = self.eval(f, e.value)
                    if not isinstance(v, (list, tuple)):
                        return Opaque(ast.unparse(node))
                    items += list(v)
                else:
                    items.append(self.eval(f, e))
            return tuple(items) if isinstance(node, ast.Tuple) else items
        if isinstance(node, ast.Dict):
            out: dict[Any, Any] = {}
            for k, v in zip(node.keys, node.values, strict=False):
                if k is None:
                    spread = self.eval(f, v)
                    if isinstance(spread, Kwargs):
                        out = Kwargs(spread.origin, {**out, **spread})
                    elif isinstance(spread, dict):
                        out.update(spread)
                else:
                    out[self.eval(f, k)] = self.eval(f, v)
            return out
        if isinstance(node, ast.Attribute):
            return self.getattr(f, self.eval(f, node.value), node.attr, node)
        if isinstance(node, ast.Subscript):
            return self.subscript(self.eval(f, node.value), self.eval(f, node.slice), node)
        if isinstance(node, ast.Slice):
            lo, hi = self.eval(f, node.lower), self.eval(f, node.upper)
            return slice(lo, hi)
        if isinstance(node, ast.Call):
            return self.call(f, node)
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.eval(f, node.left), self.eval(f, node.right), node)
        if isinstance(node, ast.BoolOp):
            vals = [self.eval(f, v) for v in node.values]
            if any(isinstance(v, Opaque) for v in vals):
                return Opaque(ast.unparse(node))
            if isinstance(node.op, ast.And):
                return all(vals)
            return any(vals)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            v = self.eval(f, node.operand)
            return Opaque(ast.unparse(node)) if isinstance(v, Opaque) else not v
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            v = self.eval(f, node.operand)
            return -v if isinstance(v, (int, float)) else Opaque(ast.unparse(node))
        if isinstance(node, ast.Compare):
            return self.compare(f, node)
        if isinstance(node, ast.IfExp):
            test = self.eval(f, node.test)
            if isinstance(test, Opaque):
                return Opaque(ast.unparse(node))
            return self.eval(f, node.body if test else node.orelse)
        if isinstance(node, ast.Lambda):
            return LambdaVal(self.index.segment(f.module, node))
        if isinstance(node, ast.ListComp):
            return self.list_comp(f, node)
        return Opaque(ast.unparse(node))

    def list_comp(self, f: Frame, node: ast.ListComp) -> Any:
        """`[e for x in items if c]` over a known sequence (0.11-0.28 add the pairs of
        `--collect-detailed-traces` modules to its choices this way). The loop variable
        is the comprehension's own: the frame's locals are left as they were."""
        if len(node.generators) != 1 or node.generators[0].is_async:
            return Opaque(ast.unparse(node))
        loop = node.generators[0]
        items = self.eval(f, loop.iter)
        if not isinstance(items, (list, tuple)):
            return Opaque(ast.unparse(node))
        outer = dict(f.locals)
        out: list[Any] = []
        try:
            for item in items:
                self.assign(f, loop.target, item)
                tests = [self.eval(f, test) for test in loop.ifs]
                if any(isinstance(t, Opaque) for t in tests):
                    return Opaque(ast.unparse(node))
                if all(tests):
                    out.append(self.eval(f, node.elt))
        finally:
            f.locals.clear()
            f.locals.update(outer)
        return out

    def compare(self, f: Frame, node: ast.Compare) -> Any:
        left = self.eval(f, node.left)
        for op, comp in zip(node.ops, node.comparators, strict=False):
            right = self.eval(f, comp)
            if any(isinstance(v, (Opaque, External)) for v in (left, right)):
                return Opaque(ast.unparse(node))
            try:
                if isinstance(op, ast.In):
                    ok = left in right
                elif isinstance(op, ast.NotIn):
                    ok = left not in right
                elif isinstance(op, ast.Eq):
                    ok = left == right
                elif isinstance(op, ast.NotEq):
                    ok = left != right
                elif isinstance(op, ast.Is):
                    ok = left is right
                elif isinstance(op, ast.IsNot):
                    ok = left is not right
                else:
                    return Opaque(ast.unparse(node))
            except TypeError:
                return Opaque(ast.unparse(node))
            if not ok:
                return False
            left = right
        return True

    def binop(self, op: ast.operator, left: Any, right: Any, node: ast.AST) -> Any:
        if isinstance(op, ast.Add):
            if isinstance(left, str) and isinstance(right, str):
                return left + right
            if isinstance(left, list) and isinstance(right, list):
                return left + right
            if isinstance(left, list) and isinstance(right, Opaque):
                return Opaque(ast.unparse(node), partial=list(left))
        return Opaque(ast.unparse(node))

    def subscript(self, obj: Any, key: Any, node: ast.AST) -> Any:
        if isinstance(obj, dict) and not isinstance(key, (Opaque, slice)):
            return obj.get(key, Opaque(ast.unparse(node)))
        if isinstance(obj, (list, tuple, str)) and isinstance(key, (int, slice)):
            try:
                return obj[key]
            except (IndexError, TypeError):  # out of range, or a slice bound not known
                return Opaque(ast.unparse(node))
        return Opaque(ast.unparse(node))

    def getattr(self, f: Frame, obj: Any, attr: str, node: ast.AST) -> Any:
        if isinstance(obj, ModuleVal):
            return self._ref_value(self.index.resolve(obj.module, attr))
        if isinstance(obj, External):
            if obj.qualname == "sys" and attr == "argv":
                return list(SIMULATED_ARGV)
            return External(f"{obj.qualname}.{attr}")
        if isinstance(obj, ClassVal):
            assert isinstance(obj.ref.node, ast.ClassDef)
            if attr == "__name__":
                return obj.ref.node.name
            if attr == "__doc__":
                return ast.get_docstring(obj.ref.node, clean=False)
            found = self._lookup(obj, attr)
            if isinstance(found, FuncVal):
                return FuncVal(found.ref, obj)
            return found if found is not None else Opaque(ast.unparse(node))
        if isinstance(obj, Instance):
            found = self._lookup(obj.cls, attr)
            return found if found is not None else Opaque(ast.unparse(node))
        if isinstance(obj, SuperVal):
            found = self._lookup(obj.owner, attr, skip_self=True)
            if isinstance(found, FuncVal):
                return FuncVal(found.ref, obj.bound_cls)
            return found if found is not None else Opaque(ast.unparse(node))
        if isinstance(obj, (ParserVal, GroupVal, SubparsersVal, dict, list, str)):
            return Method(obj, attr)
        return Opaque(ast.unparse(node))

    # -- calls ------------------------------------------------------------------------
    def call(self, f: Frame, node: ast.Call) -> Any:
        func = self.eval(f, node.func)
        args: list[Any] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                v = self.eval(f, a.value)
                args += list(v) if isinstance(v, (list, tuple)) else [Opaque(ast.unparse(a))]
            else:
                args.append(self.eval(f, a))
        kwargs: dict[str, Any] = {}
        origin: str | None = None
        for kw in node.keywords:
            v = self.eval(f, kw.value)
            if kw.arg is None:
                if isinstance(v, Kwargs):
                    origin = v.origin
                if isinstance(v, dict):
                    kwargs.update(v)
            else:
                kwargs[kw.arg] = v
        if isinstance(func, External) and func.qualname == "builtins.super":
            return SuperVal(f.cls, f.bound_cls) if f.cls else Opaque("super()")
        if isinstance(func, Method):
            return self.call_method(f, func, args, kwargs, origin, node)
        if isinstance(func, FuncVal):
            return self.call_func(f, func, args, kwargs, node)
        if isinstance(func, External):
            if any(isinstance(a, ParserVal) for a in args):
                self._hook(f, node, args)
            return self.call_external(func.qualname, args, kwargs, node)
        if isinstance(func, ClassVal):
            if self._is_parser_class(func.ref):
                return ParserVal()  # a root parser built by the entry point itself (0.6)
            return Instance(func)
        if isinstance(func, Opaque) and any(isinstance(a, ParserVal) for a in args):
            self._hook(f, node, args)
        return Opaque(ast.unparse(node))

    def _hook(self, f: Frame, node: ast.AST, args: list[Any]) -> None:
        """A call we cannot follow receives the parser: plugins may add options there."""
        text = f"{self.index.source_of(f.module, node)} {ast.unparse(node)}"
        for a in args:
            if isinstance(a, ParserVal) and text not in a.hooks:
                a.hooks.append(text)

    def call_func(
        self, f: Frame, fn: FuncVal, args: list[Any], kwargs: dict[str, Any], node: ast.Call
    ) -> Any:
        name = fn.ref.short
        if name == "get_kwargs" and args and isinstance(args[0], ClassVal):
            self.types.classes.setdefault(args[0].ref.short, args[0].ref)
            info = self.extractor.extract(args[0].ref)
            return self.kwargs.table(info)
        if name in ("optional_type", "parse_type") and args:
            inner = self.as_type(args[0])
            optional = name == "optional_type" or inner.optional
            return TypeFn(inner.parse, optional, inner.source, wrapped=True)
        if any(isinstance(a, _PARSERISH) for a in [*args, *kwargs.values()]):
            return self.call_function(fn, args, kwargs)
        if any(isinstance(a, ParserVal) for a in args):
            self._hook(f, node, args)
        return Opaque(ast.unparse(node))

    def call_external(self, q: str, args: list[Any], kwargs: dict[str, Any], node: ast.Call) -> Any:
        short = q.rsplit(".", 1)[-1]
        if short == "get_args" and args and isinstance(args[0], TypeExpr):
            t = self.types.resolve(args[0].module, args[0].node)
            if t["kind"] == "literal":
                return tuple(t["values"])
        if (
            q in ("builtins.list", "builtins.sorted", "builtins.tuple")
            and args
            and isinstance(args[0], (list, tuple))
        ):
            seq = sorted(args[0]) if short == "sorted" else list(args[0])
            return tuple(seq) if short == "tuple" else seq
        if q == "itertools.permutations" and len(args) == 1 and isinstance(args[0], (list, tuple)):
            r = kwargs.get("r")
            if set(kwargs) <= {"r"} and (r is None or isinstance(r, int)):
                return list(itertools.permutations(args[0], r))
        return Opaque(ast.unparse(node))

    def call_method(
        self,
        f: Frame,
        m: Method,
        args: list[Any],
        kwargs: dict[str, Any],
        origin: str | None,
        node: ast.Call,
    ) -> Any:
        obj, name = m.obj, m.name
        if isinstance(obj, (ParserVal, GroupVal)):
            parser = obj if isinstance(obj, ParserVal) else obj.parser
            group = obj.title if isinstance(obj, GroupVal) else None
            if name == "add_argument":
                src = self.index.source_of(f.module, node)
                parser.calls.append(ArgCall(args, kwargs, origin, src, group))
                return Opaque("action")
            if name == "add_subparsers":
                sub = SubparsersVal()
                self.subparsers.append(sub)
                return sub
            if name in ("add_argument_group", "add_mutually_exclusive_group"):
                title = kwargs.get("title", args[0] if args else None)
                return GroupVal(parser, title if isinstance(title, str) else group)
            return Opaque(ast.unparse(node))
        if isinstance(obj, SubparsersVal) and name == "add_parser":
            p = ParserVal()
            obj.names.append(args[0] if args and isinstance(args[0], str) else None)
            if kwargs.get("add_help", True) is not False:
                src = self.index.source_of(f.module, node)
                p.calls.append(ArgCall(["-h", "--help"], {"action": "help"}, None, src, None))
            obj.parsers.append(p)
            return p
        if isinstance(obj, dict):
            if name == "pop":
                return obj.pop(args[0], args[1] if len(args) > 1 else None)
            if name == "get":
                return obj.get(args[0], args[1] if len(args) > 1 else None)
            if name == "items":
                return list(obj.items())
            if name == "keys":
                return list(obj.keys())
            if name == "update" and args and isinstance(args[0], dict):
                obj.update(args[0])
                return None
        if isinstance(obj, list):
            if name == "remove" and args and args[0] in obj:
                obj.remove(args[0])
                return None
            if name == "append" and args:
                obj.append(args[0])
                return None
        if isinstance(obj, str) and name == "join" and len(args) == 1 and not kwargs:
            parts = args[0]
            if isinstance(parts, (list, tuple)) and all(isinstance(p, str) for p in parts):
                return obj.join(parts)
        if (
            isinstance(obj, str)
            and all(isinstance(a, str) for a in args)
            and name in ("replace", "lower", "upper", "strip", "removeprefix", "format")
        ):
            try:
                return getattr(obj, name)(*args)
            except (TypeError, IndexError, KeyError):
                return Opaque(ast.unparse(node))
        return Opaque(ast.unparse(node))

    def as_type(self, v: Any) -> TypeFn:
        """Describe an argparse ``type=`` value."""
        if isinstance(v, TypeFn):
            return v
        if isinstance(v, External):
            simple = {
                "builtins.int": "int",
                "builtins.float": "float",
                "builtins.str": "str",
                "json.loads": "json",
            }
            if v.qualname in simple:
                return TypeFn(simple[v.qualname])
            return TypeFn("custom", source=v.qualname)
        if isinstance(v, FuncVal):
            known = {
                "human_readable_int": "human_int",
                "human_readable_int_or_auto": "human_int_or_auto",
                "union_dict_and_str": "dict_or_str",
            }
            if v.ref.short in known:
                # `union_dict_and_str` hands JSON-looking text to optional_type(json.loads).
                wrapped = v.ref.short == "union_dict_and_str"
                return TypeFn(known[v.ref.short], wrapped=wrapped)
            if v.ref.short == "nullable_str":  # 0.6-0.8: "" and "None" -> None, else str
                return TypeFn("str", optional=True)
            assert v.ref.node is not None
            return TypeFn("custom", source=self.index.segment(v.ref.module, v.ref.node))
        if isinstance(v, LambdaVal):
            return TypeFn("custom", source=v.source)
        if isinstance(v, ClassVal):
            return TypeFn("custom", source=v.ref.qualname)
        return TypeFn("custom", source=str(v))
