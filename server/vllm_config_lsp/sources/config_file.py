"""The `--config FILE` source: the argv vLLM builds from the YAML, word by word, each with
its origin (the entry and node it came from, `sources.yaml_origin`).

Mirrors `FlexibleArgumentParser.load_config_file` (vllm/utils/argparse_utils.py:606-673) and
`_pull_args_from_config` (:536-604); the rewriting every argv gets afterwards is
`vllm.parse_args`. The pitfalls are reproduced on purpose: `false` is dropped, list items
become separate tokens. Older releases differ (`LoaderSpec`, read from each wheel): before
0.10 a list is one `str(list)` token, before 0.16 a mapping is its Python repr, before 0.9
there are no dotted keys and `_` becomes `-` in the whole key.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from vllm_config_lsp.document import yaml_incremental as incremental
from vllm_config_lsp.document.yaml_tree import (
    EXPANSION_LIMIT,
    TOO_DEEP,
    ExpansionTooLarge,
    ParsedYaml,
    YamlProblem,
    construct_value,
    expanded_size,
    mapping_pairs,
    parse_yaml,
)
from vllm_config_lsp.sources.invocation import Invocation, Word
from vllm_config_lsp.sources.yaml_origin import Pair, YamlOrigin


@dataclass(frozen=True)
class LoaderSpec:
    """How the release's `load_config_file`/`parse_args` turn the YAML into argv
    (`x-vllm.loader`); the defaults are 0.33's behaviour."""

    #: `items`: a list becomes one token per item; `str`: one token, `str(list)`.
    list: str = "items"
    #: `json`: a mapping becomes `json.dumps(value)`; `str`: its Python repr.
    dict: str = "json"
    #: Whether `--a.b.c value` keys are gathered into one JSON argument.
    dotted_keys: bool = True
    #: `first_segment`: `_`→`-` only before the first `.`; `whole`: in the whole key.
    key_fold: str = "first_segment"
    #: A dotted key's value that is not JSON is tried as a human-readable int (`1k`, 0.20 on).
    dotted_human_numbers: bool = True
    #: `--a.b+ x,y` appends the comma-split items to the list.
    dotted_append: bool = True
    #: Config-class JSON has `1k`-style tokens expanded before validation (0.20 on).
    json_human_numbers: bool = True
    #: What `-O3` / `-O 3` become: `--optimization-level` (0.12 on), the dotted key
    #: `-O.mode` (0.11) or `-O.level` (0.9-0.10); None: left as written (before 0.9).
    o_level: str | None = "--optimization-level"
    #: The dotted key `-O.x` becomes (`-O` in 0.9-0.11, `-cc` in 0.12); None: `-O.x` is
    #: read as the level `.x`.
    o_dotted: str | None = None
    source: str | None = None


_CURRENT_LOADER = LoaderSpec()


@dataclass
class LoadEvent:
    """Something load_config_file did that the file does not say."""

    kind: str  # "false-dropped" | "empty-list-dropped" | "dotted-ate-next" | "dotted-missing-value"
    pair: Pair | None
    detail: str = ""


def config_words(
    pairs: list[Pair], loader: LoaderSpec = _CURRENT_LOADER
) -> tuple[list[Word], list[LoadEvent]]:
    """`load_config_file`: each top-level key becomes `--key` plus value words, each with
    its origin."""
    words: list[Word] = []
    events: list[LoadEvent] = []
    for pair in pairs:
        option = _word("--" + pair.key, pair, pair.key_node, is_key=True)
        value = pair.value
        stringified = (isinstance(value, list) and loader.list == "str") or (
            isinstance(value, dict) and loader.dict == "str"
        )
        if stringified:  # older releases: `str(value)`, one word, even for `[]`
            words.append(option)
            words.append(_word(_py_str(value), pair, pair.value_node))
        elif isinstance(value, bool):
            if value:
                words.append(option)
            else:
                # The root `vllm` parser registers no `--no-*` option (argparse_utils.py:656)
                events.append(LoadEvent("false-dropped", pair))
        elif isinstance(value, list):
            if not value:
                events.append(LoadEvent("empty-list-dropped", pair))
                continue
            words.append(option)
            items = pair.value_node.value if isinstance(pair.value_node, SequenceNode) else []
            for index, item in enumerate(value):
                node = items[index] if index < len(items) else pair.value_node
                words.append(_word(_py_str(item), pair, node))
        elif isinstance(value, dict):
            try:
                dumped = json.dumps(value)
            except (TypeError, ValueError) as error:  # vLLM crashes here (:667)
                events.append(LoadEvent("not-serializable", pair, detail=str(error)))
                continue
            words.append(option)
            words.append(_word(dumped, pair, pair.value_node))
        else:
            words.append(option)
            words.append(_word(_py_str(value), pair, pair.value_node))
    return words, events


