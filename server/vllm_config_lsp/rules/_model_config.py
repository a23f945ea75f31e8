"""Helpers shared by the rules of vLLM's model-side config classes (compilation, attention,
speculative decoding, pooler, multimodal, quantization-config, …; codes VC400-VC499):
where a value comes from, enum-name lookups done by vLLM's `mode='before'` validators, and
the speculative config as `SpeculativeConfig` receives it.

Not a rule (the leading underscore keeps it out of the registry).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from vllm_config_lsp.document.value_tree import ValueNode
from vllm_config_lsp.findings import Fix, TextEdit
from vllm_config_lsp.rules.config.speculative.speculative_tokens_without_model import _effective
from vllm_config_lsp.rules.support import closest, remove_field_fix, remove_pair_fix, token_span
from vllm_config_lsp.vllm.config_model import ConfigModel

Span = tuple[int, int]

MULTIMODAL_GATE = (
    "This check applies only if the model is multimodal (vLLM builds MultiModalConfig only "
    "for multimodal models; a text-only model ignores the setting)."
)


@dataclass
class Given:
    """A value the file sets, where it sits, and the flag it came from."""

    value: Any
    span: Span
    flag: str
    node: ValueNode | None = None


def plain(model: ConfigModel, flag: str) -> Given | None:
    """A plain (non-JSON) flag's converted value, when the file sets it without error."""
    value = model.flag(flag)
    if value is None or value.error is not None:
        return None
    token = value.use.values[-1] if value.use.values else value.use.token
    return Given(value.value, token_span(model, token), flag)


def raw_node(model: ConfigModel, flag: str, *path: str) -> ValueNode | None:
    """A key of a JSON-valued flag as written, even when pydantic refuses other keys of
    the same object: field validators (`mode='before'`) run field by field, so each one
    reports independently of its neighbours."""
    value = model.flag(flag)
    node = value.tree if value is not None else None
    for key in path:
        if node is None or not node.is_object:
            return None
        node = node.get(key)
    return node


def json_given(model: ConfigModel, flag: str, *path: str) -> Given | None:
    """A key of a JSON-valued flag that validated (what `__post_init__` then sees)."""
    setting = model.json_setting(flag, *path)
    if setting is None:
        return None
    return Given(setting.value, (setting.start, setting.end), flag, setting.node)


def either(model: ConfigModel, flag: str, json_flag: str, *path: str) -> Given | None:
    """A field settable by a plain flag or inside a JSON-valued one."""
    return plain(model, flag) or json_given(model, json_flag, *path)


def unknown_name(
    model: ConfigModel, names: list[str], flag: str, *path: str
) -> tuple[str, Span] | None:
    """A name-typed key (enum member, backend) whose text is not one of `names` in any
    case: vLLM's `mode='before'` validators upper-case it and look it up. Returns what was
    written and where."""
    node = raw_node(model, flag, *path)
    if node is None or not isinstance(node.value, str) or not names:
        return None
    if node.value.upper() in names:
        return None
    return node.value, (node.start, node.end)


def name_fixes(where: Span, written: str, names: Iterable[str]) -> list[Fix]:
    """Replace a misspelt enum name by the closest valid one."""
    by_upper = {name.upper(): name for name in names}
    guess = closest(written.upper(), list(by_upper), cutoff=0.6)
    if guess is None:
        return []
    name = by_upper[guess]
    return [Fix(f"Replace with `{name}`", (TextEdit(*where, name),), safe=False, preferred=True)]


def enum_names(model: ConfigModel, enum: str) -> list[str]:
    """Member names in vLLM's declaration order where the catalogue knows it (a value set
    of the same names keeps it; numeric members sort into it), as vLLM lists them."""
    members: dict[str, Any] = dict(model.catalogue.enums.get(enum, {}))
    for found in model.catalogue.value_sets.values():
        names = [str(v) for v in found.values]
        if set(names) == set(members):
            return names
    if all(isinstance(v, (int, list)) for v in members.values()):
        return sorted(members, key=lambda n: (isinstance(members[n], list), members[n]))
    return list(members)


def value_set(model: ConfigModel, name: str) -> list[str]:
    found = model.catalogue.value_sets.get(name)
    return [str(v) for v in found.values] if found is not None else []


