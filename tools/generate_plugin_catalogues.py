#!/usr/bin/env python3
"""Generate `schemas/plugins/<plugin>-<version>.json`: what each vLLM platform plugin
release adds to vLLM, read from its wheel with `ast` (the plugin is never imported).

    python tools/generate_plugin_catalogues.py            # every release in RELEASES
    python tools/generate_plugin_catalogues.py --check    # exit 1 when a file is stale
    python tools/generate_plugin_catalogues.py --plugin vllm-ascend --version 0.23.0

The wheels come from `pip download <plugin>==<version> --no-deps --only-binary=:all:`
(cached in ~/.cache/vllm-config-lsp/wheels/plugins). Each file has:

* `registers`: the names the plugin's registration calls add, each with its source line:
  `quantization` (`register_quantization_config(NAME)`), `kv_connectors`
  (`KVConnectorFactory.register_connector("NAME", …)`), `attention_backends`
  (`register_backend(AttentionBackendEnum.NAME, …)`), `models`
  (`ModelRegistry.register_model("Arch", …)`; `models_open` when an architecture is
  computed), `tool_parsers`/`reasoning_parsers` (`ToolParserManager.register_module(…)`,
  `ReasoningParserManager.register_module(…)`), `custom_ops` (`CustomOp.register_oot`);
* `additional_config`: the keys the plugin reads from `--additional-config`
  (`additional_config.get("key", default)`, `additional_config["key"]`,
  `_get_config_value(additional_config, "key", "ENV", …)`), with the JSON type of the
  default, the default, the environment variable it falls back to, and `keys` of the
  sections read into a class (`Section(additional_config.get("k", {}))`,
  `Section(**…)`); `unknown` says what the plugin does with a key it does not read
  (`ignored`, or `refused` with the line that raises);
* `platform`: the platform class (`device_name`, `supported_quantization` with its line,
  which vLLM's `Platform.verify_quantization` enforces), and the raises of its
  `check_and_update_config` (message and line, for reference);
* `environment`: the variables of the plugin's `envs.py` (`env_variables = {…}`);
* `serve`: the `vllm serve` flags the plugin's own serve sub-command adds (vllm-omni's
  `OmniConfig` group: option strings, action, type, choices, default, help, line, and
  `if_new` where a `try: … except argparse.ArgumentError` adds it only when vLLM has no
  such flag) and the `switch`, the word whose presence in `sys.argv` runs that command
  instead of vLLM's (`if "--omni" not in sys.argv:`);
* `vllm`: the vLLM release the plugin release is built for: its `Requires-Dist: vllm` when
  the metadata pins one, else the release its code compares against
  (`vllm_version_is("X")`, as vllm-ascend's versioning policy states: plugin X.Y.Z
  supports vLLM X.Y.Z), and how that was found.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vllm_source.warning_sites import f_string_text

ROOT = Path(__file__).resolve().parent.parent
GENERATOR = "tools/generate_plugin_catalogues.py"
OUT = ROOT / "schemas" / "plugins"
CACHE = Path("~/.cache/vllm-config-lsp/wheels/plugins").expanduser()

#: plugin → (import package, releases catalogued, the image repositories that ship it).
#: vllm-ascend: the newest release with a wheel here, and one per vLLM minor the project
#: catalogues (0.23.0.post1 ships no wheel); tpu-inference is the TPU backend vLLM's TPU
#: platform loads (the `vllm-tpu` distribution is vLLM itself built for TPU).
RELEASES: dict[str, tuple[str, tuple[str, ...]]] = {
    "vllm-ascend": ("vllm_ascend", ("0.11.0", "0.13.0", "0.18.0", "0.23.0")),
    "tpu-inference": ("tpu_inference", ("0.32.0",)),
    "vllm-spyre": ("vllm_spyre", ("1.10.0",)),
    "vllm-rbln": ("vllm_rbln", ("0.12.0",)),
    "vllm-kunlun": ("vllm_kunlun", ("0.11.1",)),
    # vLLM delegates `vllm serve … --omni` to it from vLLM 0.30.0 on (`maybe_run_omni`).
    "vllm-omni": ("vllm_omni", ("0.30.0",)),
}


# -- the wheel -----------------------------------------------------------------------------
def fetch(plugin: str, version: str, cache: Path = CACHE) -> Path:
    stem = plugin.replace("-", "_")
    hits = sorted(cache.glob(f"{stem}-{version}-*.whl")) if cache.is_dir() else []
    if hits:
        return hits[0]
    cache.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:"]
    subprocess.run([*cmd, f"{plugin}=={version}", "-d", str(cache)], check=True)
    hits = sorted(cache.glob(f"{stem}-{version}-*.whl"))
    if not hits:
        raise FileNotFoundError(f"pip gave no {plugin} {version} wheel in {cache}")
    return hits[0]


@dataclass
class Wheel:
    package: str
    files: dict[str, str] = field(default_factory=dict)
    metadata: str = ""
    entry_points: str = ""

    @classmethod
    def read(cls, path: Path, package: str) -> Wheel:
        wheel = cls(package)
        with zipfile.ZipFile(path) as zf:
            for name in zf.namelist():
                if name.startswith(f"{package}/") and name.endswith(".py"):
                    wheel.files[name] = zf.read(name).decode("utf-8", errors="replace")
                elif name.endswith(".dist-info/METADATA"):
                    wheel.metadata = zf.read(name).decode("utf-8", errors="replace")
                elif name.endswith(".dist-info/entry_points.txt"):
                    wheel.entry_points = zf.read(name).decode("utf-8", errors="replace")
        return wheel

    @property
    def version(self) -> str:
        found = re.search(r"^Version:\s*(\S+)", self.metadata, re.MULTILINE)
        return found.group(1) if found else ""

    def trees(self) -> Iterator[tuple[str, ast.Module]]:
        """Each module's tree; a private sub-package's (`_310p/`, a device variant) after the
        others, so that a name registered in both is cited at the main line."""
        private = re.compile(r"/_[^_/][^/]*/")
        for path in sorted(self.files, key=lambda p: (bool(private.search(p)), p)):
            if "/tests/" in path or path.startswith(f"{self.package}/tests/"):
                continue
            try:
                yield path, ast.parse(self.files[path], filename=path)
            except SyntaxError:
                continue


# -- constants -----------------------------------------------------------------------------
def module_constants(tree: ast.Module) -> dict[str, Any]:
    """Module-level `NAME = <literal>` assignments."""
    found: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            try:
                value = ast.literal_eval(node.value)
            except (ValueError, SyntaxError, TypeError, RecursionError):
                continue
            for target in targets:
                if isinstance(target, ast.Name):
                    found[target.id] = value
    return found


class Constants:
    """String constants by name: the module's own first, then a name only one module of
    the package defines (`from vllm_ascend.utils import ASCEND_QUANTIZATION_METHOD`)."""

    def __init__(self, trees: list[tuple[str, ast.Module]]) -> None:
        self.by_module = {path: module_constants(tree) for path, tree in trees}
        everywhere: dict[str, set[str]] = {}
        self.values: dict[str, Any] = {}
        for constants in self.by_module.values():
            for name, value in constants.items():
                everywhere.setdefault(name, set()).add(repr(value))
                self.values[name] = value
        self.unique = {n for n, reprs in everywhere.items() if len(reprs) == 1}

    def string(self, node: ast.AST | None, path: str) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            own = self.by_module.get(path, {})
            value = own.get(node.id, self.values.get(node.id) if node.id in self.unique else None)
            return value if isinstance(value, str) else None
        return None


# -- registrations -------------------------------------------------------------------------
def _callee(node: ast.Call) -> tuple[str | None, str]:
    """(the object a method is called on, the function's name)."""
    func = node.func
    if isinstance(func, ast.Attribute):
        owner = func.value
        if isinstance(owner, ast.Name):
            return owner.id, func.attr
        if isinstance(owner, ast.Attribute):
            return owner.attr, func.attr
        return None, func.attr
    if isinstance(func, ast.Name):
        return None, func.id
    return None, ""


def _names(node: ast.Call, constants: Constants, path: str) -> list[str]:
    """The name arguments of a parser registration: positional or `name=`, one or a list."""
    arg = node.args[0] if node.args else None
    for keyword in node.keywords:
        if keyword.arg == "name":
            arg = keyword.value
    if isinstance(arg, ast.List | ast.Tuple):
        return [n for n in (constants.string(e, path) for e in arg.elts) if n]
    name = constants.string(arg, path)
    return [name] if name else []


def _dict_keys(function: ast.AST, variable: str) -> list[str]:
    """The string keys a function puts in a dict variable (`D = {…}`, `D.update({…})`)."""
    keys: list[str] = []
    for node in ast.walk(function):
        literal = None
        if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Dict):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == variable for t in targets):
                literal = node.value
        if isinstance(node, ast.Call) and _callee(node) == (variable, "update") and node.args:
            literal = node.args[0] if isinstance(node.args[0], ast.Dict) else None
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
            target = node.targets[0]
            named = isinstance(target.value, ast.Name) and target.value.id == variable
            key = target.slice
            if named and isinstance(key, ast.Constant) and isinstance(key.value, str):
                keys.append(key.value)
        if literal is not None:
            keys += [k.value for k in literal.keys if isinstance(k, ast.Constant)]
    return keys


