"""Assemble the ``x-vllm`` object (flags, classes, enums) for one vLLM wheel."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

from .classes import ClassExtractor, ClassInfo, EnumInfo, FieldInfo
from .interp import (
    ArgCall,
    ClassVal,
    External,
    Interpreter,
    Opaque,
    ParserVal,
    SubparsersVal,
    TypeExpr,
)
from .kwargs import KwargsComputer, Suggested, TypeFn
from .modules import SourceIndex
from .typetree import TNode, TypeResolver, public
from .values import NotConstant, const_eval
from .wheel import WheelSource

# Where ``vllm serve`` builds its parser: the only version-specific fact of the generator.
# 0.7 onwards: ``ServeSubcommand.subparser_init(subparsers)``; 0.6: ``vllm.scripts.main``
# builds the root parser and its ``serve`` sub-parser inline.
SERVE_ENTRY = ("vllm.entrypoints.cli.serve", "ServeSubcommand", "subparser_init")
LEGACY_SERVE_ENTRY = ("vllm.scripts", "main")
PARSER_MODULE, PARSER_CLASS = "vllm.utils.argparse_utils", "FlexibleArgumentParser"

NO_VALUE_ACTIONS = {
    "store_true",
    "store_false",
    "store_const",
    "append_const",
    "count",
    "help",
    "version",
    "boolean_optional",
}


def deprecation_text(text: str, options: list[str]) -> str | None:
    """vLLM's deprecation notice inside a help/doc text, if it has one.

    Two shapes occur: a paragraph starting with "Deprecated" (field docs) and a message
    naming the option before the word "deprecated" (``_X_DEPRECATION_MESSAGE`` helps).
    """
    for para in text.split("\n\n"):
        if re.match(r"(?i)\s*deprecated\b", para):
            return " ".join(para.split())
    low = text.lower()
    idx = low.find("deprecated")
    if idx < 0:
        return None
    for opt in options:
        if opt.startswith("--") and re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", text[:idx]):
            return " ".join(text.split("\n\n")[0].split())
    return None


class Extraction:
    """Everything read from one wheel."""

    def __init__(self, version: str, wheel: Path) -> None:
        self.version = version
        self.src = WheelSource(wheel)
        self.index = SourceIndex(self.src)
        self.types = TypeResolver(self.index)
        self.extractor = ClassExtractor(self.index, self.types)
        self.kwargs = KwargsComputer(self.index, self.extractor, version)
        self.interp = Interpreter(self.index, self.types, self.extractor, self.kwargs)
        self.inverse_prefixes = self._boolean_inverse_prefixes()
        self.parser = self._run_serve()

    def _run_serve(self) -> ParserVal:
        if self.index.resolve(SERVE_ENTRY[0], SERVE_ENTRY[1]).kind == "class":
            subparsers = SubparsersVal()
            self.interp.run_method(*SERVE_ENTRY, [subparsers])
            if len(subparsers.parsers) != 1:
                raise RuntimeError(f"expected one serve parser, got {len(subparsers.parsers)}")
            return subparsers.parsers[0]
        self.interp.run_function(*LEGACY_SERVE_ENTRY, [])
        for sub in self.interp.subparsers:
            for name, parser in zip(sub.names, sub.parsers, strict=True):
                if name == "serve":
                    return parser
        raise RuntimeError("no `serve` sub-parser found")

    def _boolean_inverse_prefixes(self) -> dict[str, str]:
        """``--enable-``/``--disable-`` pairing, if the parser re-registers
        ``BooleanOptionalAction`` (``self.register("action", BooleanOptionalAction, X)``)."""
        ref = self.index.resolve(PARSER_MODULE, PARSER_CLASS)
        if ref.node is None:
            return {}
        for node in ast.walk(ref.node):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "register"
                and len(node.args) == 3
                and isinstance(node.args[0], ast.Constant)
                and node.args[0].value == "action"
                and ast.unparse(node.args[1]).endswith("BooleanOptionalAction")
            ):
                action = self.index.resolve_expr(ref.module, node.args[2])
                if action is None or not isinstance(action.node, ast.ClassDef):
                    return {}
                for st in action.node.body:
                    if isinstance(st, ast.Assign) and ast.unparse(st.targets[0]) == (
                        "_inverse_prefixes"
                    ):
                        try:
                            val = const_eval(self.index, action.module, st.value)
                        except NotConstant:
                            return {}
                        return {str(k): str(v) for k, v in val.items()}
        return {}

    # -- flags ------------------------------------------------------------------------
    def flags(self) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for call in self.parser.calls:
            key, flag = self._flag(call)
            if key in out:
                raise RuntimeError(f"duplicate flag {key}")
            out[key] = flag
        self._check_conflicts(out)
        return out

    def _check_conflicts(self, flags: dict[str, dict[str, Any]]) -> None:
        seen: dict[str, str] = {}
        for key, f in flags.items():
            for opt in [*f["options"], *f["negatives"]]:
                if opt in seen:
                    raise RuntimeError(f"option {opt} registered by {seen[opt]} and {key}")
                seen[opt] = key

    def _action(self, v: Any) -> tuple[str, str | None]:
        if v is None:
            return "store", None
        if isinstance(v, str):
            return v, None
        if isinstance(v, External) and v.qualname.endswith("BooleanOptionalAction"):
            return "boolean_optional", None
        if isinstance(v, ClassVal):
            # A custom argparse.Action subclass: stores one value, with its own __call__.
            return "store", v.ref.short
        return "store", str(v)

    def _json(self, v: Any) -> Any:
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if isinstance(v, (list, tuple)):
            return [self._json(x) for x in v]
        if isinstance(v, dict):
            return {str(k): self._json(x) for k, x in v.items()}
        if isinstance(v, External):
            return {"expr": v.qualname}
        if isinstance(v, Opaque):
            return {"expr": v.text}
        if isinstance(v, TypeExpr):  # its source text, not the AST object's address
            return {"expr": ast.unparse(v.node)}
        return {"expr": str(v)}

    def _flag(self, call: ArgCall) -> tuple[str, dict[str, Any]]:
        opts = [a for a in call.args if isinstance(a, str)]
        kw = call.kwargs
        positional = not opts[0].startswith("-")
        longs = [o for o in opts if o.startswith("--")]
        key = opts[0] if positional else (longs[0] if longs else opts[0]).lstrip("-")
        dest = kw.get("dest") or (opts[0] if positional else key.replace("-", "_"))
        action, action_class = self._action(kw.get("action"))
        tf: TypeFn
        if action in NO_VALUE_ACTIONS:
            tf = TypeFn("none")
        elif kw.get("type") is None:
            tf = TypeFn("str")
        else:
            tf = self.interp.as_type(kw["type"])
        choices: list[Any] | None = None
        suggested: list[Any] | None = None
        dynamic: str | None = None
        ch = kw.get("choices")
        if isinstance(ch, (list, tuple)):
            choices = self._json(list(ch))
        elif isinstance(ch, Opaque):
            dynamic = ch.text
            suggested = self._json(ch.partial) if ch.partial else None
        meta = kw.get("metavar")
        if isinstance(meta, Suggested):
            suggested = self._json(list(meta.values))
        if "default" in kw:
            default = self._json(kw["default"])
        else:
            default = {"store_true": False, "store_false": True}.get(action)
            if action == "help":
                default = {"expr": "argparse.SUPPRESS"}
        help_text = kw.get("help")
        help_text = help_text if isinstance(help_text, str) else None
        deprecated = kw.get("deprecated")
        dep_text = (
            deprecated if isinstance(deprecated, str) else "deprecated" if deprecated else None
        )
        if dep_text is None and help_text:
            dep_text = deprecation_text(help_text, opts)
        negatives: list[str] = []
        if action == "boolean_optional":
            negatives = ["--no-" + o[2:] for o in longs]
            for o in longs:
                for prefix, inverse in self.inverse_prefixes.items():
                    if o.startswith(prefix):
                        negatives.append(inverse + o.removeprefix(prefix))
        nargs = kw.get("nargs")
        flag: dict[str, Any] = {
            "options": opts,
            "dest": dest,
            "field": call.origin,
            "action": action,
            "nargs": nargs if isinstance(nargs, (int, str)) else None,
            "const": self._json(kw.get("const")),
            "parse": tf.parse,
            "optional": tf.optional,
            "choices": choices,
            "suggested": suggested,
            "default": default,
            "help": help_text,
            "deprecated": dep_text,
            "negatives": negatives,
            "source": call.source,
            "group": call.group,
        }
        if tf.parse == "custom":
            flag["parse_source"] = tf.source
        if action_class:
            flag["action_class"] = action_class
        if dynamic is not None:
            flag["choices_dynamic"] = dynamic
        if positional:
            flag["positional"] = True
        validates = self._validates_as(call.origin, tf)
        if validates:
            flag["validates_as"] = validates
        return key, flag

    def _validates_as(self, origin: str | None, tf: TypeFn) -> str | None:
        """Config class a JSON flag is validated against later (not at parse time)."""
        if origin is None or tf.parse.startswith("dataclass:"):
            return None
        f = self.field(origin)
        if f is None:
            return None
        opts = f.type["options"] if f.type["kind"] == "union" else [f.type]
        names = [o["name"] for o in opts if o["kind"] == "class"]
        return names[0] if len(names) == 1 else None

    def field(self, origin: str) -> FieldInfo | None:
        cls, _, name = origin.partition(".")
        ref = self.types.classes.get(cls)
        if ref is None:
            return None
        return self.extractor.extract(ref).fields.get(name)

    # -- classes & enums --------------------------------------------------------------
    def reachable(self, flags: dict[str, dict[str, Any]]) -> tuple[list[ClassInfo], list[EnumInfo]]:
        """Config classes whose fields back a flag, plus every class/enum their fields
        reference (transitively), so that each type tree's names resolve in the file."""
        todo = sorted({f["field"].split(".")[0] for f in flags.values() if f["field"]})
        seen_c: dict[str, ClassInfo] = {}
        seen_e: dict[str, EnumInfo] = {}
        while todo:
            name = todo.pop()
            if name in seen_c:
                continue
            ref = self.types.classes.get(name)
            if ref is None:
                raise RuntimeError(f"class {name} not resolved")
            info = self.extractor.extract(ref)
            seen_c[name] = info
            for f in info.fields.values():
                trees = [f.type] + ([f.validator_input] if f.validator_input else [])
                for t in trees:
                    for node in _walk(t):
                        if node["kind"] == "class" and node["name"] not in seen_c:
                            todo.append(node["name"])
                        if node["kind"] == "enum" and node["name"] not in seen_e:
                            seen_e[node["name"]] = self.extractor.extract_enum(
                                self.types.enums[node["name"]]
                            )
        return (
            [seen_c[k] for k in sorted(seen_c)],
            [seen_e[k] for k in sorted(seen_e)],
        )


