"""The argv vLLM builds from a config file, token by token, with where each came from.

Mirrors `FlexibleArgumentParser.load_config_file` (vllm/utils/argparse_utils.py:606-673),
`_pull_args_from_config` (:536-604) and the token rewriting in `parse_args` (:371-521):
underscore/dash folding before the first `.`, `-O` rewriting, and dotted keys merged into
one JSON argument appended at the end. The pitfalls are reproduced on purpose: `false` is
dropped, list items become separate tokens, a dotted key takes the *next token* as its
value whatever that is. Older releases differ (`LoaderSpec`, read from each wheel): before
0.10 a list is one `str(list)` token, before 0.16 a mapping is its Python repr, before 0.9
there are no dotted keys and `_` becomes `-` in the whole key.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .catalogue import LoaderSpec
from .human_numbers import human_readable_int
from .yaml_document import construct_value

_CURRENT_LOADER = LoaderSpec()


@dataclass(eq=False)
class Pair:
    """One effective top-level `key: value` of the file (after merges, last duplicate)."""

    key: str
    key_node: Node
    value_node: Node
    value: Any
    #: Earlier duplicates of the same key, which safe_load silently discards.
    shadowed: list[tuple[Node, Node]] = field(default_factory=list)


@dataclass(eq=False)
class Token:
    text: str
    pair: Pair | None
    #: The YAML node this token's text came from (key node for `--key`, value or list item).
    node: Node | None
    is_key: bool = False
    #: Set on the JSON argument vLLM builds from dotted keys.
    dotted: list[DottedPiece] | None = None


@dataclass(eq=False)
class DottedPiece:
    head: str  # e.g. "--compilation-config"
    path: list[str]
    append: bool
    value: Any
    key_token: Token
    value_token: Token | None


@dataclass
class LoadEvent:
    """Something load_config_file did that the file does not say."""

    kind: str  # "false-dropped" | "empty-list-dropped" | "dotted-ate-next" | "dotted-missing-value"
    pair: Pair | None
    token: Token | None = None
    detail: str = ""


def config_tokens(
    pairs: list[Pair], loader: LoaderSpec = _CURRENT_LOADER
) -> tuple[list[Token], list[LoadEvent]]:
    """`load_config_file`: each top-level key becomes `--key` plus value tokens."""
    tokens: list[Token] = []
    events: list[LoadEvent] = []
    for pair in pairs:
        option = Token("--" + pair.key, pair, pair.key_node, is_key=True)
        value = pair.value
        stringified = (isinstance(value, list) and loader.list == "str") or (
            isinstance(value, dict) and loader.dict == "str"
        )
        if stringified:  # older releases: `str(value)`, one token, even for `[]`
            tokens.append(option)
            tokens.append(Token(_py_str(value), pair, pair.value_node))
        elif isinstance(value, bool):
            if value:
                tokens.append(option)
            else:
                # The root `vllm` parser registers no `--no-*` option (argparse_utils.py:656)
                events.append(LoadEvent("false-dropped", pair))
        elif isinstance(value, list):
            if not value:
                events.append(LoadEvent("empty-list-dropped", pair))
                continue
            tokens.append(option)
            items = pair.value_node.value if isinstance(pair.value_node, SequenceNode) else []
            for index, item in enumerate(value):
                node = items[index] if index < len(items) else pair.value_node
                tokens.append(Token(_py_str(item), pair, node))
        elif isinstance(value, dict):
            try:
                dumped = json.dumps(value)
            except (TypeError, ValueError) as error:  # vLLM crashes here (:667)
                events.append(LoadEvent("not-serializable", pair, detail=str(error)))
                continue
            tokens.append(option)
            tokens.append(Token(dumped, pair, pair.value_node))
        else:
            tokens.append(option)
            tokens.append(Token(_py_str(value), pair, pair.value_node))
    return tokens, events


def _py_str(value: Any) -> str:
    """`str(item)` as vLLM calls it; dicts become their Python repr, not JSON."""
    return str(value)


_FIRST_SEGMENT = re.compile(r"(?<=--)[^\.]*")


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
        elif arg.startswith("-O") and arg != "-O":
            level = arg[3:] if arg[2:3] == "=" else arg[2:]
            processed.append(_retext(token, "--optimization-level"))
            processed.append(Token(level, token.pair, token.node))
        elif arg == "-O" and index + 1 < len(tokens) and tokens[index + 1].text in "0123":
            processed.append(_retext(token, "--optimization-level"))
        else:
            processed.append(token)
    if not loader.dotted_keys:
        return processed, []
    return _merge_dotted(processed)


def _retext(token: Token, text: str) -> Token:
    return Token(text, token.pair, token.node, token.is_key, token.dotted)


def _dotted_value(value_str: str) -> Any:
    try:
        return json.loads(value_str)
    except json.JSONDecodeError:
        try:
            return human_readable_int(value_str)
        except ValueError:
            return value_str


def _merge_dotted(processed: list[Token]) -> tuple[list[Token], list[LoadEvent]]:
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
        append = arg.endswith("+")
        if append:
            arg = arg[:-1]
            value_str = json.dumps(list(value_str.split(",")))
        head, *path = arg.split(".")
        pieces.setdefault(head, []).append(
            DottedPiece(head, path, append, _dotted_value(value_str), token, value_token)
        )
        delete.add(index)
    kept = [t for i, t in enumerate(processed) if i not in delete]
    for head, group in pieces.items():
        merged: dict[str, Any] = {}
        for piece in group:
            _recursive_update(merged, _nested(piece.path, piece.value))
        first = group[0].key_token
        kept.append(Token(head, first.pair, first.node, is_key=True))
        kept.append(Token(json.dumps(merged), first.pair, first.node, dotted=group))
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


#: A top-level entry: its key and value nodes, and how to build their Python values (lazily:
#: a value is only built for a usable key).
PairSource = tuple[Node, Node, Callable[[], Any], Callable[[], Any]]


def collect_pairs(entries: Iterable[PairSource]) -> tuple[list[Pair], list[tuple[Node, str]]]:
    """The mapping `yaml.safe_load` returns, in its order: a duplicate key keeps the first
    key's position in the dict but the last value. Also returns keys vLLM cannot use."""
    by_key: dict[Any, Pair] = {}
    bad: list[tuple[Node, str]] = []
    for key_node, value_node, build_key, build_value in entries:
        key = build_key()
        if not isinstance(key, str):
            what = type(key).__name__ if isinstance(key_node, ScalarNode) else "collection"
            bad.append((key_node, what))
            continue
        value = build_value()
        if key in by_key:
            previous = by_key[key]
            previous.shadowed.append((previous.key_node, previous.value_node))
            previous.value_node, previous.value = value_node, value
            previous.key_node = key_node
        else:
            by_key[key] = Pair(key, key_node, value_node, value)
    return list(by_key.values()), bad


def top_level_pairs(root: MappingNode) -> tuple[list[Pair], list[tuple[Node, str]]]:
    """`collect_pairs` over the root mapping, merge keys flattened as SafeConstructor does."""
    from .yaml_document import mapping_pairs

    def source(key_node: Node, value_node: Node) -> PairSource:
        def build_key() -> Any:
            return construct_value(key_node) if isinstance(key_node, ScalarNode) else None

        return key_node, value_node, build_key, lambda: construct_value(value_node)

    return collect_pairs(source(k, v) for k, v in mapping_pairs(root))
