"""`FlexibleArgumentParser.parse_args` before argparse proper: the rewriting every argv
gets, whichever host wrote it (argparse_utils.py:371-521).

`_`→`-` folding before the first `.`, `-O` rewriting, and dotted keys (`--a.b.c value`)
merged into one JSON argument appended at the end; a dotted key takes the *next token* as
its value whatever that is. Older releases differ (`LoaderSpec`, read from each wheel).
"""

from __future__ import annotations

import json
import re
from typing import Any

from vllm_config_lsp.document.human_numbers import human_readable_int
from vllm_config_lsp.sources.config_file import (
    DottedPiece,
    LoaderSpec,
    LoadEvent,
    Token,
)

_CURRENT_LOADER = LoaderSpec()


_FIRST_SEGMENT = re.compile(r"(?<=--)[^\.]*")
#: `-O <n>` takes the next argument as its level only for these.
_O_LEVELS = frozenset({"0", "1", "2", "3"})


def _dash(match: re.Match[str]) -> str:
    return match.group(0).replace("_", "-")


def rewrite_tokens(
    tokens: list[Token], loader: LoaderSpec = _CURRENT_LOADER
) -> tuple[list[Token], list[LoadEvent]]:
    """`FlexibleArgumentParser.parse_args` before argparse proper (argparse_utils.py:371-521)."""
    processed: list[Token] = []
    for index, token in enumerate(tokens):
        arg = token.text
        if arg.startswith("--") and loader.key_fold == "whole":
            key, sep, value = arg.partition("=")
            processed.append(_retext(token, "--" + key[2:].replace("_", "-") + sep + value))
        elif arg.startswith("--"):
            if "=" in arg:
                key, value = arg.split("=", 1)
                text = f"{_FIRST_SEGMENT.sub(_dash, key, count=1)}={value}"
            else:
                text = _FIRST_SEGMENT.sub(_dash, arg, count=1)
            processed.append(_retext(token, text))
        elif loader.o_level is None:
            processed.append(token)
        elif loader.o_dotted is not None and arg.startswith("-O."):
            processed.append(_retext(token, loader.o_dotted + arg[2:]))  # a dotted key
        elif arg.startswith("-O") and arg != "-O":
            level = arg[3:] if arg[2:3] == "=" else arg[2:]
            if loader.o_level.startswith("--"):
                processed.append(_retext(token, loader.o_level))
                processed.append(Token(level, token.source))
            else:  # 0.9-0.11: `-O3` is the dotted key `-O.level=3` / `-O.mode=3`
                processed.append(_retext(token, f"{loader.o_level}={level}"))
        elif arg == "-O" and index + 1 < len(tokens) and tokens[index + 1].text in _O_LEVELS:
            processed.append(_retext(token, loader.o_level))
        else:
            processed.append(token)
    if not loader.dotted_keys:
        return processed, []
    return _merge_dotted(processed, loader)


def _retext(token: Token, text: str) -> Token:
    return Token(text, token.source, token.is_key, token.dotted)


def _dotted_value(value_str: str, loader: LoaderSpec) -> Any:
    try:
        return json.loads(value_str)
    except json.JSONDecodeError:
        if not loader.dotted_human_numbers:  # before 0.20: the text as it is
            return value_str
        try:
            return human_readable_int(value_str)
        except ValueError:
            return value_str


def _merge_dotted(
    processed: list[Token], loader: LoaderSpec
) -> tuple[list[Token], list[LoadEvent]]:
    events: list[LoadEvent] = []
    delete: set[int] = set()
    pieces: dict[str, list[DottedPiece]] = {}
    for index, token in enumerate(processed):
        if index in delete:
            continue
        arg = token.text
        if arg.startswith("--") and "." not in arg:
            continue
        if not (arg.startswith("-") and "." in arg):
            continue
        value_token: Token | None
        if "=" in arg:
            arg, value_str = arg.split("=", 1)
            if "." not in arg:
                continue
            value_token = token
        else:
            if index + 1 >= len(processed):
                # vLLM: IndexError (argparse_utils.py:466) - the server crashes at start.
                events.append(LoadEvent("dotted-missing-value", token.pair, token))
                delete.add(index)
                continue
            value_token = processed[index + 1]
            value_str = value_token.text
            delete.add(index + 1)
            if value_token.pair is not token.pair or value_token.is_key:
                events.append(LoadEvent("dotted-ate-next", token.pair, token, value_token.text))
        append = loader.dotted_append and arg.endswith("+")
        if append:
            arg = arg[:-1]
            value_str = json.dumps(list(value_str.split(",")))
        head, *path = arg.split(".")
        pieces.setdefault(head, []).append(
            DottedPiece(head, path, append, _dotted_value(value_str, loader), token, value_token)
        )
        delete.add(index)
    kept = [t for i, t in enumerate(processed) if i not in delete]
    for head, group in pieces.items():
        merged: dict[str, Any] = {}
        for piece in group:
            _recursive_update(merged, _nested(piece.path, piece.value))
        first = group[0].key_token
        kept.append(Token(head, first.source, is_key=True))
        kept.append(Token(json.dumps(merged), first.source, dotted=group))
    return kept, events


def _nested(keys: list[str], value: Any) -> Any:
    for key in reversed(keys):
        value = {key: value}
    return value


def _recursive_update(original: dict[str, Any], update: dict[str, Any]) -> None:
    """argparse_utils.py:425-443: dicts merge, lists concatenate, anything else replaces."""
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(original.get(key), dict):
            _recursive_update(original[key], value)
        elif isinstance(value, list) and isinstance(original.get(key), list):
            original[key] = original[key] + value
        else:
            original[key] = value
