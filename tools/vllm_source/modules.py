"""Module-level symbol tables and cross-module name resolution for vLLM sources.

Annotations such as ``QuantizationMethods`` or ``me_quant.QuantizationMethods`` only make
sense once the name is followed through ``from x import y``, ``from x import *``,
``import a.b as c``, ``LazyLoader(...)`` and ``if TYPE_CHECKING: ... else: ...`` blocks.
What matters for argparse and pydantic is the *runtime* binding, so runtime bindings win
and TYPE_CHECKING-only bindings are a fallback.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass, field
from typing import Any, Literal

from .wheel import WheelSource

BindingKind = Literal["from", "import", "def", "value"]
RefKind = Literal["class", "func", "value", "module", "external"]


@dataclass(frozen=True)
class Binding:
    """One top-level binding of a name in a module."""

    kind: BindingKind
    node: ast.AST | None = None  # ClassDef/FunctionDef for "def", the expression for "value"
    target: str = ""  # module for "from"/"import"
    attr: str = ""  # imported name for "from"


@dataclass
class ModuleInfo:
    name: str
    path: str
    runtime: dict[str, Binding] = field(default_factory=dict)
    type_checking: dict[str, Binding] = field(default_factory=dict)
    star: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Ref:
    """What a name resolves to.

    ``external`` refs (typing, pydantic, torch, builtins, unresolvable names) carry the
    dotted name in ``qualname``; vLLM refs carry the defining ``module`` and ``node``.
    """

    kind: RefKind
    qualname: str
    module: str = ""
    node: ast.AST | None = None
    tc_only: bool = False

    @property
    def short(self) -> str:
        return self.qualname.rsplit(".", 1)[-1]


_TYPE_ALIAS: Any = getattr(ast, "TypeAlias", None)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


class SourceIndex:
    """Lazily built symbol tables for every module of the wheel."""

    def __init__(self, src: WheelSource) -> None:
        self.src = src
        self._infos: dict[str, ModuleInfo | None] = {}

    # -- building -----------------------------------------------------------------
    def info(self, module: str) -> ModuleInfo | None:
        if module in self._infos:
            return self._infos[module]
        tree = self.src.tree(module)
        path = self.src.module_file(module)
        if tree is None or path is None:
            self._infos[module] = None
            return None
        info = ModuleInfo(module, path)
        self._infos[module] = info
        self._collect(info, tree.body, info.runtime, override=True)
        return info

    def _abs_module(self, info: ModuleInfo, node: ast.ImportFrom) -> str:
        if node.level == 0:
            return node.module or ""
        parts = info.name.split(".")
        if not self.src.is_package(info.name):
            parts = parts[:-1]
        if node.level > 1:
            parts = parts[: len(parts) - (node.level - 1)]
        return ".".join(parts + ([node.module] if node.module else []))

    def _collect(
        self,
        info: ModuleInfo,
        body: list[ast.stmt],
        into: dict[str, Binding],
        override: bool,
    ) -> None:
        def put(name: str, b: Binding) -> None:
            if override or name not in into:
                into[name] = b

        for st in body:
            if isinstance(st, ast.If):
                if _is_type_checking(st.test):
                    self._collect(info, st.body, info.type_checking, override=False)
                    self._collect(info, st.orelse, into, override=False)
                else:
                    self._collect(info, st.body, into, override=False)
                    self._collect(info, st.orelse, into, override=False)
            elif isinstance(st, ast.Try):
                self._collect(info, st.body, into, override=False)
                for h in st.handlers:
                    self._collect(info, h.body, into, override=False)
            elif isinstance(st, ast.ImportFrom):
                mod = self._abs_module(info, st)
                for a in st.names:
                    if a.name == "*":
                        if into is info.runtime:
                            info.star.append(mod)
                        continue
                    put(a.asname or a.name, Binding("from", target=mod, attr=a.name))
            elif isinstance(st, ast.Import):
                for a in st.names:
                    if a.asname:
                        put(a.asname, Binding("import", target=a.name))
                    else:
                        top = a.name.split(".")[0]
                        put(top, Binding("import", target=top))
            elif isinstance(st, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                put(st.name, Binding("def", node=st))
            elif isinstance(st, ast.Assign):
                for t in st.targets:
                    if isinstance(t, ast.Name):
                        put(t.id, Binding("value", node=st.value))
            elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                if st.value is not None:
                    put(st.target.id, Binding("value", node=st.value))
            elif _TYPE_ALIAS is not None and isinstance(st, _TYPE_ALIAS):
                put(st.name.id, Binding("value", node=st.value))  # py>=3.12 ``type X = ...``

    # -- resolving ----------------------------------------------------------------
    def is_vllm_module(self, module: str) -> bool:
        return module.split(".")[0] == "vllm" and self.src.module_file(module) is not None

    def resolve(self, module: str, name: str, _depth: int = 0, _tc: bool = False) -> Ref:
        """Resolve ``name`` as seen from the top level of ``module``."""
        if _depth > 25:
            return Ref("external", f"{module}.{name}")
        info = self.info(module)
        if info is None:
            return Ref("external", f"{module}.{name}" if module else name)
        b = info.runtime.get(name)
        tc = _tc
        if b is None:
            for star in info.star:
                if self.is_vllm_module(star):
                    r = self.resolve(star, name, _depth + 1, _tc)
                    if r.kind != "external" or not r.qualname.startswith(star + "."):
                        return r
        if b is None and name in info.type_checking:
            b, tc = info.type_checking[name], True
        if b is None:
            if hasattr(builtins, name):
                return Ref("external", f"builtins.{name}")
            return Ref("external", f"{module}.{name}", tc_only=tc)
        return self._from_binding(module, name, b, _depth, tc)

    def _from_binding(self, module: str, name: str, b: Binding, depth: int, tc: bool) -> Ref:
        if b.kind == "def":
            assert b.node is not None
            kind: RefKind = "class" if isinstance(b.node, ast.ClassDef) else "func"
            return Ref(kind, f"{module}.{name}", module, b.node, tc)
        if b.kind == "import":
            if self.is_vllm_module(b.target):
                return Ref("module", b.target, b.target, None, tc)
            return Ref("external", b.target, tc_only=tc)
        if b.kind == "from":
            sub = f"{b.target}.{b.attr}"
            if self.is_vllm_module(sub):
                return Ref("module", sub, sub, None, tc)
            if self.is_vllm_module(b.target):
                return self.resolve(b.target, b.attr, depth + 1, tc)
            return Ref("external", sub, tc_only=tc)
        # value: LazyLoader("x", globals(), "vllm.a.b") behaves like ``import vllm.a.b``
        node = b.node
        if (
            isinstance(node, ast.Call)
            and ast.unparse(node.func).endswith("LazyLoader")
            and len(node.args) == 3
            and isinstance(node.args[2], ast.Constant)
            and isinstance(node.args[2].value, str)
            and self.is_vllm_module(node.args[2].value)
        ):
            return Ref("module", node.args[2].value, node.args[2].value, None, tc)
        return Ref("value", f"{module}.{name}", module, node, tc)

    def resolve_expr(self, module: str, node: ast.expr) -> Ref | None:
        """Resolve a ``Name`` or dotted ``Attribute`` expression; None for other shapes."""
        if isinstance(node, ast.Name):
            return self.resolve(module, node.id)
        if isinstance(node, ast.Attribute):
            base = self.resolve_expr(module, node.value)
            if base is None:
                return None
            if base.kind == "module":
                return self.resolve(base.module, node.attr)
            if base.kind == "external":
                return Ref("external", f"{base.qualname}.{node.attr}", tc_only=base.tc_only)
            if base.kind == "class":
                assert isinstance(base.node, ast.ClassDef)
                member = class_member(base.node, node.attr)
                if member is not None:
                    kind: RefKind = "func" if isinstance(member, ast.FunctionDef) else "value"
                    return Ref(kind, f"{base.qualname}.{node.attr}", base.module, member)
                return Ref("external", f"{base.qualname}.{node.attr}")
            return Ref("external", f"{base.qualname}.{node.attr}")
        return None

    def source_of(self, module: str, node: ast.AST) -> str:
        """``path:line`` of a node inside ``module``."""
        info = self.info(module)
        path = info.path if info else module
        return f"{path}:{getattr(node, 'lineno', 0)}"

    def segment(self, module: str, node: ast.AST) -> str:
        info = self.info(module)
        if info is None:
            return ast.unparse(node)
        seg = ast.get_source_segment(self.src.text(info.path), node)
        return seg if seg is not None else ast.unparse(node)


def class_member(cls: ast.ClassDef, name: str) -> ast.AST | None:
    """The function def or assigned value of ``name`` in a class body (not inherited)."""
    for st in cls.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)) and st.name == name:
            return st
        if (
            isinstance(st, ast.AnnAssign)
            and isinstance(st.target, ast.Name)
            and st.target.id == name
            and st.value is not None
        ):
            return st.value
        if isinstance(st, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in st.targets
        ):
            return st.value
    return None
