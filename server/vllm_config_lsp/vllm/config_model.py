"""Everything vLLM would make of one argv, with positions: the model rules read.

A source's words (a host's command line, or the words `sources.config_file` reads from a
`--config` file) → `parse_args` rewriting → argparse (`serve_parser`) → converted values
(`flag_values`) → JSON-valued flags as positioned trees validated like pydantic
(`pydantic_lax`). Where the words came from (`Word.origin`) only places them: a JSON value
written as a YAML mapping is that mapping's tree. Each stage records what went wrong
instead of stopping, so one edit shows every problem at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, TypeGuard

from yaml.nodes import MappingNode, Node, ScalarNode

from vllm_config_lsp.document.text_index import TextIndex
from vllm_config_lsp.document.value_tree import Entry, ValueNode, from_json_value
from vllm_config_lsp.document.yaml_edits import content_end
from vllm_config_lsp.document.yaml_scalars import scalar_source_map
from vllm_config_lsp.document.yaml_values import (
    JsonProblem,
    json_in_scalar,
    json_in_string,
    json_in_text,
    yaml_to_value,
)
from vllm_config_lsp.sources.config_file import (
    ConfigFile,
    LoadEvent,
    config_invocation,
    read_config_file,
)
from vllm_config_lsp.sources.invocation import GENERATED_AT, Invocation, Word
from vllm_config_lsp.vllm.catalogue import Catalogue, FlagSpec
from vllm_config_lsp.vllm.flag_values import convert_values, loads_error
from vllm_config_lsp.vllm.hardware import Target
from vllm_config_lsp.vllm.parse_args import DottedPiece, Token, rewrite_tokens
from vllm_config_lsp.vllm.plugins import Plugin
from vllm_config_lsp.vllm.pydantic_lax import FieldIssue, Validator
from vllm_config_lsp.vllm.serve_parser import OptionUse, ParseResult, parse

_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")
_LOOKS_LIKE_OBJECT = re.compile(r"(?s)^\s*{.*}\s*$")


@dataclass(eq=False)
class FlagValue:
    """The value argparse ends with for one option occurrence (the last one wins)."""

    use: OptionUse
    value: Any = None
    #: Positioned JSON value for JSON-valued flags that parsed.
    tree: ValueNode | None = None
    error: str | None = None
    error_token: Token | None = None
    error_span: tuple[int, int] | None = None
    #: A command-line value holding a variable or template (`$TP`): vLLM's value is unknown,
    #: so `value` is None and checks that need it stay silent.
    unresolved: bool = False

    @property
    def spec(self) -> FlagSpec:
        return self.use.spec

    def value_span(self) -> tuple[int, int]:
        """The value's text (the key, for on/off flags without a value)."""
        tokens = self.use.values or [self.use.token]
        word = tokens[0].word
        if word is not None and self.use.explicit is not None and not self.use.values:
            return word.source_range(len(word.text) - len(self.use.explicit), len(word.text))
        last_word = tokens[-1].word
        if word is not None and last_word is not None:
            return word.start, last_word.end
        first, last = tokens[0].node, tokens[-1].node
        if first is None or last is None:
            return 0, 0
        return first.start_mark.index, last.end_mark.index


@dataclass
class Setting:
    """One config field's effective value and where the file says it (if it does)."""

    value: Any
    explicit: bool
    start: int
    end: int
    flag: str | None
    node: ValueNode | None = None
    entry: Entry | None = None


def _plain(default: Any) -> Any:
    """Schema defaults that are expressions or factories are unknown until vLLM runs."""
    if isinstance(default, dict) and ("expr" in default or "factory" in default):
        return default.get("value")
    return default


#: What `load_config_file` leaves out of argv without a word (`LoadEvent.kind`).
DROPPED = ("false-dropped", "empty-list-dropped")