def _loop_dict(tree: ast.Module, call: ast.Call) -> str | None:
    """`for name, op in D.items(): CustomOp.register_oot(…, name=name)`: D."""
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and any(n is call for n in ast.walk(node)):
            it = node.iter
            func = it.func if isinstance(it, ast.Call) else None
            if isinstance(func, ast.Attribute) and func.attr == "items":
                return func.value.id if isinstance(func.value, ast.Name) else None
    return None


def registrations(trees: list[tuple[str, ast.Module]], constants: Constants) -> dict[str, Any]:
    out: dict[str, dict[str, str]] = {
        key: {}
        for key in (
            "quantization",
            "kv_connectors",
            "attention_backends",
            "models",
            "tool_parsers",
            "reasoning_parsers",
            "custom_ops",
        )
    }
    models_open: list[str] = []

    def add(kind: str, name: str | None, path: str, node: ast.AST) -> None:
        if name:
            out[kind].setdefault(name, f"{path}:{getattr(node, 'lineno', 0)}")

    for path, tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            owner, name = _callee(node)
            first = node.args[0] if node.args else None
            if name == "register_quantization_config":
                add("quantization", constants.string(first, path), path, node)
            elif name == "register_connector" and owner == "KVConnectorFactory":
                add("kv_connectors", constants.string(first, path), path, node)
            elif name == "register_backend" and isinstance(first, ast.Attribute):
                if isinstance(first.value, ast.Name) and first.value.id == "AttentionBackendEnum":
                    add("attention_backends", first.attr, path, node)
            elif name == "register_model" and owner == "ModelRegistry":
                arch = constants.string(first, path)
                if arch is None:
                    models_open.append(f"{path}:{node.lineno}")
                add("models", arch, path, node)
            elif name in ("register_module", "register_lazy_module") and owner in (
                "ToolParserManager",
                "ReasoningParserManager",
            ):
                kind = "tool_parsers" if owner == "ToolParserManager" else "reasoning_parsers"
                for parser in _names(node, constants, path):
                    add(kind, parser, path, node)
            elif name == "register_oot" and owner == "CustomOp":
                op = None
                for keyword in node.keywords:
                    if keyword.arg == "name":
                        op = keyword.value
                text = constants.string(op, path)
                if text is not None:
                    add("custom_ops", text, path, node)
                elif isinstance(op, ast.Name):
                    variable = _loop_dict(tree, node)
                    for key in _dict_keys(tree, variable) if variable else []:
                        add("custom_ops", key, path, node)
    registered: dict[str, Any] = {k: dict(sorted(v.items())) for k, v in out.items()}
    if models_open:
        registered["models_open"] = sorted(models_open)
    return registered


