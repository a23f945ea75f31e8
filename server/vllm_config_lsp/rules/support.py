"""Shared vocabulary of rule modules: spans, spellings, suggestions and standard fixes.

Kept apart from the rules so each rule module reads as "what vLLM checks" and nothing else.
"""

from __future__ import annotations

import difflib
import reprlib
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from weakref import WeakKeyDictionary

from vllm_config_lsp.document.entry_merge import merge_edits
from vllm_config_lsp.document.value_tree import Entry, ValueNode
from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.sources import config_edits
from vllm_config_lsp.sources.config_edits import Place
from vllm_config_lsp.sources.rendering import remove_words, rename_option
from vllm_config_lsp.sources.yaml_origin import Pair
from vllm_config_lsp.vllm.catalogue import FlagSpec
from vllm_config_lsp.vllm.config_model import ConfigModel, FlagValue
from vllm_config_lsp.vllm.parse_args import Token
from vllm_config_lsp.vllm.pydantic_lax import FieldIssue
from vllm_config_lsp.vllm.serve_parser import OptionUse

_ABBREVIATED = reprlib.Repr()


def shown(value: object) -> str:
    """`repr(value)` as a message quotes it; abbreviated (`[[[...]]]`) where repr would
    exceed the recursion limit (JSON nests deeper than Python's limit)."""
    try:
        return repr(value)
    except RecursionError:
        return _ABBREVIATED.repr1(value, 3)  # three levels, then `...`


def span(node: Place) -> tuple[int, int]:
    return node.start_mark.index, node.end_mark.index


def token_span(model: ConfigModel, token: Token) -> tuple[int, int]:
    """Where a token came from: the key for `--key`, the value node otherwise."""
    return token.span(model.text)


def finding(
    code: str,
    severity: Severity,
    where: tuple[int, int],
    message: str,
    *,
    source: str | None = None,
    fixes: Iterable[Fix] = (),
) -> Finding:
    return Finding(code, severity, where[0], where[1], message, source, tuple(fixes))


def spell_like(original: str, flag_name: str) -> str:
    """Write a flag name in the file's own style: underscores if the key used them."""
    if "_" in original and "-" not in original:
        return flag_name.replace("-", "_")
    return flag_name


def closest(word: str, candidates: Iterable[str], cutoff: float = 0.75) -> str | None:
    found = difflib.get_close_matches(word, list(candidates), n=1, cutoff=cutoff)
    return found[0] if found else None


def flag_by_key(model: ConfigModel, key: str) -> FlagSpec | None:
    """The flag a top-level key names exactly, spelled either way (no abbreviations)."""
    head = key.split(".", 1)[0].replace("_", "-")
    return model.catalogue.option_index.get("--" + head)


def dropped_pairs(model: ConfigModel, kind: str) -> Iterator[tuple[Pair, FlagSpec]]:
    """Top-level entries `load_config_file` left out of argv (`kind` of its `LoadEvent`),
    with the flag each names: vLLM uses that flag's default instead."""
    for event in model.events:
        pair = event.pair
        if event.kind != kind or pair is None or "." in pair.key:
            continue
        spec = flag_by_key(model, pair.key)
        if spec is not None:
            yield pair, spec


def rename_key_fix(
    model: ConfigModel, pair: Pair, new_key: str, *, preferred: bool = True, safe: bool = True
) -> Fix:
    title = f"Rename `{pair.key}` to `{new_key}`"
    return Fix(title, (TextEdit(*pair.key_span, new_key),), safe=safe, preferred=preferred)


def rename_pair_fix(
    model: ConfigModel, pair: Pair, new_key: str, *, preferred: bool = True, safe: bool = True
) -> Fix | None:
    """Rename a top-level key; when the file already sets `new_key`, a rename would set it
    twice (VC004, VC108): merge into it instead, or offer nothing when the two disagree."""
    other = _pair_named(model, pair, new_key)
    if other is None:
        return rename_key_fix(model, pair, new_key, preferred=preferred, safe=safe)
    text = model.text
    removal = config_edits.remove_entry(text, pair)
    moved, kept = config_edits.value_tree(text, pair), config_edits.value_tree(text, other)
    return _merge_fix(text, (pair.key, other.key), moved, kept, removal, preferred, safe)