def _walk(t: TNode) -> list[TNode]:
    out = [t]
    for k in ("item", "key", "value"):
        if k in t:
            out += _walk(t[k])
    for k in ("items", "options"):
        for sub in t.get(k, []):
            out += _walk(sub)
    return out


def field_json(f: FieldInfo) -> dict[str, Any]:
    out: dict[str, Any] = {
        "annotation": f.annotation,
        "type": public(f.type),
        "default": f.default,
        "required": f.required,
        "init": f.init,
        "constraints": f.constraints or None,
        "doc": f.doc,
        "source": f.source,
    }
    if f.initvar:
        out["initvar"] = True
    dep = deprecation_text(f.doc, [])
    if dep:
        out["deprecated"] = dep
    if f.before_validator:
        out["before_validator"] = f.before_validator
        if f.validator_input is not None:
            out["validator_input"] = public(f.validator_input)
        if f.before_keeps_text:
            out["before_keeps_text"] = True
    if f.none_validator:
        out["none_validator"] = f.none_validator
    return out


def class_json(c: ClassInfo) -> dict[str, Any]:
    return {
        "source": c.source,
        "doc": c.doc,
        "extra_forbid": c.extra_forbid,
        "fields": {n: field_json(f) for n, f in c.fields.items()},
    }


def enum_json(e: EnumInfo) -> dict[str, Any]:
    return {
        "source": e.source,
        "doc": e.doc,
        "value_type": e.value_type,
        "mixin": e.mixin,
        "members": e.members,
    }
