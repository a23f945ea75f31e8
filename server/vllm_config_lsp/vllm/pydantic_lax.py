"""Pydantic's lax JSON validation of vLLM config dataclasses, over positioned values.

vLLM validates JSON-valued flags with `TypeAdapter(Cls).validate_json` (vllm/engine/
arg_utils.py:369). Reproducing pydantic's coercions matters in both directions: `"12"` is a
valid int and `true` a valid int (no false error), `1` is not a valid string. Messages are
pydantic's own (checked against pydantic 2.14 in the oracle venv).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from vllm_config_lsp.document.value_tree import Entry, ValueNode
from vllm_config_lsp.vllm.catalogue import Catalogue, ClassSpec, FieldSpec
from vllm_config_lsp.vllm.flag_values import string_transform

_INT_STR = re.compile(r"^\s*[+-]?\d+(_\d+)*(\.0*)?\s*$")
_FLOAT_STR = re.compile(
    r"^\s*[+-]?((\d[\d_]*)?\.?\d[\d_]*([eE][+-]?\d+)?|inf|infinity|nan)\s*$", re.I
)
_BOOL_STRINGS = {
    "0": False,
    "off": False,
    "f": False,
    "false": False,
    "n": False,
    "no": False,
    "1": True,
    "on": True,
    "t": True,
    "true": True,
    "y": True,
    "yes": True,
}


#: A key the class has no field for, in a release whose class forbids extras (pydantic's
#: error type) or ignores them (not an error: vLLM drops the key and starts).
UNEXPECTED_KEY = "unexpected_keyword_argument"
IGNORED_KEY = "ignored_keyword_argument"
UNKNOWN_KEY_KINDS = frozenset({UNEXPECTED_KEY, IGNORED_KEY})


#: Annotations pydantic checks with `isinstance` (arbitrary types) that no text or JSON value
#: passes: `SupportsHash`, a Protocol with a `compute_hash` method (vllm/config/utils.py:218),
#: the non-dict option of `VllmConfig.additional_config` (`additional-config: x` is refused
#: when `VllmConfig` is built, vllm/config/vllm.py:429).
INSTANCE_ONLY = frozenset({"SupportsHash"})


@dataclass
class FieldIssue:
    """One pydantic error: `kind` is pydantic's error type, `path` the field location."""

    kind: str
    message: str
    path: list[str]
    node: ValueNode | None  # offending value
    entry: Entry | None = None  # for unexpected/missing keys: the member
    class_name: str = ""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _join_choices(values: list[Any]) -> str:
    return _join([repr(v) for v in values])


def _join(shown: list[str]) -> str:
    """pydantic's list of choices: "a, b or c"."""
    if len(shown) <= 1:
        return "".join(shown)
    return ", ".join(shown[:-1]) + " or " + shown[-1]


#: `isinstance` names a before validator may test that a file's value can be (YAML/JSON
#: values are never instances of anything else).
_BUILTIN_TYPES = {
    bool: {"bool", "int"},
    int: {"int"},
    float: {"float"},
    str: {"str"},
    dict: {"dict"},
    list: {"list"},
    type(None): {"None", "NoneType", "type(None)"},
}
_KNOWN_NAMES = set().union(*_BUILTIN_TYPES.values(), {"tuple", "set", "frozenset", "bytes"})