def config_invocation(words: list[Word], start: int = 0) -> Invocation:
    """The start of vLLM a `--config` file is: `vllm serve` with its argv, at its first key
    (vLLM splices them in after the model, so later command-line flags win)."""
    return Invocation("config-file", "serve", start, start, args=words)


def _word(text: str, pair: Pair, node: Node, *, is_key: bool = False) -> Word:
    """A word vLLM builds from a node: its text is not the node's characters (`--` before a
    key, `str()` or `json.dumps` of a value), so every character spans the whole node; the
    origin says which entry and node it is."""
    start, end = node.start_mark.index, node.end_mark.index
    n = len(text)
    origin = YamlOrigin(pair, node, is_key)
    return Word(text, start, end, (start,) * n, (end,) * n, quoting="yaml", origin=origin)


def _py_str(value: Any) -> str:
    """`str(item)` as vLLM calls it; dicts become their Python repr, not JSON."""
    return str(value)


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

    def source(key_node: Node, value_node: Node) -> PairSource:
        def build_key() -> Any:
            return construct_value(key_node) if isinstance(key_node, ScalarNode) else None

        return key_node, value_node, build_key, lambda: construct_value(value_node)

    pairs, bad = collect_pairs(source(k, v) for k, v in mapping_pairs(root))
    own = {id(key) for key, _ in root.value}
    for pair in pairs:
        if id(pair.key_node) in own:  # overriding what `<<` brought is what merging is for
            pair.shadowed = [shadowed for shadowed in pair.shadowed if id(shadowed[0]) in own]
    return pairs, bad


@dataclass(eq=False)
class ConfigFile:
    """A `--config` file as `load_config_file` reads it: the YAML, its effective entries,
    what loading does that the file does not say, and the start of vLLM it is. Its words'
    origins point into it; the loader rules read it, every other rule the argv."""

    parsed: ParsedYaml
    #: The top-level entries as `yaml.safe_load` returns them (merged, last duplicate wins).
    pairs: list[Pair] = field(default_factory=list)
    #: Top-level keys vLLM cannot use (not strings), with what they are.
    bad_keys: list[tuple[Node, str]] = field(default_factory=list)
    #: The root, when aliases expand it past `EXPANSION_LIMIT` (not loaded).
    too_large: Node | None = None
    #: `id(value node)` → the top-level entry it belongs to, when composed piece by piece.
    pieces: dict[int, incremental.Piece] = field(default_factory=dict)
    events: list[LoadEvent] = field(default_factory=list)
    #: The argv vLLM builds; None when it reads none (the root is no mapping, too large or
    #: too deep).
    invocation: Invocation | None = None


def read_config_file(text: str, loader: LoaderSpec = _CURRENT_LOADER) -> ConfigFile:
    """The file composed (entry by entry when `yaml_incremental` can), its entries, and
    the argv `load_config_file` builds from them."""
    composed = incremental.compose(text)
    source = ConfigFile(composed.parsed if composed is not None else parse_yaml(text))
    root = source.parsed.root
    if not isinstance(root, MappingNode):
        return source
    try:
        if composed is not None:
            # the same as below, from each unchanged entry's cached value
            if incremental.root_size(composed.pieces) > EXPANSION_LIMIT:
                raise ExpansionTooLarge
            source.pairs, source.bad_keys = collect_pairs(
                (p.key, p.value, p.constructed_key, p.constructed_value) for p in composed.pieces
            )
            source.pieces = {id(piece.value): piece for piece in composed.pieces}
        else:
            if expanded_size(root) > EXPANSION_LIMIT:
                raise ExpansionTooLarge
            source.pairs, source.bad_keys = top_level_pairs(root)
    except ExpansionTooLarge:
        source.too_large = root
        return source
    except RecursionError:  # nesting PyYAML composed but Python cannot walk
        source.parsed.problems.append(YamlProblem(0, 0, TOO_DEEP))
        source.pairs = []
        return source
    words, source.events = config_words(source.pairs, loader)
    first = source.pairs[0].key_node.start_mark.index if source.pairs else 0
    source.invocation = config_invocation(words, first)
    return source
