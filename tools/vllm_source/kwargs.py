"""Emulation of ``vllm.engine.arg_utils._compute_kwargs``: config field -> argparse kwargs.

Kept close to the vLLM source order of checks, because the order decides the outcome
(e.g. ``bool | str | None`` is checked before ``bool``; ``Literal`` before ``list``).
"""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass, replace
from typing import Any

from .classes import ClassExtractor, ClassInfo, FieldInfo
from .modules import SourceIndex
from .typetree import TNode
from .values import NotConstant, const_eval

COMPUTE_MODULE = "vllm.engine.arg_utils"


@dataclass(frozen=True)
class TypeFn:
    """An argparse ``type=`` callable, described by its ``parse`` name (schema-format.md)."""

    parse: str
    optional: bool = False
    source: str | None = None
    #: Wrapped in vLLM's ``parse_type`` (``optional_type`` too), which words a conversion
    #: error itself ("Value X cannot be converted to …"); a bare callable gets argparse's
    #: "invalid <name> value: 'X'".
    wrapped: bool = False


@dataclass(frozen=True)
class Suggested:
    """``metavar`` built from Literal values when the union also allows ``str``."""

    values: tuple[Any, ...]


class Kwargs(dict[str, Any]):
    """argparse kwargs for one field; ``origin`` is ``Class.field``."""

    def __init__(self, origin: str | None, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.origin = origin


class KwTable(dict[str, Kwargs]):
    """Result of ``get_kwargs(Class)``: field name -> Kwargs, in field order."""

    def __init__(self, cls_name: str) -> None:
        super().__init__()
        self.cls_name = cls_name


def hint_atoms(t: TNode) -> list[TNode]:
    """``get_type_hints`` of vLLM: Annotated stripped, unions flattened."""
    return list(t["options"]) if t["kind"] == "union" else [t]


def _builtin_kind(a: TNode) -> bool:
    """``type_hint.__module__ == "builtins"`` for an atom."""
    return a["kind"] in ("int", "float", "str", "bool", "none", "list", "set", "tuple", "dict")


def _sorted(values: list[Any]) -> list[Any]:
    try:
        return sorted(values)
    except TypeError:
        return list(values)


def _scalar_parse(a: TNode) -> tuple[str, list[Any] | None]:
    """``type=`` of a collection element (``collection_to_kwargs``)."""
    k = a["kind"]
    if k == "union":
        return "str", None
    if k == "literal":
        vals = a["values"]
        return ("int" if isinstance(vals[0], int) else "str"), _sorted(list(vals))
    if k in ("int", "float", "str"):
        return k, None
    return "custom", None


class KwargsComputer:
    """Computes ``get_kwargs(cls)`` tables for a wheel."""

    def __init__(self, index: SourceIndex, extractor: ClassExtractor, version: str) -> None:
        self.index = index
        self.extractor = extractor
        self.version = version
        self.exported = self._exported_config_names()
        self._read_compute_kwargs()

    def _read_compute_kwargs(self) -> None:
        """Pick the data ``_compute_kwargs`` hard-codes (field-name sets, tip text) from
        the wheel, so a release that extends them is followed automatically.

        Releases before 0.9 have no ``_compute_kwargs``: ``get_kwargs`` does the work
        itself with fewer branches (no dataclass-valued flags, no ``bool | str``
        ``nargs='?'`` form), so those branches are switched on only when the wheel's
        function mentions them.
        """
        self.human_int_fields: set[str] = set()
        self.human_int_or_auto_fields: set[str] = set()
        self.json_tip = ""
        ref = self.index.resolve(COMPUTE_MODULE, "_compute_kwargs")
        if ref.kind != "func" or ref.node is None:
            ref = self.index.resolve(COMPUTE_MODULE, "get_kwargs")
        if ref.kind != "func" or ref.node is None:
            # 0.6-0.7: every flag is an explicit add_argument call; nothing to emulate.
            self.dataclass_branch = self.bool_or_str_branch = self.dict_or_str_branch = False
            self.human_int_doc = self.human_int_or_auto_doc = ""
            return
        text = ast.unparse(ref.node)
        self.dataclass_branch = "is_dataclass" in text
        self.bool_or_str_branch = "const" in text
        self.dict_or_str_branch = "union_dict_and_str" in text
        self._local_sets: dict[str, list[Any]] = {}
        for node in ast.walk(ref.node):
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                name = node.targets[0].id
                try:
                    val = const_eval(self.index, COMPUTE_MODULE, node.value)
                except NotConstant:
                    continue
                if isinstance(val, list):
                    self._local_sets[name] = val
                if name == "human_readable_int_args":
                    self.human_int_fields = set(val)
                elif name == "json_tip":
                    self.json_tip = str(val)
            if isinstance(node, ast.If) and isinstance(node.test, ast.Compare):
                self._human_int_test(node)
        self.human_int_doc = self._doc("human_readable_int")
        self.human_int_or_auto_doc = self._doc("human_readable_int_or_auto")

    def _human_int_test(self, node: ast.If) -> None:
        """``if name == "max_model_len": ...human_readable_int_or_auto`` and the older
        ``if name in {"max_model_len", ...}: ...human_readable_int`` (literal or local set)."""
        t = node.test
        assert isinstance(t, ast.Compare)
        if not (isinstance(t.left, ast.Name) and t.left.id == "name"):
            return
        body = ast.unparse(node.body[0])
        comp = t.comparators[0]
        if (
            isinstance(t.ops[0], ast.Eq)
            and isinstance(comp, ast.Constant)
            and "human_readable_int_or_auto" in body
        ):
            self.human_int_or_auto_fields.add(str(comp.value))
        elif (
            isinstance(t.ops[0], ast.In)
            and "human_readable_int" in body
            and "human_readable_int_or_auto" not in body
        ):
            if isinstance(comp, (ast.Set, ast.List, ast.Tuple)):
                names = [e.value for e in comp.elts if isinstance(e, ast.Constant)]
            elif isinstance(comp, ast.Name):  # ``human_readable_ints = {...}`` (0.10)
                names = self._local_sets.get(comp.id, [])
            else:
                names = []
            self.human_int_fields.update(str(n) for n in names)

    def _doc(self, func: str) -> str:
        ref = self.index.resolve(COMPUTE_MODULE, func)
        if ref.node is None or not isinstance(ref.node, ast.FunctionDef):
            return ""
        return inspect.cleandoc(ast.get_docstring(ref.node, clean=False) or "")

    def _exported_config_names(self) -> set[str]:
        info = self.index.info("vllm.config")
        return set(info.runtime) if info else set()

    def table(self, cls: ClassInfo) -> KwTable:
        out = KwTable(cls.name)
        for f in cls.fields.values():
            if f.initvar:  # dataclasses.fields() does not list InitVars
                continue
            out[f.name] = self.field_kwargs(cls, f)
        return out

    def _default(self, f: FieldInfo) -> Any:
        d = f.default
        if isinstance(d, dict) and "factory" in d and "value" in d:
            return d["value"]
        return d

    def field_kwargs(self, cls: ClassInfo, f: FieldInfo) -> Kwargs:
        kw = Kwargs(f"{cls.name}.{f.name}", default=self._default(f), help=f.doc.strip())
        atoms = hint_atoms(f.type)
        atoms = [
            {"kind": "dict", "key": {"kind": "any"}, "value": {"kind": "any"}}
            if "_dict_subclass" in a
            else a
            for a in atoms
        ]
        kinds = {a["kind"] for a in atoms}
        dataclass_atom = next((a for a in atoms if a["kind"] == "class"), None)
        if dataclass_atom is not None and self.dataclass_branch:
            name = dataclass_atom["name"]
            kw["type"] = TypeFn(f"dataclass:{name}")
            if name in self.exported:
                kw["help"] += (
                    f"\n\nAPI docs: https://docs.vllm.ai/en/v{self.version}"
                    f"/api/vllm/config/#vllm.config.{name}"
                )
            kw["help"] += f"\n\n{self.json_tip}"
        elif self.bool_or_str_branch and kinds == {"bool", "str", "none"} and len(atoms) == 3:
            kw.update(type=TypeFn("bool_or_str"), nargs="?", const=True)
        elif "bool" in kinds:
            kw["action"] = "boolean_optional"
        elif "literal" in kinds:
            vals: list[Any] = []
            for a in atoms:
                if a["kind"] == "literal":
                    vals += [v for v in a["values"] if v not in vals]
            kw["type"] = TypeFn("int" if isinstance(vals[0], int) else "str")
            if "str" in kinds:
                kw["metavar"] = Suggested(tuple(_sorted(vals)))
            else:
                kw["choices"] = _sorted(vals)
        elif kinds & {"tuple", "list", "set"}:
            coll = next(k for k in ("tuple", "list", "set") if k in kinds)
            a = next(x for x in atoms if x["kind"] == coll)
            elem = a["items"][0] if coll == "tuple" else a["item"]
            parse, choices = _scalar_parse(elem)
            if coll == "tuple" and not a["variadic"]:
                kw["nargs"] = len(a["items"])
            else:
                kw["nargs"] = "+"
            kw["type"] = TypeFn(parse, source=None if parse != "custom" else str(elem))
            if choices is not None:
                kw["choices"] = choices
        elif "int" in kinds:
            if f.name in self.human_int_or_auto_fields:
                kw["type"] = TypeFn("human_int_or_auto")
                kw["help"] += "\n\n" + self.human_int_or_auto_doc
            elif f.name in self.human_int_fields:
                kw["type"] = TypeFn("human_int")
                kw["help"] += "\n\n" + self.human_int_doc
            else:
                kw["type"] = TypeFn("int")
        elif "float" in kinds:
            kw["type"] = TypeFn("float")
        elif (
            self.dict_or_str_branch
            and "dict" in kinds
            and ("str" in kinds or any(not _builtin_kind(a) for a in atoms))
        ):
            kw["type"] = TypeFn("dict_or_str", wrapped=True)  # union_dict_and_str
        elif "dict" in kinds:
            kw["type"] = TypeFn("json", wrapped=True)  # parse_type(json.loads)
            kw["help"] += f"\n\n{self.json_tip}"
        elif "str" in kinds or any(not _builtin_kind(a) for a in atoms):
            kw["type"] = TypeFn("str")
        else:
            kw["type"] = TypeFn("custom", source=f"unsupported type {f.annotation}")
        if "none" in kinds and "bool" not in kinds and isinstance(kw.get("type"), TypeFn):
            kw["type"] = replace(kw["type"], optional=True)
            if kw.get("choices"):
                kw["choices"] = [*kw["choices"], None]
        return kw