@dataclass(eq=False)
class ConfigModel:
    """What vLLM makes of one argv, whichever host wrote it: its rewriting, argparse's
    reading, the values and the JSON trees. Where the words came from is theirs
    (`Word.origin`) and, for a `--config` file, `origin`'s."""

    text: str
    catalogue: Catalogue
    #: The start of vLLM this argv is: a host's command line, or the `--config` file's.
    invocation: Invocation
    model_on_cli: bool = False
    #: The `--config` file the argv was loaded from (its YAML, entries and what loading
    #: did: what the loader rules read); None for a host's command line.
    origin: ConfigFile | None = None
    events: list[LoadEvent] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    result: ParseResult = field(default_factory=ParseResult)
    values: list[FlagValue] = field(default_factory=list)
    #: pydantic errors per flag value (by `id(FlagValue)`): JSON configs field by field,
    #: and `Field(gt=…)` bounds of the config field a plain flag fills.
    field_issues: dict[int, list[FieldIssue]] = field(default_factory=dict)
    #: The config file on disk (None for unsaved text): model folders are relative to it.
    path: Path | None = None
    #: Extra folders model rules look for `<dir>/<model name>/config.json` in.
    model_dirs: tuple[Path, ...] = ()
    #: The command line holds a word that may expand to any arguments (`$EXTRA_ARGS`,
    #: `"$@"`): nothing can be said about what it does not show.
    open_ended: bool = False
    #: The GPUs it runs on, when something says so (PLATFORM rules, memory budget).
    target: Target | None = None
    #: The platform plugin it runs with (`plugins.choose_plugin`); None: stock vLLM.
    plugin: Plugin | None = None

    @property
    def is_config_file(self) -> bool:
        return self.origin is not None

    @property
    def base_dir(self) -> Path | None:
        return self.path.parent if self.path is not None else None

    @cached_property
    def index(self) -> TextIndex:
        return TextIndex(self.text)

    @property
    def version(self) -> str:
        return self.catalogue.version

    @cached_property
    def final(self) -> dict[str, FlagValue]:
        """dest → the value vLLM keeps (argparse: the last occurrence wins)."""
        out: dict[str, FlagValue] = {}
        for value in self.values:
            out[value.spec.dest] = value
        return out

    def flag(self, name: str) -> FlagValue | None:
        spec = self.catalogue.flags.get(name)
        return self.final.get(spec.dest) if spec else None

    def json_tree(self, name: str) -> ValueNode | None:
        """The positioned JSON object of a JSON-valued flag, when it parsed and validated
        field by field (rules mirror `__post_init__`, which pydantic only runs then)."""
        value = self.flag(name)
        if value is None or value.tree is None or self.field_issues.get(id(value)):
            return None
        return value.tree

    def setting(self, class_name: str, field_name: str) -> Setting:
        """What vLLM will use for `Class.field`: the file's value (a plain flag filling that
        field, or a key of the JSON-valued flag validated as that class), else the default
        argparse or the class gives. Rules that are static only when the user sets an input
        check `explicit` (defaults of many fields are resolved from the model later)."""
        if (class_name, field_name) == ("ModelConfig", "model"):
            served = self.positional_model()
            if served is None:
                served = self._setting(class_name, field_name)
            if served.explicit and served.start < GENERATED_AT:
                return served
            # A `--model` the operator writes stands for the files of its own field.
            return self.operator_model() or served
        return self._setting(class_name, field_name)

    def _setting(self, class_name: str, field_name: str) -> Setting:
        for spec in self.catalogue.flags_by_class.get(class_name, ()):
            value = self.flag(spec.name)
            tree = self.json_tree(spec.name) if value is not None else None
            entry = tree.entry(field_name) if tree is not None else None
            if entry is not None:
                node = entry.value
                return Setting(node.value, True, node.start, node.end, spec.name, node, entry)
        target = f"{class_name}.{field_name}"
        default_flag: FlagSpec | None = None
        for spec in self.catalogue.flags_by_field.get(target, ()):
            default_flag = default_flag or spec
            value = self.flag(spec.name)
            if value is not None and value.error is None:
                start, end = value.value_span()
                return Setting(value.value, True, start, end, spec.name)
        if default_flag is not None:
            return Setting(_plain(default_flag.default), False, 0, 0, default_flag.name)
        cls = self.catalogue.classes.get(class_name)
        field_spec = cls.fields.get(field_name) if cls else None
        default = _plain(field_spec.default) if field_spec else None
        return Setting(default, False, 0, 0, None)

    def positional_model(self) -> Setting | None:
        """`vllm serve MODEL …`: the positional `model_tag` replaces `--model` and `model:`
        (`args.model = args.model_tag`, vllm/entrypoints/cli/serve.py). A tag that holds a
        variable (`$MODEL`) is a model unknown here: the value is None, still explicit, so
        no `--model` further on is taken for it."""
        tag = self.result.model_tag
        if tag is None:
            return None
        start, end = tag.span(self.text)
        value = None if tag.unresolved else tag.text
        return Setting(value, True, start, end, "model_tag")

    def operator_model(self) -> Setting | None:
        """The model an operator passes from its own field (KubeAI `url`, KServe
        `storageUri`, Ray `model_source`) as `--model` before the arguments shown."""
        ref = self.invocation.model
        return None if ref is None else Setting(ref.name, True, ref.start, ref.end, "model")

    def json_setting(self, flag_name: str, *path: str) -> Setting | None:
        """A nested key of a JSON-valued flag (`compilation-config`, `pass_config`, …), or
        None when the file does not set it."""
        node = self.json_tree(flag_name)
        entry: Entry | None = None
        for key in path:
            if node is None or not node.is_object:
                return None
            entry = node.entry(key)
            node = entry.value if entry is not None else None
        if node is None:
            return None
        return Setting(node.value, True, node.start, node.end, flag_name, node, entry)


