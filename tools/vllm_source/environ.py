"""vLLM's environment variables of one release, read from its wheel's `vllm/envs.py` with
`ast` (never imported).

`environment_variables` maps each name to a getter; the getter says how the value is
parsed. What is recognised (anything else is `computed`: read, never judged):

- `str`: `os.getenv(NAME, default)` as is (`str_lower` when lower-cased, `path` through
  `os.path.expanduser`);
- `int`, `float`: `int(os.getenv(...))`, `float(...)` (raises on a value that is not one);
- `bool_int`: `bool(int(os.getenv(NAME, "0")))` (raises on `true`);
- `bool_in`: `os.getenv(...).lower() in ("1", "true")` (anything else is false, never raises);
- `bool_eq`: `os.getenv(...) == "1"`;
- `choices`: `env_with_choices(NAME, default, [..], case_sensitive=...)` (raises
  `Invalid value 'x' for NAME. Valid options: [...]`);
- `list_choices`: `env_list_with_choices`/`env_set_with_choices`, comma-separated
  (raises `Invalid value 'x' in NAME. Valid options: [...]`);
- `int_or_none`: `maybe_convert_int(...)`; `port`: `get_vllm_port` (an int, or a URI error).
"""

from __future__ import annotations

import ast
import re
from typing import Any

from vllm_source.wheel import WheelSource

ENVS = "vllm/envs.py"
INTERFACE = "vllm/platforms/interface.py"
CORE = "vllm/v1/engine/core.py"

GETENV = {"getenv", "get"}
CHOICE_MAKERS = {"env_with_choices": "choices"}
LIST_CHOICE_MAKERS = {"env_list_with_choices", "env_set_with_choices"}
FUNCTIONS = {"get_vllm_port": "port", "maybe_convert_int": "int_or_none"}


