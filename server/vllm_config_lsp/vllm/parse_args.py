"""`FlexibleArgumentParser.parse_args` before argparse proper: the rewriting every argv
gets, whichever host wrote it (argparse_utils.py:371-521). A `Token` is one argv element on
its way through it and argparse, with the word it was written as.

`_`→`-` folding before the first `.`, `-O` rewriting, and dotted keys (`--a.b.c value`)
merged into one JSON argument appended at the end; a dotted key takes the *next token* as
its value whatever that is. Older releases differ (`LoaderSpec`, read from each wheel).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from yaml.nodes import Node

from vllm_config_lsp.document.human_numbers import human_readable_int
from vllm_config_lsp.document.yaml_edits import content_end
from vllm_config_lsp.sources.config_file import LoaderSpec, LoadEvent
from vllm_config_lsp.sources.invocation import Word
from vllm_config_lsp.sources.yaml_origin import Pair, YamlOrigin


@dataclass(eq=False)
class Token:
    """One argv element on its way through vLLM's parser, and the word it was written as:
    a command-line word of any host, or a `--config` file's word whose origin is a YAML
    node (`Word.origin`)."""

    text: str
    #: The argv word this token is (rewriting may change the text, never the word).
    source: Word
    is_key: bool = False
    #: Set on the JSON argument vLLM builds from dotted keys.
    dotted: list[DottedPiece] | None = None

    @property
    def origin(self) -> YamlOrigin | None:
        return self.source.origin

    @property
    def word(self) -> Word | None:
        """The command-line word, when a host wrote it as a word (not a `--config` entry)."""
        return self.source if self.source.origin is None else None

    @property
    def pair(self) -> Pair | None:
        """The `--config` file's entry this token came from."""
        origin = self.source.origin
        return origin.pair if origin is not None else None

    @property
    def node(self) -> Node | None:
        """The `--config` file's YAML node this token's text came from (the key node for
        `--key`, the value or one list item otherwise)."""
        origin = self.source.origin
        return origin.node if origin is not None else None

    def span(self, text: str) -> tuple[int, int]:
        """Where the token was written: the word, or the key for `--key` and the value
        node otherwise."""
        origin = self.source.origin
        if origin is not None:
            return origin.node.start_mark.index, content_end(text, origin.node)
        word = self.source  # the characters, not the quotes around them
        return word.source_range(0, len(word.text)) if word.text else (word.start, word.end)

    @property
    def unresolved(self) -> bool:
        """A command-line word holding a variable or template: its text is not what vLLM
        will receive."""
        return not self.source.resolved


@dataclass(eq=False)
class DottedPiece:
    head: str  # e.g. "--compilation-config"
    path: list[str]
    append: bool
    value: Any
    key_token: Token
    value_token: Token | None


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
                events.append(LoadEvent("dotted-missing-value", token.pair))
                delete.add(index)
                continue
            value_token = processed[index + 1]
            value_str = value_token.text
            delete.add(index + 1)
            if value_token.pair is not token.pair or value_token.is_key:
                events.append(LoadEvent("dotted-ate-next", token.pair, value_token.text))
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
            recursive_update(merged, nested(piece.path, piece.value))
        first = group[0].key_token
        kept.append(Token(head, first.source, is_key=True))
        kept.append(Token(json.dumps(merged), first.source, dotted=group))
    return kept, events


def nested(keys: list[str], value: Any) -> Any:
    for key in reversed(keys):
        value = {key: value}
    return value


def recursive_update(
    original: dict[str, Any], update: dict[str, Any], prefix: tuple[str, ...] = ()
) -> list[tuple[str, ...]]:
    """argparse_utils.py:425-443: dicts merge, lists concatenate, anything else replaces.
    The paths of the values replaced (what an earlier dotted key set and a later one
    overwrote without a word: VC108)."""
    replaced: list[tuple[str, ...]] = []
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(original.get(key), dict):
            replaced += recursive_update(original[key], value, (*prefix, key))
        elif isinstance(value, list) and isinstance(original.get(key), list):
            original[key] = original[key] + value
        else:
            if key in original:
                replaced.append((*prefix, key))
            original[key] = value
    return replaced