@dataclass(frozen=True)
class _Written:
    """What a file sets, indexed once per model: a fix is built per finding, and a file
    with thousands of findings must not cost thousands of scans."""

    pairs: dict[str, list[Pair]]  # by option spelling (`max-num-seqs` for `max_num_seqs`)
    uses: dict[int, list[OptionUse]]  # by id of the flag
    use_of: dict[int, OptionUse]  # by id of the token written


_WRITTEN: WeakKeyDictionary[ConfigModel, _Written] = WeakKeyDictionary()
_KEYS: WeakKeyDictionary[ValueNode, dict[str, Entry]] = WeakKeyDictionary()


def _option(key: str) -> str:
    head, dot, tail = key.partition(".")
    return head.replace("_", "-") + dot + tail


def entries(model: ConfigModel) -> list[Pair]:
    """The top-level entries of the `--config` file the argv came from (its origin's); a
    host's command line has none."""
    return model.origin.pairs if model.origin is not None else []


def _written(model: ConfigModel) -> _Written:
    found = _WRITTEN.get(model)
    if found is None:
        pairs: dict[str, list[Pair]] = {}
        for pair in entries(model):
            pairs.setdefault(_option(pair.key), []).append(pair)
        uses: dict[int, list[OptionUse]] = {}
        for use in model.result.uses:
            uses.setdefault(id(use.spec), []).append(use)
        use_of = {id(use.token): use for use in model.result.uses}
        found = _WRITTEN[model] = _Written(pairs, uses, use_of)
    return found


def _pair_named(model: ConfigModel, pair: Pair, key: str) -> Pair | None:
    """Another top-level key of the file naming the same option as `key` (either spelling)."""
    named = _written(model).pairs.get(_option(key), [])
    return next((other for other in named if other is not pair), None)


def entry_named(container: ValueNode, key: str) -> Entry | None:
    """The member of `container` vLLM keeps for `key` (indexed once per object)."""
    keys = _KEYS.get(container)
    if keys is None:
        keys = _KEYS[container] = container.kept_entries()
    return keys.get(key)


def rename_entry_fix(
    model: ConfigModel,
    container: ValueNode,
    entry: Entry,
    new_key: str,
    *,
    title: str | None = None,
    safe: bool = True,
    preferred: bool = True,
) -> Fix | None:
    """Rename a key inside a JSON-valued config (whatever its quoting); into a key the
    object already has, merge instead, or offer nothing when the two disagree."""
    other = entry_named(container, new_key)
    if other is None or other is entry:
        edit = rename_in_place(model.text, entry.key_start, entry.key_end, entry.key, new_key)
        if edit is None:
            return None
        words = title or f"Rename `{entry.key}` to `{new_key}`"
        return Fix(words, (edit,), safe=safe, preferred=preferred)
    removal = config_edits.remove_member(model.text, container, entry)
    names = (entry.key, new_key)
    return _merge_fix(model.text, names, entry.value, other.value, removal, preferred, safe)


def _merge_fix(
    text: str,
    names: tuple[str, str],
    moved: ValueNode,
    kept: ValueNode,
    removal: TextEdit | None,
    preferred: bool,
    safe: bool,
) -> Fix | None:
    added = merge_edits(text, moved, kept)
    if removal is None or added is None:
        return None
    how = " (same value)" if not added else ""
    title = f"Merge `{names[0]}` into the existing `{names[1]}`{how}"
    return Fix(title, (removal, *added), safe=safe, preferred=preferred)


def remove_pair_fix(
    model: ConfigModel, pair: Pair, title: str | None = None, *, safe: bool = False
) -> Fix | None:
    edit = config_edits.remove_entry(model.text, pair)
    if edit is None:
        return None
    return Fix(title or f"Remove `{pair.key}`", (edit,), safe=safe)


