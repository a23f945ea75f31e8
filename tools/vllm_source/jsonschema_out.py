"""Render the JSON Schema (draft 2020-12) half of the schema file from the extracted data.

The JSON Schema is deliberately *lenient* where vLLM transforms the value before checking
it (enum names matched case-insensitively, ``type=`` lambdas applied before ``choices``,
``before`` validators): an editor must never flag a config vLLM accepts. The engine does
the precise checks from ``x-vllm``.

A YAML value reaches argparse as ``str(value)`` (lists as several tokens, mappings as
``json.dumps``), so a scalar schema follows the flag's ``parse`` rather than the config
field's Python type.
"""

from __future__ import annotations

import re
from typing import Any

from .typetree import TNode

Schema = dict[str, Any]

# human_readable_int: plain int(), or <number><k|m|g|t> (decimal), or <int><K|M|G|T>
HUMAN_INT_PATTERN = r"^\s*([+-]?\d+|\d+(\.\d+)?[kmgt]|\d+[KMGT])\s*$"
HUMAN_INT_OR_AUTO_PATTERN = r"^\s*([+-]?\d+|\d+(\.\d+)?[kmgt]|\d+[KMGT]|[Aa][Uu][Tt][Oo])\s*$"

_NUMERIC = {"ge": "minimum", "gt": "exclusiveMinimum", "le": "maximum", "lt": "exclusiveMaximum"}


def _is_json_default(v: Any) -> bool:
    return not (isinstance(v, dict) and ("expr" in v or "factory" in v))


def json_default(v: Any) -> tuple[bool, Any]:
    """(has a usable JSON default, value) for a default in x-vllm form."""
    if isinstance(v, dict) and "factory" in v:
        return ("value" in v, v.get("value"))
    return (_is_json_default(v), v)