# -- additional_config ---------------------------------------------------------------------
def _json_type(value: Any) -> str | None:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list | tuple):
        return "array"
    return None


_ANNOTATIONS = {"bool": "boolean", "int": "integer", "float": "number", "str": "string"}
_ANNOTATIONS.update({"dict": "object", "list": "array"})


def _literal(node: ast.AST | None) -> tuple[bool, Any]:
    if node is None:
        return False, None
    try:
        return True, ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, RecursionError):
        return False, None


def _is_additional(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id == "additional_config"
    return isinstance(node, ast.Attribute) and node.attr == "additional_config"


def _entry(default: ast.AST | None, path: str, line: int, env: str | None = None) -> dict:
    known, value = _literal(default)
    entry: dict[str, Any] = {"source": f"{path}:{line}"}
    kind = _json_type(value) if known else None
    if kind is not None:
        entry["type"] = kind
    if known and (value is None or kind is not None):
        entry["default"] = list(value) if isinstance(value, tuple) else value
    if env is not None:
        entry["env"] = env
    return entry


def _reads(node: ast.AST, receiver: Any) -> tuple[str, ast.AST | None, str | None] | None:
    """(key, default, fallback variable) when `node` reads a key of a dict `receiver`
    matches: `.get("k", d)`, `["k"]`, `_get_config_value(d, "k", "ENV", …)`."""
    func = node.func if isinstance(node, ast.Call) else None
    if isinstance(node, ast.Call) and isinstance(func, ast.Attribute) and func.attr == "get":
        key = node.args[0] if node.args and receiver(func.value) else None
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return key.value, node.args[1] if len(node.args) > 1 else None, None
    if isinstance(node, ast.Call) and _callee(node)[1] == "_get_config_value":
        args = node.args
        if len(args) >= 3 and receiver(args[0]) and isinstance(args[1], ast.Constant):
            env = args[2].value if isinstance(args[2], ast.Constant) else None
            return str(args[1].value), None, env if isinstance(env, str) else None
    if isinstance(node, ast.Subscript) and receiver(node.value):
        key = node.slice
        return (
            (key.value, None, None)
            if isinstance(key, ast.Constant) and isinstance(key.value, str)
            else None
        )
    return None


def _classes(trees: list[tuple[str, ast.Module]]) -> dict[str, tuple[str, ast.ClassDef]]:
    found: dict[str, tuple[str, ast.ClassDef]] = {}
    for path, tree in trees:
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, (path, node))
    return found