def _is_getenv(node: ast.AST, name: str) -> bool:
    """`os.getenv(NAME…)`, `os.environ.get(NAME…)`."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    if node.func.attr not in GETENV or not node.args:
        return False
    first = node.args[0]
    return isinstance(first, ast.Constant) and first.value == name


def _literal(node: ast.expr | None) -> Any:
    if node is None:
        return None
    try:
        return ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return {"expression": ast.unparse(node)}


def _parents(root: ast.AST) -> dict[int, ast.AST]:
    up: dict[int, ast.AST] = {}
    for node in ast.walk(root):
        for child in ast.iter_child_nodes(node):
            up[id(child)] = node
    return up


def _chain(root: ast.expr, name: str) -> tuple[list[str], ast.Call | None]:
    """The operations applied to the first `getenv(NAME)` in `root`, innermost first:
    `int`, `float`, `bool`, `lower`, `strip`, `in:<values>`, `eq:<value>`, `expanduser`,
    `maybe_convert_int`, `other`."""
    call = next((n for n in ast.walk(root) if _is_getenv(n, name)), None)
    if call is None:
        return [], None
    up = _parents(root)
    ops: list[str] = []
    node: ast.AST = call
    while id(node) in up:
        parent = up[id(node)]
        if isinstance(parent, ast.Attribute) and parent.value is node:
            grand = up.get(id(parent))
            if isinstance(grand, ast.Call) and grand.func is parent:
                ops.append(parent.attr)
                node = grand
                continue
            ops.append("other")
            break
        if isinstance(parent, ast.Call) and node in parent.args:
            func = parent.func
            fname = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            ops.append(fname or "other")
            node = parent
            continue
        if isinstance(parent, ast.Compare) and parent.left is node and len(parent.ops) == 1:
            op, right = parent.ops[0], parent.comparators[0]
            value = _literal(right)
            if isinstance(op, ast.In) and isinstance(value, (tuple, list, set)):
                ops.append("in:" + ",".join(sorted(map(str, value))))
            elif isinstance(op, ast.Eq) and isinstance(value, str):
                ops.append("eq:" + value)
            elif isinstance(op, ast.NotEq) and isinstance(value, str):
                ops.append("ne:" + value)
            else:
                ops.append("other")
            node = parent
            continue
        if isinstance(parent, ast.BoolOp | ast.IfExp | ast.Lambda | ast.Return):
            break
        ops.append("other")
        break
    return ops, call


def _kind(ops: list[str]) -> tuple[str, dict[str, Any]]:
    """The parse kind of a chain of operations, and what else it says."""
    core = [op for op in ops if op not in ("strip", "lower", "upper")]
    before = ops[: ops.index(core[0])] if core else ops
    lowered = "lower" in before
    if not core:
        return ("str_lower" if "lower" in ops else "str"), {}
    first = core[0]
    if first == "int":
        rest = core[1:]
        if rest[:1] == ["bool"]:
            return "bool_int", {}
        return "int", {}
    if first == "float":
        return "float", {}
    if first.startswith("in:"):
        return "bool_in", {"true_values": first[3:].split(","), "lowered": bool(lowered)}
    if first.startswith("eq:"):
        return "bool_eq", {"true_value": first[3:], "lowered": bool(lowered)}
    if first.startswith("ne:"):
        return "bool_ne", {"false_value": first[3:], "lowered": bool(lowered)}
    if first == "bool":
        return "bool_nonempty", {}
    if first == "expanduser":
        return "path", {}
    if first == "maybe_convert_int":
        return "int_or_none", {}
    if first == "maybe_convert_bool":
        return "bool_int_or_none", {}
    return "computed", {}


def _choices_entry(call: ast.Call, kind: str) -> dict[str, Any]:
    args = list(call.args)
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    default = args[1] if len(args) > 1 else keywords.get("default")
    choices = args[2] if len(args) > 2 else keywords.get("choices")
    sensitive = args[3] if len(args) > 3 else keywords.get("case_sensitive")
    values = _literal(choices)
    entry: dict[str, Any] = {
        "kind": kind,
        "default": _literal(default),
        "choices": list(values) if isinstance(values, (list, tuple)) else None,
        "case_sensitive": True if sensitive is None else bool(_literal(sensitive)),
    }
    if entry["choices"] is None and choices is not None:
        entry["choices_expression"] = ast.unparse(choices)
    return entry


def _comment(lines: list[str], first: int, last: int) -> str:
    """The comment lines between source lines `first`..`last` (1-based, inclusive), as
    prose; section banners (`# ===== … =====`) are left out."""
    kept: list[str] = []
    for line in lines[first - 1 : last]:
        stripped = line.strip()
        if not stripped.startswith("#"):
            if stripped:
                kept = []
            continue
        text = stripped.lstrip("#").strip()
        if re.fullmatch(r"=+.*=+", text) or text.startswith("--8<--"):
            kept = []
            continue
        kept.append(text)
    return "\n".join(kept).strip()


def _entry(name: str, value: ast.expr, functions: dict[str, ast.FunctionDef]) -> dict:
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        maker = value.func.id
        if maker in CHOICE_MAKERS:
            return _choices_entry(value, "choices")
        if maker in LIST_CHOICE_MAKERS:
            return _choices_entry(value, "list_choices")
        if maker == "get_env_or_set_default":
            return {"kind": "str", "default": {"expression": ast.unparse(value.args[1])}}
    body: ast.expr | None = None
    if isinstance(value, ast.Lambda):
        body = value.body
    elif isinstance(value, ast.Name):
        if value.id in FUNCTIONS:
            return {"kind": FUNCTIONS[value.id], "default": None}
        func = functions.get(value.id)
        if func is not None:
            ops, call = _chain(func, name)
            entry = {"kind": "computed", "default": None, "function": value.id}
            if call is not None and len(call.args) > 1:
                entry["default"] = _literal(call.args[1])
            return entry
    if body is None:
        return {"kind": "computed", "default": None}
    ops, call = _chain(body, name)
    if call is None:
        return {"kind": "computed", "default": None}
    kind, extra = _kind(ops)
    if isinstance(body, ast.BoolOp | ast.IfExp) and kind not in ("int", "float", "bool_int"):
        kind = "computed" if kind.startswith("str") else kind
    default = _literal(call.args[1]) if len(call.args) > 1 else None
    return {"kind": kind, "default": default, **extra}


def _mapping(tree: ast.Module) -> ast.Dict | None:
    for node in tree.body:
        target = None
        if isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        named = isinstance(target, ast.Name) and target.id == "environment_variables"
        if named and isinstance(value, ast.Dict):
            return value
    return None


def _readers(src: WheelSource, names: list[str]) -> dict[str, list[str]]:
    """Each variable's reading modules (`envs.NAME`), outside `envs.py`, first few."""
    found: dict[str, list[str]] = {n: [] for n in names}
    pattern = re.compile(r"envs\.(VLLM_[A-Z0-9_]+|[A-Z][A-Z0-9_]+)\b")
    for path in src.paths():
        if path == ENVS:
            continue
        for match in set(pattern.findall(src.text(path))):
            if match in found and len(found[match]) < 5:
                found[match].append(path)
    return found