def build_model(
    text: str,
    catalogue: Catalogue,
    *,
    model_on_cli: bool | None = None,
    path: Path | None = None,
    model_dirs: tuple[Path, ...] = (),
) -> ConfigModel:
    """What vLLM makes of a `--config` file's text: the start its source reads
    (`read_config_file`, with the release's loader) through `argv_model`."""
    source = read_config_file(text, catalogue.loader)
    return argv_model(
        text,
        catalogue,
        config_start(source),
        origin=source,
        model_on_cli=model_on_cli,
        path=path,
        model_dirs=model_dirs,
    )


def config_start(source: ConfigFile) -> Invocation:
    """The start of vLLM a `--config` file is, with no argv when vLLM reads none."""
    return source.invocation or config_invocation([])


def host_document(
    text: str, catalogue: Catalogue, invocation: Invocation, origin: ConfigFile | None = None
) -> ConfigModel:
    """A document's text with one of its starts and no settings read yet: what
    suppression comments are read against (building every command line's settings is not
    needed for that; a `--config` file's YAML is its origin's)."""
    return ConfigModel(text, catalogue, invocation, origin=origin)


def argv_model(
    text: str,
    catalogue: Catalogue,
    invocation: Invocation,
    *,
    origin: ConfigFile | None = None,
    model_on_cli: bool | None = None,
    path: Path | None = None,
    model_dirs: tuple[Path, ...] = (),
) -> ConfigModel:
    """What vLLM makes of one start, whichever source read it: its words go through
    `parse_args` rewriting, argparse and validation. A word that may expand to anything
    (`$EXTRA_ARGS`) makes the model open-ended. `origin`: the `--config` file the words
    were loaded from; `model_on_cli` (only there) whether `vllm serve` names the model
    outside it (None: only when the file has no `model:`)."""
    model = ConfigModel(
        text, catalogue, invocation, bool(model_on_cli), origin, path=path, model_dirs=model_dirs
    )
    if origin is not None:
        if origin.invocation is None:  # vLLM reads no argv from it
            return model
        model.events.extend(origin.events)
        has_model = any(word.text == "--model" for word in invocation.args)
        # `vllm serve --config F` needs a model from the file or the command line
        # (argparse_utils.py:575-583); without `model:` we assume the command line has one.
        # A `model:` the loader dropped (`[]`, `false`) says the file was to name it.
        written = any(
            e.kind in DROPPED and e.pair is not None and e.pair.key == "model"
            for e in origin.events
        )
        assumed = not has_model and not written
        model.model_on_cli = assumed if model_on_cli is None else model_on_cli
    # A word that may expand to several arguments still takes its place in argparse's
    # reading (it usually is one value: `--port $PORT`); findings on it are dropped.
    _parse_words(model, invocation.args)
    # `--port $PORT` is one value whatever it holds; `$EXTRA_ARGS` where a flag would
    # stand may hold any flags at all.
    values = {id(token.word) for use in model.result.uses for token in use.values}
    model.open_ended = any(word.splat and id(word) not in values for word in invocation.args)
    return model


