"""How one release turns a config file into argv (``x-vllm.loader``), read from its source.

``FlexibleArgumentParser.load_config_file`` (``_load_config_file`` before 0.10) and
``parse_args`` changed shape several times: lists became separate tokens in 0.10, nested
mappings JSON in 0.16, dotted keys (``--compilation-config.mode``) and first-segment-only
underscore folding arrived in 0.9. The engine must emulate the release it checks against,
so the generator records *which* form the wheel has, detected from the function bodies,
and the engine branches on these facts instead of on version numbers.
"""

from __future__ import annotations

import ast
from typing import Any

from .modules import Ref, SourceIndex

PARSER_MODULES = ("vllm.utils.argparse_utils", "vllm.utils")
PARSER_CLASS = "FlexibleArgumentParser"
#: Where ``parse_dataclass`` (the ``type=`` of config-class flags) is defined.
ENGINE_ARGS_MODULE = "vllm.engine.arg_utils"


def _parser_class(index: SourceIndex) -> Ref | None:
    for module in PARSER_MODULES:
        ref = index.resolve(module, PARSER_CLASS)
        if ref.kind == "class" and isinstance(ref.node, ast.ClassDef):
            return ref
    return None


def _method(cls: ast.ClassDef, *names: str) -> ast.FunctionDef | None:
    for st in cls.body:
        if isinstance(st, ast.FunctionDef) and st.name in names:
            return st
    return None


def _isinstance_of(fn: ast.FunctionDef, type_name: str) -> bool:
    """``isinstance(value, <type_name>)`` appears in the function."""
    return any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id == "isinstance"
        and len(n.args) == 2
        and ast.unparse(n.args[1]) == type_name
        for n in ast.walk(fn)
    )


def _calls(fn: ast.AST, name: str) -> bool:
    """A call of a function whose name is ``name`` appears under ``fn``."""
    return any(
        isinstance(n, ast.Call) and ast.unparse(n.func).rsplit(".", 1)[-1] == name
        for n in ast.walk(fn)
    )


def _json_human_numbers(index: SourceIndex) -> bool:
    """``parse_dataclass`` expands ``1k``-style tokens before ``validate_json`` (0.20 on:
    ``_expand_json_human_readable_numbers``); before, such a token is invalid JSON."""
    tree = index.src.tree(ENGINE_ARGS_MODULE)
    return tree is not None and any(
        isinstance(n, ast.FunctionDef)
        and n.name == "parse_dataclass"
        and _calls(n, "_expand_json_human_readable_numbers")
        for n in ast.walk(tree)
    )


def _o_level(parse_text: str) -> str | None:
    """What ``parse_args`` rewrites ``-O3`` to: a flag, a dotted key, or nothing."""
    for target in ("--optimization-level", "-O.mode", "-O.level"):
        if f"'{target}" in parse_text:
            return target
    return None


def _o_dotted(parse_text: str) -> str | None:
    """The dotted key ``-O.x`` is left as (``arg[2] != "."``, 0.9-0.11) or turned into
    (``-cc.x``, 0.12); None where ``-O.x`` is read as the level ``.x``."""
    if "replace('-O', '-cc', 1)" in parse_text:
        return "-cc"
    return "-O" if "arg[2] != '.'" in parse_text else None


def loader_facts(index: SourceIndex) -> dict[str, Any]:
    """The ``x-vllm.loader`` object (docs/schema-format.md, "Loader")."""
    ref = _parser_class(index)
    if ref is None:
        raise RuntimeError(f"{PARSER_CLASS} not found")
    assert isinstance(ref.node, ast.ClassDef)
    load = _method(ref.node, "load_config_file", "_load_config_file")
    parse = _method(ref.node, "parse_args")
    if load is None or parse is None:
        raise RuntimeError(f"{PARSER_CLASS}.load_config_file/parse_args not found")
    load_text, parse_text = ast.unparse(load), ast.unparse(parse)
    if "StoreBoolean" in load_text:
        false_form = "store_boolean"
    elif "--no-" in load_text:
        false_form = "negative_option"
    else:
        false_form = "drop"
    return {
        "source": index.source_of(ref.module, load),
        # Each form consults the parser that runs load_config_file: the root `vllm` parser,
        # which registers no StoreBoolean action and no `--no-*` option. So in every
        # release a `false` value never reaches the serve parser.
        "false": "dropped",
        "false_form": false_form,
        "list": "items" if _isinstance_of(load, "list") else "str",
        "dict": "json" if "json.dumps" in load_text else "str",
        "dotted_keys": "split('.')" in parse_text,
        # `--a.b 1k`: a value that is not JSON is tried as `human_readable_int` (0.20 on),
        # else kept as the string.
        "dotted_human_numbers": _calls(parse, "human_readable_int"),
        # `--a.b+ x,y`: the comma-split items are appended to the list.
        "dotted_append": "endswith('+')" in parse_text,
        "json_human_numbers": _json_human_numbers(index),
        "o_level": _o_level(parse_text),
        "o_dotted": _o_dotted(parse_text),
        "key_fold": "first_segment" if "(?<=--)" in parse_text else "whole",
    }