def _init(cls: ast.ClassDef) -> ast.FunctionDef | None:
    for node in cls.body:
        if isinstance(node, ast.FunctionDef) and node.name == "__init__":
            return node
    return None


def _section(path: str, cls: ast.ClassDef, index: int | None) -> dict[str, Any] | None:
    """The keys a section class reads: its `__init__`'s parameter at `index` read as a dict,
    or (index None: `Section(**d)`) its keyword parameters; what it does with others."""
    init = _init(cls)
    if init is None:
        return None
    params = init.args.args[1:]
    keys: dict[str, Any] = {}
    unknown: dict[str, str] = {"unknown": "ignored"}
    if index is None:
        defaults = init.args.defaults
        offset = len(params) - len(defaults)
        for at, param in enumerate(params):
            default = defaults[at - offset] if at >= offset else None
            entry = _entry(default, path, param.lineno)
            annotation = getattr(param.annotation, "id", None)
            if "type" not in entry and annotation in _ANNOTATIONS:
                entry["type"] = _ANNOTATIONS[annotation]
            keys[param.arg] = entry
        kwargs = init.args.kwarg.arg if init.args.kwarg else None
        if kwargs is None:
            unknown = {"unknown": "refused", "refusal": f"{path}:{init.lineno}"}
        else:
            keys.update(_dict_reads(init, lambda n, k=kwargs: _is_name(n, k), path))
        return {"keys": keys, **unknown}
    if index >= len(params):
        return None
    name = params[index].arg
    keys.update(_dict_reads(init, lambda n: _is_name(n, name), path))
    for node in cls.body:  # `_defaults = {…}` and a loop that raises on any other key
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            known, value = _literal(node.value)
            if known and isinstance(value, dict):
                for key, default in value.items():
                    entry: dict[str, Any] = {"source": f"{path}:{node.lineno}"}
                    kind = _json_type(default)
                    if kind is not None:
                        entry["type"] = kind
                    entry["default"] = default
                    keys.setdefault(str(key), entry)
    for loop in ast.walk(init):
        if isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call):
            it = loop.iter.func
            if isinstance(it, ast.Attribute) and it.attr == "items" and _is_name(it.value, name):
                for raised in ast.walk(loop):
                    if isinstance(raised, ast.Raise):
                        unknown = {"unknown": "refused", "refusal": f"{path}:{raised.lineno}"}
                        break
    return {"keys": dict(sorted(keys.items())), **unknown} if keys else None


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _dict_reads(function: ast.AST, receiver: Any, path: str) -> dict[str, Any]:
    keys: dict[str, Any] = {}
    for node in ast.walk(function):
        read = _reads(node, receiver)
        if read is not None:
            key, default, env = read
            entry = _entry(default, path, getattr(node, "lineno", 0), env)
            keys.setdefault(key, entry)
            if "type" not in keys[key] and "type" in entry:
                keys[key] = entry
    return keys