def config_fields(src: WheelSource) -> dict[str, dict[str, str]]:
    """Variables a config class reads into one of its fields, with a deprecation warning
    that names the field's flag (`AttentionConfig.__post_init__`:
    `self._set_from_env_if_set("backend", "VLLM_ATTENTION_BACKEND")`, vllm/config/
    attention.py of 0.12-0.14): name → {class, field, source}."""
    found: dict[str, dict[str, str]] = {}
    for path in src.paths():
        if not path.startswith("vllm/config/"):
            continue
        text = src.text(path)
        if "_set_from_env_if_set(" not in text:
            continue
        for cls in ast.walk(ast.parse(text)):
            if not isinstance(cls, ast.ClassDef):
                continue
            for node in ast.walk(cls):
                if not (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "_set_from_env_if_set"
                    and len(node.args) == 2
                ):
                    continue
                field, env = (_literal(arg) for arg in node.args)
                if isinstance(field, str) and isinstance(env, str):
                    found[env] = {
                        "class": cls.name,
                        "field": field,
                        "source": f"{path}:{node.lineno}",
                    }
    return found


def environ_facts(src: WheelSource) -> dict[str, Any]:
    """The `variables` of one release and how vLLM checks the environment."""
    path = src.module_file("vllm.envs")
    if path is None:
        return {"variables": {}}
    text = src.text(path)
    tree = ast.parse(text)
    lines = text.splitlines()
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    mapping = _mapping(tree)
    variables: dict[str, dict[str, Any]] = {}
    if mapping is None:
        return {"variables": {}}
    previous_end = mapping.lineno
    for key, value in zip(mapping.keys, mapping.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            continue
        entry = _entry(key.value, value, functions)
        entry["doc"] = _comment(lines, previous_end + 1, key.lineno - 1)
        entry["source"] = f"{ENVS}:{key.lineno}"
        variables[key.value] = entry
        previous_end = value.end_lineno or key.lineno
    readers = _readers(src, list(variables))
    for name, entry in variables.items():
        entry["read_in"] = readers[name]
    interface = src.text(INTERFACE) if INTERFACE in src.paths() else ""
    validates = "def validate_environ" in interface
    core = src.text(CORE) if CORE in src.paths() else ""
    return {
        "config_fields": config_fields(src),
        "variables": dict(sorted(variables.items())),
        # `Platform.validate_environ`: every `VLLM_*` name of the environment that is not
        # a key of `environment_variables` is logged (or refused with
        # `--fail-on-environ-validation`) when `create_engine_config` runs.
        "validate_environ": _validate_site(interface) if validates else None,
        # `enable_envs_cache()` in the engine core's start evaluates every getter: a value
        # a getter refuses stops every start.
        "read_all_at_start": "enable_envs_cache()" in core,
        "read_all_site": _line_of(core, "enable_envs_cache()", CORE),
    }


def _line_of(text: str, needle: str, path: str) -> str | None:
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line and not line.lstrip().startswith(("from", "import", "#")):
            return f"{path}:{number}"
    return None


def _validate_site(interface: str) -> str | None:
    return _line_of(interface, "Unknown vLLM environment variable detected", INTERFACE)