class SchemaBuilder:
    def __init__(self, classes: dict[str, Any], enums: dict[str, Any]) -> None:
        self.classes = classes
        self.enums = enums

    # -- config-class values (inside JSON) ----------------------------------------------
    def enum_schema(self, name: str) -> Schema:
        """Member names (plus values of int/str-mixin enums) for completion; any other
        string is left to the engine because most vLLM enums are parsed by
        ``Enum[value.upper()]`` validators."""
        e = self.enums[name]
        values: list[Any] = []
        for member, value in e["members"].items():
            usable = isinstance(value, (int, str)) and not isinstance(value, bool)
            if e["mixin"] and usable and value not in values:
                values.append(value)
            if member not in values:
                values.append(member)
        return {"anyOf": [{"enum": values}, {"type": "string"}]}

    def type_schema(self, t: TNode) -> Schema:
        k = t["kind"]
        if k in ("int", "float", "str", "bool", "none", "path"):
            return {
                "type": {
                    "int": "integer",
                    "float": "number",
                    "str": "string",
                    "bool": "boolean",
                    "none": "null",
                    "path": "string",
                }[k]
            }
        if k == "literal":
            return {"enum": list(t["values"])}
        if k in ("list", "set"):
            return {"type": "array", "items": self.type_schema(t["item"])}
        if k == "tuple":
            if t["variadic"]:
                return {"type": "array", "items": self.type_schema(t["items"][0])}
            n = len(t["items"])
            return {
                "type": "array",
                "prefixItems": [self.type_schema(i) for i in t["items"]],
                "items": False,
                "minItems": n,
                "maxItems": n,
            }
        if k == "dict":
            out: Schema = {"type": "object"}
            val = self.type_schema(t["value"])
            if val:
                out["additionalProperties"] = val
            if t["key"]["kind"] == "literal":
                out["propertyNames"] = {"enum": list(t["key"]["values"])}
            return out
        if k == "union":
            return self.union([self.type_schema(o) for o in t["options"]])
        if k == "enum":
            return self.enum_schema(t["name"])
        if k == "class":
            return {"$ref": f"#/$defs/{t['name']}"}
        return {}  # any / unknown

    @staticmethod
    def union(parts: list[Schema]) -> Schema:
        if any(p == {} for p in parts):
            return {}
        if all(set(p) == {"type"} and isinstance(p["type"], str) for p in parts):
            types = sorted({p["type"] for p in parts})
            return {"type": types[0] if len(types) == 1 else types}
        flat: list[Schema] = []
        for p in parts:
            for sub in p["anyOf"] if set(p) == {"anyOf"} else [p]:
                if sub not in flat:
                    flat.append(sub)
        return flat[0] if len(flat) == 1 else {"anyOf": flat}

    @staticmethod
    def constrain(s: Schema, cons: dict[str, Any] | None) -> Schema:
        if not cons:
            return s
        if "anyOf" in s:
            return {**s, "anyOf": [SchemaBuilder.constrain(x, cons) for x in s["anyOf"]]}
        types = s.get("type")
        tl = types if isinstance(types, list) else [types]
        out = dict(s)
        for key, val in cons.items():
            if not isinstance(val, (int, float)) or isinstance(val, bool):
                continue
            if key in _NUMERIC and ("integer" in tl or "number" in tl):
                out[_NUMERIC[key]] = val
            elif key == "multiple_of" and ("integer" in tl or "number" in tl):
                out["multipleOf"] = val
            elif key in ("min_length", "max_length"):
                if "string" in tl:
                    out["minLength" if key == "min_length" else "maxLength"] = val
                if "array" in tl:
                    out["minItems" if key == "min_length" else "maxItems"] = val
        return out

    def field_schema(self, f: dict[str, Any]) -> Schema:
        s = self.constrain(self.type_schema(f["type"]), f.get("constraints"))
        if f.get("validator_input"):
            s = self.union([s, self.type_schema(f["validator_input"])])
        s = dict(s)
        ok, default = json_default(f["default"])
        if ok and not f["required"]:
            s["default"] = default
        if f["doc"]:
            s["description"] = f["doc"]
        if f.get("deprecated"):
            s["deprecated"] = True
        return s

    def class_defs(self) -> dict[str, Schema]:
        out: dict[str, Schema] = {}
        for name, c in self.classes.items():
            props = {fname: self.field_schema(f) for fname, f in c["fields"].items() if f["init"]}
            s: Schema = {"type": "object", "properties": props}
            if c["doc"]:
                s["description"] = c["doc"]
            required = sorted(n for n, f in c["fields"].items() if f["init"] and f["required"])
            if required:
                s["required"] = required
            if c["extra"] == "forbid":
                s["additionalProperties"] = False
            out[name] = s
        return out

    # -- top-level flags (YAML scalars become argv tokens) ---------------------------------
    def _field(self, flag: dict[str, Any]) -> dict[str, Any] | None:
        if not flag["field"]:
            return None
        cls, _, name = flag["field"].partition(".")
        f: dict[str, Any] | None = self.classes.get(cls, {}).get("fields", {}).get(name)
        return f

    def _non_none(self, t: TNode) -> list[TNode]:
        opts = t["options"] if t["kind"] == "union" else [t]
        return [o for o in opts if o["kind"] != "none"]

    def token_schema(self, flag: dict[str, Any]) -> Schema:
        """Schema of one YAML scalar that argparse converts with ``parse``."""
        parse = flag["parse"]
        field = self._field(flag)
        ftype = self._non_none(field["type"]) if field else []
        if flag["choices"] is not None:
            enum = [c for c in flag["choices"] if not isinstance(c, dict)]
            if parse == "custom":  # the type= callable runs before the choices check
                return {"anyOf": [{"enum": enum}, {"type": "string"}]}
            return {"enum": enum}
        if flag["suggested"]:
            return {"anyOf": [{"enum": flag["suggested"]}, {"type": "string"}]}
        if parse == "int":
            return {"type": "integer"}
        if parse == "float":
            return {"type": "number"}
        if parse == "human_int":
            return {
                "anyOf": [{"type": "integer"}, {"type": "string", "pattern": HUMAN_INT_PATTERN}]
            }
        if parse == "human_int_or_auto":
            return {
                "anyOf": [
                    {"type": "integer"},
                    {"type": "string", "pattern": HUMAN_INT_OR_AUTO_PATTERN},
                ]
            }
        if parse == "bool_or_str":
            return {"type": ["boolean", "string"]}
        if parse.startswith("dataclass:"):
            return {"anyOf": [{"$ref": f"#/$defs/{parse.split(':', 1)[1]}"}, {"type": "string"}]}
        if parse in ("json", "dict_or_str"):
            if flag.get("validates_as"):
                return {"anyOf": [{"$ref": f"#/$defs/{flag['validates_as']}"}, {"type": "string"}]}
            dicts = [t for t in ftype if t["kind"] == "dict"]
            if dicts or not field:
                obj = self.type_schema(dicts[0]) if dicts else {"type": "object"}
                if field and field.get("validator_input"):
                    obj = self.union([obj, self.type_schema(field["validator_input"])])
                return self.union([obj, {"type": "string"}])
            return {"type": "string"}  # e.g. a list field parsed with json.loads
        if len(ftype) == 1 and ftype[0]["kind"] == "enum":
            return self.enum_schema(ftype[0]["name"])
        return {"type": ["number", "string"]}  # str / custom: any scalar is str()-ed

    def flag_schema(self, flag: dict[str, Any]) -> Schema:
        action = flag["action"]
        if flag["parse"] == "none":
            s: Schema = {"type": "boolean"}
        else:
            tok = self.token_schema(flag)
            field = self._field(flag)
            if field and flag["parse"] in ("int", "float", "human_int", "human_int_or_auto"):
                tok = self.constrain(tok, field.get("constraints"))
            nargs = flag["nargs"]
            if action == "append":
                # A YAML list becomes ``--flag a b``: only one value reaches this option.
                s = self.union([tok, {"type": "array", "items": tok, "maxItems": 1}])
            elif nargs in ("+", "*"):
                s = self.union([tok, {"type": "array", "items": tok}])
            elif isinstance(nargs, int):
                s = {"type": "array", "items": tok, "minItems": nargs, "maxItems": nargs}
            else:
                s = tok
            if flag["optional"]:
                s = self.union([s, {"type": "null"}])
        s = dict(s)
        ok, default = json_default(flag["default"])
        if ok and default is not None:
            s["default"] = default
        if flag["help"]:
            s["description"] = flag["help"]
        if flag["deprecated"]:
            s["deprecated"] = True
        return s


def key_pattern(name: str) -> str:
    """``compilation-config`` -> ``^compilation[-_]config\\.`` (the part before the first
    dot has ``_`` turned into ``-`` by vLLM)."""
    return "^" + "[-_]".join(re.escape(p) for p in name.split("-")) + r"\."