def additional_config(trees: list[tuple[str, ast.Module]]) -> dict[str, Any]:
    keys: dict[str, Any] = {}
    classes = _classes(trees)
    for path, tree in trees:
        for key, entry in _dict_reads(tree, _is_additional, path).items():
            if key not in keys or ("type" not in keys[key] and "type" in entry):
                keys[key] = entry
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef):
                _sections(function, path, classes, keys)
    return {"keys": dict(sorted(keys.items())), "unknown": "ignored"}


def _sections(
    function: ast.FunctionDef,
    path: str,
    classes: dict[str, tuple[str, ast.ClassDef]],
    keys: dict[str, Any],
) -> None:
    """`sub = additional_config.get("k", {})` then `Section(sub)` or `Section(**sub)`."""
    variables: dict[str, str] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            read = _reads(node.value, _is_additional)
            if isinstance(target, ast.Name) and read is not None:
                variables[target.id] = read[0]
    for node in ast.walk(function):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        found = classes.get(node.func.id)
        if found is None:
            continue
        for index, arg in enumerate(node.args):
            if isinstance(arg, ast.Name) and arg.id in variables:
                section = _section(found[0], found[1], index)
                if section is not None and variables[arg.id] in keys:
                    keys[variables[arg.id]].update(section)
        for keyword in node.keywords:
            value = keyword.value
            if keyword.arg is None and isinstance(value, ast.Name) and value.id in variables:
                section = _section(found[0], found[1], None)
                if section is not None and variables[value.id] in keys:
                    keys[variables[value.id]].update(section)


# -- the platform --------------------------------------------------------------------------
def _render(node: ast.AST | None) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return f_string_text(node)
    return "" if node is None else ast.unparse(node)


def platform(trees: list[tuple[str, ast.Module]], constants: Constants) -> dict[str, Any] | None:
    for path, tree in trees:
        for cls in tree.body:
            if not isinstance(cls, ast.ClassDef):
                continue
            bases = {getattr(b, "id", getattr(b, "attr", "")) for b in cls.bases}
            if not bases & {"Platform", "CpuPlatform", "CudaPlatformBase"}:
                continue
            out: dict[str, Any] = {"class": f"{path}:{cls.lineno} {cls.name}"}
            for node in cls.body:
                target = node.target if isinstance(node, ast.AnnAssign) else None
                if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                    target = node.targets[0]
                if not isinstance(target, ast.Name) or node.value is None:  # type: ignore[union-attr]
                    continue
                value = node.value  # type: ignore[union-attr]
                if target.id in ("device_name", "device_type", "dispatch_key"):
                    text = constants.string(value, path)
                    if text is not None:
                        out[target.id] = text
                if target.id == "supported_quantization" and isinstance(value, ast.List):
                    names = [constants.string(e, path) for e in value.elts]
                    out["supported_quantization"] = {
                        "methods": [n for n in names if n],
                        "source": f"{path}:{node.lineno}",
                    }
            raises = []
            for node in cls.body:
                if isinstance(node, ast.FunctionDef) and node.name == "check_and_update_config":
                    for raised in ast.walk(node):
                        if isinstance(raised, ast.Raise) and isinstance(raised.exc, ast.Call):
                            message = " ".join(_render(a) for a in raised.exc.args)
                            raises.append({"message": message, "source": f"{path}:{raised.lineno}"})
            out["check_and_update_config_raises"] = raises
            return out
    return None