def remove_field_fix(
    model: ConfigModel, value: FlagValue | None, container: ValueNode, entry: Entry, title: str
) -> Fix | None:
    """Remove a key of a JSON-valued flag. The flag's last key goes with the flag: an
    empty `{}` left behind (`--compilation-config '{}'`, `- "--compilation-config"` /
    `- '{}'`) is litter that means the defaults (issue 34 item 7)."""
    if (
        value is not None
        and container is value.tree
        and not value.use.token.dotted
        and all(other is entry for other in container.entries or [])
    ):
        site = site_of(model, value.use.token)
        whole = site.remove() if site is not None else None
        if site is not None and whole is not None and "." not in site.key:
            named = site.written
            return Fix(f"{title} (its last key: `{named}` goes too)", whole.edits, safe=False)
    edit = config_edits.remove_member(model.text, container, entry)
    return Fix(title, (edit,), safe=False) if edit is not None else None


def quote_fix(
    model: ConfigModel, node: Place, text: str, title: str, *, preferred: bool = True
) -> Fix:
    """Write the value at `node` of the `--config` file as the YAML string `text`."""
    edit = config_edits.write_string(model.text, node, text)
    return Fix(title, (edit,), preferred=preferred)


def replace_fix(where: tuple[int, int], new_text: str, *, safe: bool = False) -> Fix:
    """Replace the offending value by a suggested one (a choice, a method name)."""
    return Fix(
        f"Replace with `{new_text}`", (TextEdit(*where, new_text),), safe=safe, preferred=True
    )


def argparse_prefix(spec: FlagSpec) -> str:
    """How argparse names an option in its errors (`_get_action_name`)."""
    return f"argument {'/'.join(spec.options)}: "


def rename_in_place(text: str, start: int, end: int, old: str, new: str) -> TextEdit | None:
    """Rename a key inside its span whatever quoting surrounds it (YAML, JSON, escaped JSON)."""
    at = text.find(old, start, end)
    if at == -1:
        return None
    return TextEdit(at, at + len(old), new)


def field_path(flag_name: str, path: list[str]) -> str:
    return ".".join([flag_name, *path])


def dotted_list_spans(model: ConfigModel) -> list[tuple[int, int]]:
    """Spans of YAML lists of several items under dotted keys: VC109 explains them; other
    rules skip them. A one-item list is the single argument `--key item`
    (argparse_utils.py:466), validated as that item."""
    return [span(pair.value_node) for pair in entries(model) if "." in pair.key and pair.items > 1]