def removal_fix(model: ConfigModel, given: Given, title: str) -> Fix | None:
    """Remove the option: its key inside a JSON-valued flag, or the plain flag's line."""
    if given.node is not None:
        tree = model.json_tree(given.flag)
        path = _path_to(tree, given.node) if tree is not None else None
        if tree is None or not path:
            return None
        parent: ValueNode | None = tree
        for step in path[:-1]:
            parent = parent.get(step) if parent is not None else None
        entry = parent.entry(path[-1]) if parent is not None else None
        if parent is None or entry is None:
            return None
        return remove_field_fix(model, model.flag(given.flag), parent, entry, title)
    flag_value = model.flag(given.flag)
    pair = flag_value.use.token.pair if flag_value is not None else None
    return remove_pair_fix(model, pair, title) if pair is not None else None


def _path_to(tree: ValueNode, target: ValueNode) -> list[str] | None:
    for entry in tree.entries or ():
        if entry.value is target:
            return [entry.key]
        if entry.value.is_object:
            below = _path_to(entry.value, target)
            if below is not None:
                return [entry.key, *below]
    return None


# --- speculative decoding ----------------------------------------------------------------

#: Methods that need no draft checkpoint (vllm/config/speculative.py:1296-1374).
NO_DRAFT = ("ngram", "ngram_gpu", "suffix", "custom_class", "extract_hidden_states")

#: `SpeculativeConfig.use_eagle()`, "speculative decoding using target model hidden states"
#: (vllm/config/speculative.py:2120 in 0.33.0; watermarking's own list, vllm/config/vllm.py:1377,
#: is the same five). Every release's tuple is these less the methods it does not have, which
#: pydantic refuses before (tests/rules/test_speculative_methods.py reads each wheel).
USE_EAGLE = frozenset({"eagle", "eagle3", "mtp", "dflash", "dspark"})
#: The methods async scheduling runs with, as `VllmConfig.__post_init__` settles them: the
#: `EagleModelTypes` (MTP names become `mtp`), `NgramGPUTypes`, and draft_model, dspark,
#: dflash (vllm/config/vllm.py:1654-1658 in 0.33.0, where the V1 model runner decides;
#: vllm.py:1563-1575 in 0.32.0). Each is accepted from the release that has it, except the
#: ones in `ASYNC_SINCE`.
ASYNC_METHODS = USE_EAGLE | {"extract_hidden_states", "ngram_gpu", "draft_model"}
#: Methods a release had before its async-scheduling check accepted them: 0.11.2-0.15.1 test
#: `EagleModelTypes` alone (vllm.py:553 in 0.13.0); 0.16.0 added `!= "draft_model"`.
ASYNC_SINCE = {"draft_model": (0, 16)}
#: What a `draft_model` (written, or left to the default) becomes from its draft's name, in
#: the order vLLM looks (speculative.py:1441-1468 in 0.33.0; a release without the method
#: does not look for it). A name without any leaves the method to the draft's architecture.
DETECTED_BY_NAME: tuple[tuple[str, str], ...] = (
    ("eagle-", "eagle"),
    ("eagle3", "eagle3"),
    ("dflash", "dflash"),
    ("dspark", "dspark"),
)
#: What the draft's architecture or `model_type` can still make of a `draft_model`.
DETECTED_BY_ARCHITECTURE = ("draft_model", "mtp", "dflash", "dspark")


def async_scheduled(method: str, version: str) -> bool:
    """Whether vLLM `version`'s async-scheduling check accepts the (settled) `method`."""
    since = ASYNC_SINCE.get(method)
    return method in ASYNC_METHODS and (since is None or release_tuple(version) >= since)


def release_tuple(version: str) -> tuple[int, ...]:
    """`0.16.0` → (0, 16, 0); a `.post1` or other suffix aside."""
    return tuple(int(part) for part in version.split(".")[:3] if part.isdigit())