# -- environment ---------------------------------------------------------------------------
def environment(wheel: Wheel) -> dict[str, Any]:
    path = f"{wheel.package}/envs.py"
    if path not in wheel.files:
        return {}
    tree = ast.parse(wheel.files[path])
    out: dict[str, Any] = {}
    for node in ast.walk(tree):
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        if not isinstance(value, ast.Dict):
            continue
        for key, getter in zip(value.keys, value.values, strict=True):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                continue
            entry: dict[str, Any] = {"source": f"{path}:{key.lineno}"}
            for call in ast.walk(getter):
                if isinstance(call, ast.Call) and _callee(call)[1] in ("getenv", "get"):
                    if len(call.args) > 1:
                        known, default = _literal(call.args[1])
                        if known:
                            entry["default"] = default
                    break
            out[key.value] = entry
    return dict(sorted(out.items()))


# -- serve flags ---------------------------------------------------------------------------
_TYPES = {"str": "str", "int": "int", "float": "float"}
_ACTIONS = {"store_true", "store_false", "store_const", "append", "count"}


def _flag(call: ast.Call, path: str, if_new: bool) -> tuple[str, dict[str, Any]] | None:
    options = [
        a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
    ]
    longs = [o for o in options if o.startswith("--")]
    if not longs:
        return None
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    action = "store"
    raw_action = keywords.get("action")
    if isinstance(raw_action, ast.Constant) and raw_action.value in _ACTIONS:
        action = raw_action.value
    elif isinstance(raw_action, ast.Attribute) and raw_action.attr == "BooleanOptionalAction":
        action = "boolean_optional"
    kind = keywords.get("type")
    if kind is None:
        parse = "str"
    elif isinstance(kind, ast.Name) and kind.id in _TYPES:
        parse = _TYPES[kind.id]
    elif isinstance(kind, ast.Attribute) and kind.attr == "loads":
        parse = "json"
    else:
        parse = "custom"  # the plugin's own function: its values are not judged
    name = longs[0][2:]
    entry: dict[str, Any] = {
        "options": options,
        "dest": name.replace("-", "_"),
        "action": action,
        "parse": parse,
        "source": f"{path}:{call.lineno}",
    }
    if action == "boolean_optional":
        entry["negatives"] = ["--no-" + o[2:] for o in longs]
    for key in ("default", "choices", "nargs"):
        known, value = _literal(keywords.get(key))
        if known and value is not None:
            entry[key] = list(value) if key == "choices" else value
    known, text = _literal(keywords.get("help"))
    entry["help"] = text if known and isinstance(text, str) else ""
    if if_new:
        entry["if_new"] = True
    return name, entry


def _switch(trees: list[tuple[str, ast.Module]]) -> dict[str, str] | None:
    """`if "--omni" not in sys.argv:` in the plugin's CLI `main`: the word that runs it."""
    for path, tree in trees:
        if not path.endswith("entrypoints/cli/main.py"):
            continue
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
                continue
            left, (op,), (right,) = node.left, node.ops, node.comparators
            argv = isinstance(right, ast.Attribute) and right.attr == "argv"
            if argv and isinstance(op, ast.NotIn | ast.In) and isinstance(left, ast.Constant):
                return {"word": str(left.value), "source": f"{path}:{node.lineno}"}
    return None


def serve_flags(trees: list[tuple[str, ast.Module]]) -> dict[str, Any] | None:
    """The flags a plugin's own `serve` sub-command adds to vLLM's (`subparser_init` of its
    `entrypoints/cli/serve.py`, after `make_arg_parser`), and the switch that runs it."""
    flags: dict[str, Any] = {}
    for path, tree in trees:
        if not path.endswith("entrypoints/cli/serve.py"):
            continue
        for function in ast.walk(tree):
            if not (isinstance(function, ast.FunctionDef) and function.name == "subparser_init"):
                continue
            guarded = {
                id(call)
                for handler in ast.walk(function)
                if isinstance(handler, ast.Try)
                for statement in handler.body
                for call in ast.walk(statement)
            }
            for call in ast.walk(function):
                called = isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                if called and call.func.attr == "add_argument":  # type: ignore[union-attr]
                    found = _flag(call, path, id(call) in guarded)  # type: ignore[arg-type]
                    if found is not None:
                        flags[found[0]] = found[1]
    switch = _switch(trees)
    if not flags or switch is None:
        return None
    return {"switch": switch, "flags": dict(sorted(flags.items()))}