class Validator:
    """`python=True`: the words of pydantic's python mode, for config classes that vLLM
    builds with keyword arguments (`ModelConfig(hf_overrides=...)`); JSON mode otherwise
    (`TypeAdapter(Cls).validate_json` of a JSON-valued flag)."""

    def __init__(self, catalogue: Catalogue, *, python: bool = False) -> None:
        self.catalogue = catalogue
        self.python = python

    def validate_class(self, spec: ClassSpec, node: ValueNode, path: list[str]) -> list[FieldIssue]:
        if not node.is_object:
            return [FieldIssue("dataclass_type", "Input should be an object", path, node)]
        issues: list[FieldIssue] = []
        seen: set[str] = set()
        for entry in node.entries or ():
            seen.add(entry.key)
            field = spec.fields.get(entry.key)
            if field is None or not field.init:
                if spec.extra in ("forbid", "ignore"):
                    issues.append(
                        FieldIssue(
                            UNEXPECTED_KEY if spec.extra == "forbid" else IGNORED_KEY,
                            "Unexpected keyword argument",
                            [*path, entry.key],
                            entry.value,
                            entry,
                            spec.name,
                        )
                    )
                continue
        for name, field in spec.fields.items():
            if field.required and field.init and name not in seen:
                issues.append(
                    FieldIssue(
                        "missing",
                        "Field required",
                        [*path, name],
                        node,
                        None,
                        spec.name,
                    )
                )
        for name in seen:
            field = spec.fields.get(name)
            if field is None or not field.init:
                continue
            value = node.get(name)
            assert value is not None
            for issue in self.validate_field(field, value, [*path, name]):
                issue.class_name = issue.class_name or spec.name
                issues.append(issue)
        return issues

    def validate_field(
        self, field: FieldSpec, node: ValueNode, path: list[str]
    ) -> list[FieldIssue]:
        if field.none_validator and node.value is None:
            return []
        given = node
        names = False
        if field.before_validator:
            passes = field.before_passes
            if passes is None or not set(passes.get("unless") or ()) <= _KNOWN_NAMES:
                if isinstance(node.value, str):
                    # vLLM reshapes text first (enum names in any case, `auto`, comma lists,
                    # shorthand names) and words its own errors: the field's rule module
                    # says them.
                    return []
                names = True  # what the validator makes of a container is not known
            elif _BUILTIN_TYPES.get(type(node.value), set()) & set(passes["unless"]):
                if isinstance(node.value, str):
                    reshape = string_transform(passes.get("str") or "")
                    if reshape is None:
                        return []
                    node = ValueNode(node.start, node.end, reshape(node.value), origin=node.origin)
                else:  # `PassConfig(**value)` and the like: the declared type, names read
                    names = True
        issues = self.validate_type(field.type, node, path, names=names)
        if not issues:
            issues = _constraint_issues(field.constraints, node, path)
        for issue in issues:
            if issue.node is node:
                issue.node = given
        return issues

    def constraint_issues(
        self, field: FieldSpec, node: ValueNode, path: list[str], class_name: str
    ) -> list[FieldIssue]:
        """Bounds alone, for plain flags whose type argparse already enforced."""
        issues = _constraint_issues(field.constraints, node, path)
        for issue in issues:
            issue.class_name = class_name
        return issues

    def text_issues(
        self, field: FieldSpec, node: ValueNode, path: list[str], class_name: str
    ) -> list[FieldIssue]:
        """A plain flag whose argparse type is `str`, given to an enum field the config
        class validates in python lax mode (`--optimization-level O2`, which
        `VllmConfig.optimization_level: OptimizationLevel` refuses: pydantic takes member
        values, `"2"` for 2, never names). Other field types are argparse's business."""
        tree = field.type
        members = self.catalogue.enums.get(tree.get("name", ""), {})
        text = node.value
        if tree.get("kind") != "enum" or field.before_validator or not isinstance(text, str):
            return []
        values = list(members.values())
        if not values:
            return []
        if all(_is_int(v) for v in values):
            if _int_of_text(text) in values:
                return []
            values.sort()
        elif text in values:
            return []
        issue = FieldIssue("enum", f"Input should be {_join_choices(values)}", path, node)
        issue.class_name = class_name
        return [issue]

    def validate_type(
        self, tree: dict[str, Any], node: ValueNode, path: list[str], *, names: bool = False
    ) -> list[FieldIssue]:
        """`names`: enum members may be written by name, in any case (inside a value a
        before validator of unknown shape reshapes first)."""
        kind = tree.get("kind")
        value = node.value
        if kind == "unknown" and str(tree.get("text", "")).startswith("type["):
            # `type[X]` is an is-instance check on classes: no text or JSON value is one
            return [FieldIssue("is_type", "Input should be a type", path, node)]
        if kind == "unknown" and tree.get("text") in INSTANCE_ONLY:
            # an is-instance check on a class that no text or JSON value is an instance of
            message = f"Input should be an instance of {tree['text']}"
            return [FieldIssue("is_instance_of", message, path, node)]
        if kind in ("any", "unknown", None) or tree.get("skip_validation"):
            return []
        if kind == "union":
            options = tree.get("options") or []
            collected: list[FieldIssue] = []
            for option in options:
                found = self.validate_type(option, node, path, names=names)
                if not found:
                    return []
                collected = collected or found
            non_none = [o for o in options if o.get("kind") != "none"]
            if len(non_none) == 1:
                return self.validate_type(non_none[0], node, path, names=names)
            return collected[:1] or [
                FieldIssue("union", "Input does not match any allowed type", path, node)
            ]
        if kind == "none":
            return (
                []
                if value is None
                else [FieldIssue("none_required", "Input should be None", path, node)]
            )
        if kind == "int":
            return _check_int(value, node, path)
        if kind == "float":
            return _check_float(value, node, path)
        if kind in ("str", "path"):
            return (
                []
                if isinstance(value, str)
                else [FieldIssue("string_type", "Input should be a valid string", path, node)]
            )
        if kind == "bool":
            return _check_bool(value, node, path)
        if kind == "literal":
            allowed = tree.get("values") or []
            if any(value == a and type(value) is type(a) for a in allowed):
                return []
            return [
                FieldIssue("literal_error", f"Input should be {_join_choices(allowed)}", path, node)
            ]
        if kind == "enum":
            return self._check_enum(tree, node, path, names)
        if kind == "callable":
            return [FieldIssue("callable_type", "Input should be callable", path, node)]
        if kind in ("list", "set", "tuple"):
            if not node.is_array:
                word = {"list": "list" if self.python else "array", "set": "set", "tuple": "tuple"}[
                    kind
                ]
                return [FieldIssue(f"{kind}_type", f"Input should be a valid {word}", path, node)]
            issues: list[FieldIssue] = []
            fixed = (
                list(tree.get("items") or [])
                if kind == "tuple" and not tree.get("variadic")
                else []
            )
            default = tree.get("item") or {"kind": "any"}
            for index, item in enumerate(node.items or ()):
                item_tree = fixed[index] if index < len(fixed) else default
                issues.extend(self.validate_type(item_tree, item, [*path, str(index)], names=names))
            return issues
        if kind == "dict":
            if not node.is_object:
                word = "a valid dictionary" if self.python else "an object"
                return [FieldIssue("dict_type", f"Input should be {word}", path, node)]
            issues = []
            for entry in node.entries or ():
                issues.extend(
                    self.validate_type(
                        tree.get("value") or {"kind": "any"},
                        entry.value,
                        [*path, entry.key],
                        names=names,
                    )
                )
            return issues
        if kind == "class":
            spec = self.catalogue.classes.get(tree.get("name", ""))
            if spec is None:
                return []
            return self.validate_class(spec, node, path)
        return []

    def lax_values(self, spec: ClassSpec, node: ValueNode) -> None:
        """Put in the tree the numbers and booleans pydantic's lax mode makes of texts (`"512"` in a
        `list[int]`, as every `--a.b+ x,y` item is), so that rules mirroring
        `__post_init__` see what it sees. Call it only on a tree that validated."""
        for entry in node.entries or ():
            field = spec.fields.get(entry.key)
            if field is None or not field.init:
                continue
            if (
                field.before_validator
                and isinstance(entry.value.value, str)
                and not field.before_keeps_text
            ):
                continue  # vLLM reshapes the text itself
            self._lax(field.type, entry.value)
        node.value = {entry.key: entry.value.value for entry in node.entries or ()}

    def _lax(self, tree: dict[str, Any], node: ValueNode) -> None:
        kind = tree.get("kind")
        if kind == "union":
            options = [o for o in tree.get("options") or () if o.get("kind") != "none"]
            if len(options) == 1:  # with several, pydantic's smart mode may keep the text
                self._lax(options[0], node)
        elif kind in ("int", "float") and isinstance(node.value, str):
            number = _number_of_text(node.value, kind)
            if number is not None:
                node.value = number
        elif kind == "bool" and isinstance(node.value, str):
            # `"False"` is False to an after-validator (`disable_any_whitespace`, VC524)
            node.value = _BOOL_STRINGS.get(node.value.strip().lower(), node.value)
        elif kind in ("list", "set", "tuple") and node.items is not None:
            fixed = list(tree.get("items") or []) if kind == "tuple" else []
            default = tree.get("item") or {"kind": "any"}
            for index, item in enumerate(node.items):
                self._lax(fixed[index] if index < len(fixed) else default, item)
            node.value = [item.value for item in node.items]
        elif kind == "dict" and node.entries is not None:
            for entry in node.entries:
                self._lax(tree.get("value") or {"kind": "any"}, entry.value)
            node.value = {entry.key: entry.value.value for entry in node.entries}
        elif kind == "class" and node.entries is not None:
            spec = self.catalogue.classes.get(tree.get("name", ""))
            if spec is not None:
                self.lax_values(spec, node)

    def _check_enum(
        self, tree: dict[str, Any], node: ValueNode, path: list[str], names: bool
    ) -> list[FieldIssue]:
        """Enum fields: pydantic takes member values (and, for int members, the text of
        one, as lax mode does); a before validator of unknown shape may take member names
        in any case (`names`). A rule module may say it in the field's own words."""
        members = self.catalogue.enums.get(tree.get("name", ""), {})
        value = node.value
        if not members:
            return []
        if isinstance(value, str) and names:
            if value.upper() in {name.upper() for name in members}:
                return []
            valid = ", ".join(members)
            return [
                FieldIssue("enum", f"Invalid value {value!r}; valid names: {valid}", path, node)
            ]
        # pydantic's lax enum validator looks the input up by equality: `True` is the member
        # 1 and `1.0` too (`compilation-config.mode: true` is STOCK_TORCH_COMPILE; seed 24)
        if any(value == v for v in members.values()):
            return []
        if isinstance(value, str) and _int_of_text(value) in members.values():
            return []
        ordered = sorted(
            members.items(),
            key=(lambda item: item[1]) if all(_is_int(v) for v in members.values()) else _repr_of,
        )
        values = [_python_value(v) for _, v in ordered]
        by_name = _join([name for name, _ in ordered])
        # pydantic's words list the values; YAML files write the names, which vLLM takes
        # only where a before validator reads them
        message = f"Input should be {_join_choices(values)}"
        if names or not isinstance(value, str):
            message += f", or a name: {by_name}"
        return [FieldIssue("enum", message, path, node)]