def _is_option(text: str) -> bool:
    return text.startswith("-") and len(text) > 1 and not _NEGATIVE_NUMBER.match(text)


#: Config classes `EngineArgs.create_engine_config` builds only when a flag is on, as
#: `LoRAConfig(...) if self.enable_lora else None` (vllm/engine/arg_utils.py:2691): without
#: it, the bounds of their fields' plain flags are never checked.
BUILT_ONLY_WITH = {"LoRAConfig": "enable_lora"}


def _parse_words(model: ConfigModel, words: list[Word]) -> None:
    """`parse_args` rewriting, argparse, conversion and validation, whichever host wrote
    the words (a `--config` file's words are options where the file has keys)."""
    catalogue = model.catalogue
    tokens = [
        Token(w.text, w, is_key=w.origin.is_key if w.origin else _is_option(w.text)) for w in words
    ]
    rewritten, events = rewrite_tokens(tokens, catalogue.loader)
    model.events.extend(events)
    model.tokens = rewritten
    model.result = parse(catalogue, rewritten, model.model_on_cli)
    validator = Validator(catalogue)
    for use in model.result.uses:
        flag_value = _convert(model, use)
        model.values.append(flag_value)
        issues = _validate(model, validator, flag_value) or _passed_issues(model, flag_value)
        if issues:
            model.field_issues[id(flag_value)] = issues
    for value in model.values:
        # argparse keeps the last occurrence; the configs are built from it alone. Only a
        # `type=` validator (a `dataclass:` flag, vllm/engine/arg_utils.py:369) sees them all.
        overridden = model.final[value.spec.dest] is not value and value.spec.action != "append"
        if overridden and not value.spec.parse.startswith("dataclass:"):
            model.field_issues.pop(id(value), None)
    for class_name, dest in BUILT_ONLY_WITH.items():
        if any(value.spec.dest == dest and value.value for value in model.values):
            continue
        for value in model.values:
            targets = (value.spec.field or "", *value.spec.passed_to)
            if not value.spec.dataclass_name and any(
                target.startswith(f"{class_name}.") for target in targets
            ):
                model.field_issues.pop(id(value), None)