# -- the vLLM release ----------------------------------------------------------------------
def vllm_release(wheel: Wheel, trees: list[tuple[str, ast.Module]]) -> dict[str, Any]:
    for line in wheel.metadata.splitlines():
        match = re.match(r"Requires-Dist:\s*vllm\s*([^;]*)$", line)
        if match and match.group(1).strip():
            spec = match.group(1).strip().strip("()")
            pinned = re.search(r"==\s*v?(\d+\.\d+(?:\.\d+)?)", spec)
            upper = re.search(r"<\s*v?(\d+\.\d+(?:\.\d+)?)", spec)
            lower = re.search(r">=\s*v?(\d+\.\d+(?:\.\d+)?)", spec)
            chosen = pinned or lower or upper
            if chosen:
                return {"release": chosen.group(1), "requires": spec, "from": "Requires-Dist"}
    compared: set[str] = set()
    for _path, tree in trees:
        for node in ast.walk(tree):
            compares = isinstance(node, ast.Call) and _callee(node)[1] == "vllm_version_is"
            if compares and node.args and isinstance(node.args[0], ast.Constant):
                compared.add(str(node.args[0].value))
    if compared:
        newest = max(compared, key=lambda v: tuple(int(p) for p in re.findall(r"\d+", v)))
        return {"release": newest, "from": "vllm_version_is", "compared": sorted(compared)}
    aligned = re.search(
        r"[\w-]+ publishes [^.\n]*aligned with every [\w-]+ upstream vLLM minor version",
        wheel.metadata,
    )
    if aligned:  # vllm-omni's README: release X.Y is built for vLLM's X.Y line
        return {"release": wheel.version, "from": "README", "says": aligned.group(0).strip()}
    return {}


# -- the file ------------------------------------------------------------------------------
def catalogue(plugin: str, version: str, wheel_path: Path) -> dict[str, Any]:
    package = RELEASES[plugin][0]
    wheel = Wheel.read(wheel_path, package)
    trees = list(wheel.trees())
    constants = Constants(trees)
    doc: dict[str, Any] = {
        "generated": f"GENERATED by {GENERATOR} from {wheel_path.name}; do not edit",
        "plugin": plugin,
        "version": version,
        "package": package,
        "entry_points": sorted(
            line.split("=")[0].strip() for line in wheel.entry_points.splitlines() if "=" in line
        ),
        "vllm": vllm_release(wheel, trees),
        "registers": registrations(trees, constants),
        "additional_config": additional_config(trees),
        "platform": platform(trees, constants),
        "environment": environment(wheel),
    }
    serve = serve_flags(trees)
    if serve is not None:
        doc["serve"] = serve
    return doc


def render(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--plugin", choices=sorted(RELEASES))
    parser.add_argument("--version", help="only this release of --plugin")
    parser.add_argument("--wheel", type=Path, help="the wheel of the one release named")
    parser.add_argument("--cache-dir", type=Path, default=CACHE)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check", action="store_true", help="exit 1 if a file is stale")
    args = parser.parse_args(argv)
    stale = []
    for plugin, (_package, versions) in RELEASES.items():
        if args.plugin and plugin != args.plugin:
            continue
        for version in versions:
            if args.version and version != args.version:
                continue
            wheel = args.wheel or fetch(plugin, version, args.cache_dir)
            text = render(catalogue(plugin, version, wheel))
            out = args.out / f"{plugin}-{version}.json"
            if args.check:
                if not out.is_file() or out.read_text(encoding="utf-8") != text:
                    stale.append(out.name)
                continue
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text, encoding="utf-8")
            print(f"{out.name}", file=sys.stderr)
    if stale:
        print("stale: " + ", ".join(stale) + f" (run python {GENERATOR})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