def _repr_of(item: tuple[str, Any]) -> str:
    return repr(item[1])


def _python_value(value: Any) -> Any:
    """An enum member's value as Python prints it: a JSON array in the catalogue was a
    tuple in vLLM (`CUDAGraphMode.FULL_DECODE_ONLY = (FULL, NONE)`; lists are unhashable)."""
    return tuple(map(_python_value, value)) if isinstance(value, list) else value


def _int_of_text(text: str) -> int | None:
    """The integer pydantic's lax mode reads from `text` (`" 2"`, `"2.0"`, `"1_0"`), or None.
    Past 20 digits no enum member matches, and `int()`/`float()` would raise or overflow."""
    if not _INT_STR.match(text):
        return None
    digits = text.strip().replace("_", "").split(".")[0]
    return int(digits) if len(digits.lstrip("+-")) <= 20 else None


def _number_of_text(text: str, kind: str) -> int | float | None:
    """The int or float pydantic reads from a text that validated as one."""
    if kind == "int":
        return _int_of_text(text)
    try:
        return float(text.strip().replace("_", ""))
    except ValueError:
        return None


def _check_int(value: Any, node: ValueNode, path: list[str]) -> list[FieldIssue]:
    if isinstance(value, bool) or _is_int(value):
        return []
    if isinstance(value, float):
        if not math.isfinite(value):
            return [FieldIssue("finite_number", "Input should be a finite number", path, node)]
        if value.is_integer():
            return []
        return [
            FieldIssue(
                "int_from_float",
                "Input should be a valid integer, got a number with a fractional part",
                path,
                node,
            )
        ]
    if isinstance(value, str):
        if _INT_STR.match(value):
            return []
        return [
            FieldIssue(
                "int_parsing",
                "Input should be a valid integer, unable to parse string as an integer",
                path,
                node,
            )
        ]
    return [FieldIssue("int_type", "Input should be a valid integer", path, node)]