def _validate(model: ConfigModel, validator: Validator, flag_value: FlagValue) -> list[FieldIssue]:
    spec = flag_value.spec
    class_name = spec.dataclass_name
    if flag_value.tree is not None and class_name in model.catalogue.classes:
        tree = flag_value.tree
        if spec.parse == "json" and tree.value is None:
            # `optional_type(json.loads)` flags (speculative, watermark, diffusion config):
            # the text `null` loads as None, and `create_*_config` builds no config for it
            # (vllm/engine/arg_utils.py:1864, 2122, 2183, 2191); only the `dataclass:` flags'
            # `TypeAdapter.validate_json` (arg_utils.py:371) refuses a null.
            return []
        if class_name == "SpeculativeConfig" and tree.entries is not None:
            # EngineArgs.create_speculative_config folds `-` into `_` in top-level keys
            # (vllm/engine/arg_utils.py:2127).
            for entry in tree.entries:
                entry.key = entry.key.replace("-", "_")
        spec_class = model.catalogue.classes[class_name]
        issues = validator.validate_class(spec_class, tree, [])
        if not issues:
            validator.lax_values(spec_class, tree)
            flag_value.value = tree.value
        return issues
    if spec.field and flag_value.error is None and flag_value.value is not None:
        class_name, _, field_name = spec.field.partition(".")
        field_spec = model.catalogue.classes.get(class_name)
        target = field_spec.fields.get(field_name) if field_spec else None
        token = flag_value.use.values[-1] if flag_value.use.values else flag_value.use.token
        if target is not None and (token.node or token.word):
            start, end = flag_value.value_span()
            node = ValueNode(start, end, flag_value.value)
            issues = validator.text_issues(target, node, [field_name], class_name)
            if not issues and target.constraints:
                issues = validator.constraint_issues(target, node, [field_name], class_name)
            return issues
    return []


def _passed_issues(model: ConfigModel, flag_value: FlagValue) -> list[FieldIssue]:
    """pydantic's python-mode checks of the config classes EngineArgs builds with a plain
    flag's value (`passed_to`): `ModelConfig(hf_overrides="None")` refuses the text,
    `VllmConfig(shutdown_timeout=-1)` the bound of a flag that names no field."""
    spec = flag_value.spec
    if spec.dataclass_name or flag_value.error is not None or flag_value.value is None:
        return []
    start, end = flag_value.value_span()
    node = flag_value.tree or from_json_value(flag_value.value, start, end)
    validator = Validator(model.catalogue, python=True)
    for target in spec.passed_to:
        class_name, _, field_name = target.partition(".")
        cls = model.catalogue.classes.get(class_name)
        field_spec = cls.fields.get(field_name) if cls else None
        if field_spec is None:
            continue
        issues = validator.validate_field(field_spec, node, [field_name])
        for issue in issues:
            issue.class_name = class_name
        if issues:
            return issues
    return []


def _convert(model: ConfigModel, use: OptionUse) -> FlagValue:
    spec = use.spec
    if not spec.takes_value:
        # `--no-x` / `--disable-x` (the negatives of an on/off flag) store False
        negative = use.option_string in spec.negatives
        return FlagValue(use, spec.action != "store_false" and not negative)
    tokens = use.values if use.explicit is None else [use.token]
    texts = [t.text for t in use.values] if use.explicit is None else [use.explicit]
    if any(token.unresolved for token in tokens):
        return FlagValue(use, None, unresolved=True)
    if not texts and spec.nargs == "?":
        return FlagValue(use, True if spec.parse == "bool_or_str" else spec.default)
    if spec.is_json:
        return _json_flag(model, use, tokens[-1], texts[-1])
    converted = convert_values(spec, texts)
    for token, result in zip(tokens, converted, strict=True):
        if result.error is not None:
            return FlagValue(use, None, error=result.error, error_token=token)
    values = [c.value for c in converted]
    many = spec.nargs in ("+", "*") or isinstance(spec.nargs, int)
    return FlagValue(use, values if many else values[0])


def _json_flag(model: ConfigModel, use: OptionUse, token: Token, text: str) -> FlagValue:
    spec = use.spec
    if spec.optional and text in ("", "None"):
        return FlagValue(use, None)
    if spec.parse == "dict_or_str" and not _LOOKS_LIKE_OBJECT.match(text):
        return FlagValue(use, text)  # `union_dict_and_str` keeps non-object text as is
    human = spec.parse.startswith("dataclass:") and model.catalogue.loader.json_human_numbers
    tree = _tree_for(model, token, text, human)
    if isinstance(tree, JsonProblem):
        if spec.parse.startswith("dataclass:"):
            message = f"Invalid JSON: {tree.message}"
        else:
            message = loads_error(spec, text)
        return FlagValue(
            use, None, error=message, error_token=token, error_span=(tree.start, tree.end)
        )
    return FlagValue(use, tree.value, tree=tree)