def inside(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    return any(a <= start and end <= b for a, b in spans)


def field_issues(
    model: ConfigModel, kinds: AbstractSet[str] | None = None, *, exclude: bool = False
) -> Iterator[tuple[FlagValue, FieldIssue]]:
    """pydantic errors of every flag, filtered by error kind; dotted-list spans skipped."""
    skip = dotted_list_spans(model)
    for value in model.values:
        for issue in model.field_issues.get(id(value), ()):
            if kinds is not None and ((issue.kind in kinds) == exclude):
                continue
            node = issue.node
            if node is not None and inside(skip, node.start, node.end):
                continue
            yield value, issue


# -- fixes on command lines: rendered by the host (`sources.rendering`) ------------------------


def rename_option_fix(
    model: ConfigModel, token: Token, new_option: str, *, safe: bool = True
) -> Fix | None:
    """Rename the option a command-line word names (`--swap_space=4` keeps its `=4`)."""
    if token.word is None:
        return None
    old = token.word.text.split("=", 1)[0]
    written = _written(model)
    same = written.uses.get(id(model.catalogue.option_index.get(new_option)), [])
    other = next((u for u in same if u.token is not token), None)
    if other is not None:  # the command line sets it already: `--x` twice, the last wins
        use = written.use_of.get(id(token))
        if use is None or _given(use) != _given(other):
            return None
        removal = remove_option_fix(model, token, use.values, safe=safe)
        if removal is None:
            return None
        title = f"Merge `{old}` into the existing `{new_option}` (same value)"
        return Fix(title, removal.edits, safe=safe, preferred=True)
    title = f"Rename `{old}` to `{new_option}`"
    return Fix(title, (rename_option(token.word, new_option),), safe=safe, preferred=True)


def _given(use: OptionUse) -> tuple[str | None, tuple[str, ...]]:
    """What an option occurrence hands argparse: `=value` or the values after it."""
    return use.explicit, tuple(token.text for token in use.values)


def remove_option_fix(
    model: ConfigModel, token: Token, values: list[Token], *, safe: bool = False
) -> Fix | None:
    """Remove a command-line option with the values that follow it (a keyword argument,
    `sources.engine_kwargs`, goes with its value and is named as written)."""
    words = [t.word for t in (token, *values) if t.word is not None]
    if model.is_config_file or not words:
        return None
    edit = remove_words(model.invocation, words[0], words[-1])
    shown = words[0].field or " ".join(w.text for w in words)
    return Fix(f"Remove `{shown}`", (edit,), safe=safe)


@dataclass(frozen=True)
class Site:
    """Where an option is written, whatever the host: a `--config` key or a command-line
    word. `key` is the name as written without leading dashes (`max_num_seqs`,
    `swap-space`); fixes come out in the host's syntax."""

    model: ConfigModel
    token: Token
    key: str
    span: tuple[int, int]

    @property
    def written(self) -> str:
        """The name as the host writes it: the key of a `--config` file, the option of a
        command line with its dashes (`--max-num-seqs`), the keyword of engine arguments."""
        word = self.token.word
        if self.token.pair is not None or word is None:
            return self.key
        return word.field or word.text.split("=", 1)[0]

    def rename(self, new_name: str, *, safe: bool = True) -> Fix | None:
        """Rename to the flag `new_name` (no dashes; a dotted key keeps its path), in the
        spelling style written."""
        pair = self.token.pair
        if pair is not None:
            head, dot, tail = new_name.partition(".")
            new_key = spell_like(pair.key, head) + dot + tail
            return rename_pair_fix(self.model, pair, new_key, safe=safe)
        return rename_option_fix(self.model, self.token, "--" + new_name, safe=safe)

    def remove(
        self, title: str | None = None, *, safe: bool = False, preferred: bool = False
    ) -> Fix | None:
        """Remove the option with its values, titled `title` (default: "Remove `key`")."""
        pair = self.token.pair
        if pair is not None:
            fix = remove_pair_fix(self.model, pair, safe=safe)
        else:
            use = next((u for u in self.model.result.uses if u.token is self.token), None)
            values = use.values if use else []
            fix = remove_option_fix(self.model, self.token, values, safe=safe)
        if fix is None or (title is None and not preferred):
            return fix
        return replace(fix, title=title or fix.title, preferred=preferred)

    def fill(self, text: str, title: str) -> Fix | None:
        """Write `text` as the one value of a `--config` key (`key:`, `key: ""`, the item
        of `key: [null]`); never applied unattended. Command lines: None."""
        use = next((u for u in self.model.result.uses if u.token is self.token), None)
        values = use.values if use else []
        if not self.model.is_config_file or len(values) != 1 or values[0].pair is None:
            return None
        node = values[0].node  # the value's node, or the item's of `key: [null]`
        if node is None:
            return None
        return Fix(title, (config_edits.fill_value(self.model.text, node, text),), safe=False)


def site_of(model: ConfigModel, token: Token) -> Site | None:
    """The place an option token was written as an option (a key or an option word), or
    None for tokens vLLM builds itself (dotted keys gathered into one argument)."""
    if not token.is_key:
        return None
    if token.pair is not None:
        return Site(model, token, token.pair.key, token.pair.key_span)
    word = token.word
    if word is None or token.dotted:
        return None
    option = word.text.split("=", 1)[0]
    return Site(model, token, option.lstrip("-"), word.source_range(0, len(option)))