def _check_float(value: Any, node: ValueNode, path: list[str]) -> list[FieldIssue]:
    if isinstance(value, (bool, int, float)):
        return []
    if isinstance(value, str):
        if _FLOAT_STR.match(value):
            return []
        return [
            FieldIssue(
                "float_parsing",
                "Input should be a valid number, unable to parse string as a number",
                path,
                node,
            )
        ]
    return [FieldIssue("float_type", "Input should be a valid number", path, node)]


def _check_bool(value: Any, node: ValueNode, path: list[str]) -> list[FieldIssue]:
    if isinstance(value, bool):
        return []
    if _is_int(value) and value in (0, 1):
        return []
    if isinstance(value, float) and value in (0.0, 1.0):
        return []
    if isinstance(value, str) and value.strip().lower() in _BOOL_STRINGS:
        return []
    if isinstance(value, (int, float, str)):
        return [
            FieldIssue(
                "bool_parsing",
                "Input should be a valid boolean, unable to interpret input",
                path,
                node,
            )
        ]
    return [FieldIssue("bool_type", "Input should be a valid boolean", path, node)]


def _number(value: Any) -> int | float | None:
    """The number a bound is compared with; an int stays exact (a 400-digit one has no
    float, and pydantic compares ints as ints)."""
    if isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        try:
            return float(value.replace("_", ""))
        except ValueError:
            return None
    return None