def _tree_for(model: ConfigModel, token: Token, text: str, human: bool) -> ValueNode | JsonProblem:
    if token.dotted:
        return _dotted_tree(model, token, human)
    if token.word is not None:
        return _json_in_word(token.word, text, human)
    node = token.node
    if node is None:
        return json_in_string(text, 0, 0, human_numbers=human)
    if (
        isinstance(node, MappingNode)
        and token.pair is not None
        and token.pair.value_node is node
        and model.catalogue.loader.dict == "json"  # before 0.16: the text is `str(dict)`
    ):
        piece = model.origin.pieces.get(id(node)) if model.origin is not None else None
        if piece is not None:  # unchanged entries keep their tree
            return piece.tree(model.version, lambda: yaml_to_value(node, model.text))
        return yaml_to_value(node, model.text)
    if _string_scalar(node, text):
        return json_in_scalar(model.text, node, human_numbers=human)
    return json_in_string(text, node.start_mark.index, node.end_mark.index, human_numbers=human)


def _json_in_word(word: Word, text: str, human: bool) -> ValueNode | JsonProblem:
    """JSON in a command-line word (or in its `=value` part), placed character by
    character through the host's quoting; a value that is not the word's tail (a token
    vLLM's rewriting spelled anew) is placed on the whole word."""
    if not word.text.endswith(text):
        return json_in_string(text, word.start, word.end, human_numbers=human)
    return json_in_text(text, _tail(word, text), human_numbers=human)


def _string_scalar(node: Node, text: str) -> TypeGuard[ScalarNode]:
    """`node` is the YAML string whose characters are `text`: JSON in it is placed through
    the scalar's own quoting (a value YAML converted, `true` → `True`, has none)."""
    return isinstance(node, ScalarNode) and node.value == text and node.tag.endswith(":str")


def _tail(word: Word, value: str) -> Callable[[int, int], tuple[int, int]]:
    """Document offsets of characters `a:b` of `value`, the part of `word` vLLM reads as
    a value: the whole word, or what argparse splits off an option word (`--x=VALUE`,
    `-O3`), which is always the word's tail."""
    offset = len(word.text) - len(value)
    return lambda a, b: word.source_range(a + offset, b + offset)


def _own_value(word: Word) -> str | None:
    """The `=value` of an option word (`--a.b=x`), None for a word that is all value."""
    return word.text.split("=", 1)[1] if word.text.startswith("-") and "=" in word.text else None


def _dotted_tree(model: ConfigModel, token: Token, human: bool) -> ValueNode | JsonProblem:
    """The object vLLM builds from `--head.a.b value` pieces (argparse_utils.py:449-499)."""
    assert token.dotted is not None
    first = token.dotted[0].key_token
    root = ValueNode(*_key_span(first), {}, entries=[])
    for piece in token.dotted:
        key_start, key_end = _key_span(piece.key_token)
        # A bare `--a.b` swallows the next argument: place the value on the key's own line.
        own = (
            piece.value_token
            if piece.value_token and piece.value_token.pair is piece.key_token.pair
            else None
        )
        if own is None:
            leaf = _key_value(piece, model)
        elif piece.append:
            leaf = _appended(model, own, piece.value)
        else:
            leaf = _piece_value(model, own, piece.value, human)
        target = root
        for depth, key in enumerate(piece.path):
            last = depth == len(piece.path) - 1
            existing = target.get(key)
            if last:
                if piece.append and existing is not None and existing.is_array and leaf.is_array:
                    existing.items = [*(existing.items or []), *(leaf.items or [])]
                    existing.value = existing.value + leaf.value
                elif existing is not None and existing.is_object and leaf.is_object:
                    existing.entries = [*(existing.entries or []), *(leaf.entries or [])]
                    existing.value = {**existing.value, **leaf.value}
                else:
                    _set_entry(target, Entry(key, key_start, key_end, leaf, key_start, leaf.end))
            else:
                if existing is None or not existing.is_object:
                    existing = ValueNode(key_start, key_end, {}, entries=[])
                    _set_entry(target, Entry(key, key_start, key_end, existing, key_start, key_end))
                target = existing
    _refresh(root)
    return root


