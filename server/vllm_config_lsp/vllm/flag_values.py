"""argparse's per-token conversion (`type=`) and `choices`, with vLLM's own messages.

Each `parse` kind in the catalogue names one of vLLM's converters (vllm/engine/
arg_utils.py:160-190 and `_compute_kwargs` :325-440). A failed conversion is an argparse
error (`argument --x: …`) and vLLM exits before anything else runs.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from vllm_config_lsp.document.human_numbers import human_readable_int, human_readable_int_or_auto
from vllm_config_lsp.vllm.catalogue import FlagSpec

_LOADS_REPR = "<function loads at 0x…>"


#: The str methods a `type=` lambda may chain for this module to apply it.
_STR_METHODS = frozenset({"lower", "upper", "casefold", "strip", "lstrip", "rstrip", "replace"})


@dataclass
class Converted:
    value: Any = None
    error: str | None = None
    #: What vLLM's own `type=` function makes of the text is not known here.
    unknown: bool = False


@lru_cache(maxsize=64)
def string_transform(source: str) -> Callable[[str], str] | None:
    """A `type=` lambda that only chains str methods with constant arguments on its
    parameter, such as `lambda s: s.lower().replace("-", "_")` (vllm/engine/arg_utils.py:1844,
    before the `choices` check of `--moe-backend`; `KernelConfig`'s before validators do the
    same, kernel.py:401): read from the catalogue's source text with `ast` and applied step
    by step. Anything else gives None: its result is unknown."""
    try:
        tree = ast.parse(source.strip(), mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(tree, ast.Lambda) or len(tree.args.args) != 1:
        return None
    steps: list[tuple[str, tuple[str, ...]]] = []
    node = tree.body
    while isinstance(node, ast.Call):
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr not in _STR_METHODS or node.keywords:
            return None
        arguments = tuple(
            a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
        )
        if len(arguments) != len(node.args):
            return None
        steps.append((func.attr, arguments))
        node = func.value
    if not steps or not (isinstance(node, ast.Name) and node.id == tree.args.args[0].arg):
        return None
    steps.reverse()

    def apply(text: str) -> str:
        for method, arguments in steps:
            text = getattr(str, method)(text, *arguments)
        return text

    return apply


def _builtin_error(kind: str, text: str) -> str:
    return f"invalid {kind} value: {text!r}"


def loads_error(spec: FlagSpec, text: str) -> str:
    """What argparse says when `json.loads` refuses the text: vLLM's `parse_type` wording,
    or argparse's own where the flag's `type=` is the bare function (`allowed-origins`)."""
    if spec.wrapped:
        return f"Value {text} cannot be converted to {_LOADS_REPR}."
    return _builtin_error("loads", text)


def _convert_one(spec: FlagSpec, text: str) -> Converted:
    parse = spec.parse
    if spec.optional and text in ("", "None"):
        return Converted(None)
    if parse == "int" or parse == "float":
        caster = int if parse == "int" else float
        try:
            return Converted(caster(text))
        except ValueError:
            if spec.optional:  # optional_type → parse_type wraps the error (arg_utils.py:161)
                return Converted(error=f"Value {text} cannot be converted to <class '{parse}'>.")
            return Converted(error=_builtin_error(parse, text))
    if parse in ("human_int", "human_int_or_auto"):
        function = human_readable_int if parse == "human_int" else human_readable_int_or_auto
        try:
            return Converted(function(text))
        except ValueError as error:
            message = str(error)
            if "Decimals are not allowed" in message:
                return Converted(error=message)
            if spec.optional:
                return Converted(error=f"Value {text} cannot be converted to {function.__name__}.")
            return Converted(error=_builtin_error(function.__name__, text))
    if parse == "json":
        try:
            return Converted(json.loads(text))
        except json.JSONDecodeError:
            return Converted(error=loads_error(spec, text))
    if parse == "dict_or_str":
        if not re.match(r"(?s)^\s*{.*}\s*$", text):
            return Converted(text)
        if text in ("", "None"):
            return Converted(None)
        try:
            return Converted(json.loads(text))
        except json.JSONDecodeError:
            return Converted(error=f"Value {text} cannot be converted to {_LOADS_REPR}.")
    if parse == "custom":
        transform = string_transform(spec.parse_source or "")
        return Converted(transform(text)) if transform else Converted(text, unknown=True)
    # str, bool_or_str, dataclass:* (validated separately, with positions)
    return Converted(text)


def convert_values(spec: FlagSpec, texts: list[str]) -> list[Converted]:
    """One `Converted` per token, choices checked the way `_check_value` does."""
    results = [_convert_one(spec, text) for text in texts]
    devices = spec.platform_choices or ()
    choices = spec.choices if spec.choices is not None or not devices else spec.suggested
    if choices is not None:
        for result in results:
            value = result.value
            if result.error is None and not result.unknown and value not in (*choices, *devices):
                shown = ", ".join(repr(c) for c in choices)
                if devices:  # `+ [current_platform.device_type]` (arg_utils.py:1567, 0.33.0)
                    kinds = " or ".join(map(repr, devices))
                    shown += f" and the device type of the platform vLLM runs on: {kinds}"
                result.error = f"invalid choice: {value!r} (choose from {shown})"
    return results