@dataclass
class Spec:
    """`SpeculativeConfig`'s inputs as the file gives them (speculative-config merged with
    `--spec-method/--spec-model/--spec-tokens`), and the method vLLM settles on."""

    given: dict[str, tuple[Any, Span, str]]
    method: str | None
    #: Where to report something the file leaves out: the `speculative-config` key.
    anchor: Span = (0, 0)
    #: The methods vLLM may settle on after looking at the draft checkpoint: `method` alone,
    #: unless a `draft_model` with a draft is re-detected (`settled`).
    candidates: frozenset[str] = frozenset()

    @property
    def settled(self) -> str | None:
        """The method `SpeculativeConfig` ends with, or None when the draft checkpoint's
        architecture decides it (a `draft_model` whose draft's name says nothing)."""
        return next(iter(self.candidates)) if len(self.candidates) == 1 else None

    @property
    def where_method(self) -> Span:
        """Where the file decides the method: its `method` key, else the draft's `model`."""
        for key in ("method", "model"):
            if self.has(key):
                return self.span(key)
        return self.anchor

    def value(self, key: str, default: Any = None) -> Any:
        found = self.given.get(key)
        return default if found is None or found[0] is None else found[0]

    def has(self, key: str) -> bool:
        return self.value(key) is not None

    def span(self, key: str) -> Span:
        found = self.given.get(key)
        return found[1] if found is not None else self.anchor

    @property
    def uses_draft(self) -> bool:
        """True when vLLM loads a draft checkpoint (a given `model`, or the target's own
        MTP/DSpark layers) and goes through the draft-model branch of `__post_init__`."""
        if self.method in NO_DRAFT:
            return False
        if self.method in ("mtp", "dspark"):
            return self.has("model") or self.has("num_speculative_tokens")
        return self.has("model")

    @property
    def method_known(self) -> bool:
        """False when vLLM may still re-detect the method from the draft checkpoint's name
        or architecture (`draft_model` with a draft: speculative.py:1436-1476)."""
        return not (self.method == "draft_model" and self.has("model"))


def spec(model: ConfigModel) -> Spec | None:
    """None when vLLM never builds a SpeculativeConfig from this file (none given, or the
    JSON or flags are refused before)."""
    given = _effective(model)
    if given is None:
        return None
    methods = model.catalogue.value_sets.get("speculative_methods")
    mtp_types = model.catalogue.value_sets.get("mtp_model_types")
    written = given.get("method", (None,))[0]
    if methods is not None and written is not None and written not in methods:
        return None  # pydantic refuses the method first
    method = written
    draft = given.get("model", (None,))[0]
    if method is None:
        if _is_custom_proposer_path(draft):
            method = "custom_class"
        elif draft in ("ngram", "[ngram]"):
            method = "ngram"
        else:
            method = "draft_model"
    if mtp_types is not None and method in mtp_types:
        method = "mtp"
    if method == "[ngram]":
        method = "ngram"
    flag = model.flag("speculative-config") or model.flag("spec-method")
    flag = flag or model.flag("spec-tokens") or model.flag("spec-model")
    anchor = token_span(model, flag.use.token) if flag is not None else (0, 0)
    known = set(methods.values) if methods is not None else set(ASYNC_METHODS)
    return Spec(given, method, anchor, _candidates(method, draft, known))


def _candidates(method: str | None, draft: Any, known: set[str]) -> frozenset[str]:
    """The methods a `draft_model` with a draft can become in a release that has the
    methods `known` (speculative.py:1433-1476 in 0.33.0)."""
    if method != "draft_model" or not isinstance(draft, str):
        return frozenset({method} if method is not None else ())
    name = draft.lower()
    for part, detected in DETECTED_BY_NAME:
        if detected in known and part in name:
            return frozenset({detected})
    return frozenset(m for m in DETECTED_BY_ARCHITECTURE if m in known or m == "draft_model")


def _is_custom_proposer_path(model: Any) -> bool:
    """SpeculativeConfig._is_custom_proposer_path (vllm/config/speculative.py:1215)."""
    if not isinstance(model, str):
        return False
    if model.startswith(("http://", "https://", "file://")) or "/" in model:
        return False
    parts = model.split(".")
    return len(parts) >= 2 and all(part.isidentifier() for part in parts)


def spec_tokens(config: Spec) -> int | None:
    """`num_speculative_tokens` once `__post_init__` is done, when the file decides it:
    suffix decoding defaults it to `suffix_decoding_max_tree_depth` (24)."""
    tokens = config.value("num_speculative_tokens")
    if tokens is None and config.method == "suffix":
        tokens = config.value("suffix_decoding_max_tree_depth", 24)
    number = as_number(tokens)
    return int(number) if number is not None else None


def numbers(values: Iterable[Any]) -> Iterator[float]:
    for value in values:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            yield value


# --- pydantic lax coercions of JSON values (the values already passed validation) ---------

_TRUE = {"1", "on", "t", "true", "y", "yes"}


def as_bool(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in _TRUE
    return bool(value)


def as_number(value: Any) -> float | None:
    """An int/float field's value as pydantic hands it over ("12" → 12), or None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        try:
            number = float(value.strip().replace("_", ""))
        except ValueError:
            return None
        return int(number) if number.is_integer() else number
    return None