def _key_span(token: Token) -> tuple[int, int]:
    """A dotted key's own text: the YAML key, or the `--a.b` part of a command-line word."""
    if token.word is not None:
        return token.word.source_range(0, len(token.word.text.split("=", 1)[0]))
    node = token.node
    return (node.start_mark.index, node.end_mark.index) if node else (0, 0)


def _set_entry(target: ValueNode, entry: Entry) -> None:
    entries = target.entries if target.entries is not None else []
    target.entries = [*(e for e in entries if e.key != entry.key), entry]


def _refresh(node: ValueNode) -> None:
    if node.entries is not None:
        for entry in node.entries:
            _refresh(entry.value)
        node.value = {e.key: e.value.value for e in node.entries}


def _key_value(piece: DottedPiece, model: ConfigModel) -> ValueNode:
    pair = piece.key_token.pair
    node = pair.value_node if pair is not None else piece.key_token.node
    if node is None:
        return from_json_value(piece.value, 0, 0)
    return from_json_value(piece.value, node.start_mark.index, content_end(model.text, node))


def _appended(model: ConfigModel, token: Token, items: list[str]) -> ValueNode:
    """`--a.b+ x,y`: vLLM splits the text at every comma into texts (argparse_utils.py:467),
    so each item is placed on its own characters: a rule points at the wrong one."""
    place = _placer(model, token)
    nodes: list[ValueNode] = []
    offset = 0
    for item in items:
        nodes.append(ValueNode(*place(offset, offset + len(item)), item))
        offset += len(item) + 1
    start, end = place(0, offset - 1)
    # Removing every item would leave `""`, which is one empty item, not none.
    return ValueNode(start, end, list(items), items=nodes, meta={"comma_list": True})


def _placer(model: ConfigModel, token: Token) -> Callable[[int, int], tuple[int, int]]:
    """Document offsets of characters `a:b` of the value text a token gives a dotted key."""
    word = token.word
    if word is not None:  # `x,y`, or `--a.b+=x,y`
        own = _own_value(word)
        return _tail(word, word.text if own is None else own)
    node = token.node
    if node is None:
        return lambda a, b: (0, 0)
    whole = (node.start_mark.index, content_end(model.text, node))
    source = None
    if isinstance(node, ScalarNode) and node.value == token.text:
        source = scalar_source_map(
            model.text, node.start_mark.index, node.end_mark.index, node.style, value=node.value
        )
    if source is None:
        return lambda a, b: whole
    return source.source_range


def _piece_value(model: ConfigModel, token: Token | None, value: Any, human: bool) -> ValueNode:
    if token is not None and token.word is not None:
        word = token.word
        own = _own_value(word)
        text = word.text if own is None else own
        tree = _json_in_word(word, text, False)
        if not isinstance(tree, JsonProblem) and tree.value == value:
            return tree
        return from_json_value(value, *_tail(word, text)(0, len(text)))
    node = token.node if token else None
    if node is None:
        return from_json_value(value, 0, 0)
    start, end = node.start_mark.index, node.end_mark.index
    if token is not None and _string_scalar(node, token.text):
        tree = json_in_scalar(model.text, node, human_numbers=False)
        if not isinstance(tree, JsonProblem) and tree.value == value:
            return tree
    return from_json_value(value, start, end)