def _fmt(limit: Any) -> str:
    return str(limit)


def _constraint_issues(
    constraints: dict[str, Any], node: ValueNode, path: list[str]
) -> list[FieldIssue]:
    """`Field(gt=…, ge=…, …)`, applied after the type (pydantic's order)."""
    if not constraints or node.value is None:
        return []
    value = node.value
    if "min_length" in constraints and isinstance(value, (list, str, dict)):
        minimum = constraints["min_length"]
        if len(value) < minimum:
            noun = (
                "List"
                if isinstance(value, list)
                else ("String" if isinstance(value, str) else "Dictionary")
            )
            unit = "item" if minimum == 1 else "items"
            if isinstance(value, str):
                unit = "character" if minimum == 1 else "characters"
            return [
                FieldIssue(
                    "too_short",
                    f"{noun} should have at least {minimum} {unit} after validation, "
                    f"not {len(value)}",
                    path,
                    node,
                )
            ]
    number = _number(value)
    if number is None:
        return []
    checks: tuple[tuple[str, Callable[[int | float], bool], str], ...] = (
        ("gt", lambda lim: number > lim, "greater than"),
        ("ge", lambda lim: number >= lim, "greater than or equal to"),
        ("lt", lambda lim: number < lim, "less than"),
        ("le", lambda lim: number <= lim, "less than or equal to"),
    )
    for key, ok, words in checks:
        if key in constraints and constraints[key] is not None:
            limit = constraints[key]
            if not ok(limit):  # int against float compares exactly, without overflow
                kind = {
                    "gt": "greater_than",
                    "ge": "greater_than_equal",
                    "lt": "less_than",
                    "le": "less_than_equal",
                }[key]
                return [FieldIssue(kind, f"Input should be {words} {_fmt(limit)}", path, node)]
    if constraints.get("multiple_of"):
        step = constraints["multiple_of"]
        # int % float converts the int to a float, which overflows past 308 digits
        exact = isinstance(number, int) and not isinstance(step, int)
        if exact:  # rare (a float step): `fractions` and its regex are not loaded at start
            from fractions import Fraction
        if step and (Fraction(number) % Fraction(step) if exact else number % step):
            return [
                FieldIssue(
                    "multiple_of",
                    f"Input should be a multiple of {_fmt(constraints['multiple_of'])}",
                    path,
                    node,
                )
            ]
    return []
