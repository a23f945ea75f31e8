"""What the engine-level rules (VC310-VC399) read: one config field as the file gives it.

The cross-config checks of `VllmConfig`, `ParallelConfig`, `SchedulerConfig`, … compare a
few fields that come either from plain flags (`tensor-parallel-size: 2`, including the
`--no-…`/`--disable-…` spellings of on/off flags) or from keys of JSON-valued flags
(`eplb-config: {use_async: false}`, also as dotted keys). `Given` is one such value with
where it is written and how to remove or change it, so each rule module reads as the
condition vLLM checks and nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from vllm_config_lsp.document.value_tree import Entry, ValueNode
from vllm_config_lsp.findings import Finding, Fix, Related, Severity, TextEdit
from vllm_config_lsp.rules.support import (
    entries,
    finding,
    remove_field_fix,
    remove_pair_fix,
    spell_like,
    token_span,
)
from vllm_config_lsp.sources import config_edits
from vllm_config_lsp.sources.invocation import Word
from vllm_config_lsp.sources.rendering import append_words
from vllm_config_lsp.sources.yaml_origin import Pair
from vllm_config_lsp.vllm.config_model import ConfigModel, FlagValue


@dataclass(frozen=True)
class Given:
    """A value the file sets explicitly, where it is written, and how the file names it."""

    value: Any
    where: tuple[int, int]
    #: The key as the user would recognise it: `tensor-parallel-size` or
    #: `eplb-config.use_async`.
    label: str
    #: The top-level `key: value` that carries it (removal of a plain flag, dotted key).
    pair: Pair | None = None
    #: For a key inside a JSON-valued flag: the object holding it and its entry.
    container: ValueNode | None = None
    entry: Entry | None = None
    #: "json" when the value sits inside JSON text (a quoted `'{"a": 1}'` value).
    origin: str = "yaml"
    #: For flags taking several values (`nargs='+'`): where each one is written.
    items: tuple[tuple[int, int], ...] = ()
    #: The command-line word that names the flag (None in a `--config` file, for a key
    #: inside a JSON value, a dotted key): fix titles name the setting as it is written.
    word: Word | None = None

    @property
    def written(self) -> str:
        """The setting as its host writes it (issue 34 item 4): the `--config` file's key,
        a command line's `--option`, an engine-argument keyword."""
        if self.word is None:
            return self.label
        return self.word.field or self.word.text.split("=", 1)[0]

    def assign(self, value: object) -> str:
        """`name value` in the host's syntax: `tensor-parallel-size: 2` in a `--config`
        file, `--tensor-parallel-size 2` on a command line, `tensor_parallel_size=2` as a
        Python keyword."""
        if self.word is None or (self.word.field and not self.word.quoting.startswith("python")):
            return f"{self.written}: {value}"
        if self.word.field:
            return f"{self.written}={value}"
        return f"{self.written} {value}"


def _switch_value(value: FlagValue) -> bool:
    """On/off flags: `--x` is True, `--no-x`/`--disable-x` (a BooleanOptionalAction or
    vLLM's alias) is False; `store_false` flags store False."""
    if value.spec.action == "store_false":
        return False
    return value.use.option_string not in value.spec.negatives


def given(model: ConfigModel, flag: str) -> Given | None:
    """The value of a plain flag the file sets (None: unset, or refused by argparse)."""
    value = model.flag(flag)
    if value is None or value.error is not None:
        return None
    token = value.use.values[-1] if value.use.values else value.use.token
    pair = token.pair
    named = value.use.token
    word = named.word if pair is None and not named.dotted else None
    if not value.spec.takes_value:
        where = token_span(model, value.use.token)
        if pair is not None:  # `enable-eplb: true`: point at the whole `key: value`
            where = config_edits.entry_span(model.text, pair)
        return Given(_switch_value(value), where, pair.key if pair else flag, pair, word=word)
    where = value.value_span() if len(value.use.values) > 1 else token_span(model, token)
    if pair is not None and pair.is_mapping and "." not in pair.key:
        where = pair.key_span  # a block mapping: its key names the whole setting
    items = tuple(token_span(model, t) for t in value.use.values)
    return Given(value.value, where, pair.key if pair else flag, pair, items=items, word=word)


def json_given(model: ConfigModel, flag: str, *path: str) -> Given | None:
    """A key inside a JSON-valued flag (`eplb-config`, `compilation-config.pass_config`…)
    when the file sets it and the whole object passed pydantic's field checks."""
    node = model.json_tree(flag)
    container: ValueNode | None = None
    entry: Entry | None = None
    for key in path:
        if node is None or not node.is_object:
            return None
        container = node
        entry = node.entry(key)
        node = entry.value if entry is not None else None
    if node is None or entry is None:
        return None
    label = ".".join([flag, *path])
    value = model.flag(flag)
    pair = None
    if value is not None:
        token = value.use.values[-1] if value.use.values else value.use.token
        pair = token.pair
        if token.dotted:  # `eplb-config.use_async: false`: the dotted key's own pair
            pair = _dotted_pair(model, label)
    return Given(node.value, (node.start, node.end), label, pair, container, entry, node.origin)


def _dotted_pair(model: ConfigModel, label: str) -> Pair | None:
    for pair in entries(model):
        if pair.key.replace("_", "-") == label.replace("_", "-"):
            return pair
    return None


def given_field(model: ConfigModel, class_name: str, field_name: str) -> Given | None:
    """`Class.field` as the file sets it: from the plain flag that fills it or from the
    JSON-valued flag validated as that class (None when the file leaves it to vLLM)."""
    setting = model.setting(class_name, field_name)
    if not setting.explicit or setting.flag is None:
        return None
    if setting.node is not None:
        return json_given(model, setting.flag, field_name)
    return given(model, setting.flag)


def first_given(model: ConfigModel, class_name: str, *field_names: str) -> Given | None:
    """The first of the fields the file sets: where a finding about their combination
    points (the setting the message is about first)."""
    for name in field_names:
        found = given_field(model, class_name, name)
        if found is not None:
            return found
    return None


def field_value(model: ConfigModel, class_name: str, field_name: str) -> Any:
    """What vLLM uses for `Class.field`: the file's value, else the static default."""
    found = given_field(model, class_name, field_name)
    if found is not None:
        return found.value
    return model.setting(class_name, field_name).value


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def removal(model: ConfigModel, what: Given, title: str | None = None) -> Fix | None:
    """Remove the setting: the JSON key in its object, or the whole top-level line."""
    title = title or f"Remove `{what.written}`"
    if what.entry is not None and what.container is not None and "." not in _pair_key(what):
        flag = model.flag(what.label.split(".", 1)[0])
        return remove_field_fix(model, flag, what.container, what.entry, title)
    if what.pair is not None:
        return remove_pair_fix(model, what.pair, title)
    return None


def _pair_key(what: Given) -> str:
    return what.pair.key if what.pair is not None else ""


def replace(
    model: ConfigModel, what: Given, value: Any, title: str, *, preferred: bool = True
) -> Fix | None:
    """Change the value in place (never safe: it changes what the file asks for). Inside
    JSON text the new value is written as JSON, escaped like the text it replaces."""
    if what.origin == "yaml":
        text = value if isinstance(value, str) else json.dumps(value)
    else:
        text = json.dumps(value)
        if model.text[what.where[0] : what.where[0] + 2] == '\\"':
            text = text.replace('"', '\\"')
        elif '"' in text and model.text[what.where[0]] != '"':
            return None  # JSON in an unusual quoting: leave the edit to the user
    start, end = what.where
    written = model.text[start:end]
    if not model.is_config_file and written.startswith("--") and "=" in written:
        start += written.index("=") + 1  # `--tensor-parallel-size=16`: the value only
    return Fix(title, (TextEdit(start, end, text),), safe=False, preferred=preferred)


def add_flag(
    model: ConfigModel, anchor: Given, flag: str, value: str, *, preferred: bool = True
) -> Fix | None:
    """Add `flag: value` on its own line below the top-level key of `anchor`, in the
    file's spelling style (dashes or underscores)."""
    pair = anchor.pair
    if pair is None:
        return None
    key = spell_like(pair.key, flag)
    edit = config_edits.add_entry_after(model.text, pair, key, value)
    if edit is None:
        return None
    return Fix(f"Add `{key}: {value}`", (edit,), safe=False, preferred=preferred)


def add_option(
    model: ConfigModel, anchor: Given | None, flag: str, value: str, *, preferred: bool = True
) -> Fix | None:
    """Add `--flag value`: a line of a `--config` file below `anchor` (`add_flag`), or
    words after the last one of a host's command line, in its syntax
    (`sources.rendering.append_words`)."""
    if model.is_config_file:
        return add_flag(model, anchor, flag, value, preferred=preferred) if anchor else None
    edit = append_words(model.text, model.invocation, [f"--{flag}", value])
    if edit is None:
        return None
    return Fix(f"Add `--{flag} {value}`", (edit,), safe=False, preferred=preferred)


def add_switch(model: ConfigModel, anchor: Given | None, flag: str) -> Fix | None:
    """Turn an on/off flag on: `flag: true` below `anchor` in a `--config` file, the bare
    `--flag` after a host's command line (argparse's BooleanOptionalAction takes no value)."""
    if model.is_config_file:
        return add_flag(model, anchor, flag, "true") if anchor else None
    edit = append_words(model.text, model.invocation, [f"--{flag}"])
    return Fix(f"Add `--{flag}`", (edit,), safe=False, preferred=True) if edit else None


def error(
    code: str, where: Given, message: str, source: str, fixes: Iterable[Fix | None] = ()
) -> Finding:
    return finding(
        code,
        Severity.ERROR,
        where.where,
        message,
        source=source,
        fixes=[fix for fix in fixes if fix is not None],
    )


def warning(
    code: str,
    where: Given,
    message: str,
    source: str,
    fixes: Iterable[Fix | None] = (),
    *,
    related: Iterable[Given | None] = (),
) -> Finding:
    """A warning on `where`; `related` are the other settings that make vLLM ignore or
    override it, shown beside it (LSP related information)."""
    found = finding(
        code,
        Severity.WARNING,
        where.where,
        message,
        source=source,
        fixes=[fix for fix in fixes if fix is not None],
    )
    found.related = tuple(
        Related(*other.where, f"`{other.written}` is set here") for other in related if other
    )
    return found


def switched_on(model: ConfigModel, flag: str) -> Given | None:
    """An on/off flag the file turns on (`enable-eplb: true`), else None."""
    found = given(model, flag)
    return found if found is not None and found.value is True else None


def json_true(model: ConfigModel, flag: str, *path: str) -> Given | None:
    """A boolean key of a JSON-valued flag the file sets to true, else None."""
    found = json_given(model, flag, *path)
    return found if found is not None and found.value is True else None


def above_one(model: ConfigModel, class_name: str, field_name: str) -> Given | None:
    """A size (`pipeline-parallel-size`, …) the file sets above 1, else None."""
    found = given_field(model, class_name, field_name)
    return found if found is not None and is_int(found.value) and found.value > 1 else None


def connector(model: ConfigModel, name: str) -> Given | None:
    """Where `kv-transfer-config` names the KV connector `name`, directly or as a child of a
    `MultiConnector` (`KVTransferConfig.has_connector`, vllm/config/kv_transfer.py:141)."""
    kind = json_given(model, "kv-transfer-config", "kv_connector")
    if kind is None:
        return None
    if kind.value == name:
        return kind
    if kind.value != "MultiConnector":
        return None
    children = json_given(model, "kv-transfer-config", "kv_connector_extra_config", "connectors")
    if children is None or not isinstance(children.value, list):
        return None
    names = [child.get("kv_connector") for child in children.value if isinstance(child, dict)]
    return children if name in names else None


def hisparse_on(model: ConfigModel) -> Given | None:
    """Where the file turns HiSparse on: an `attention-config.hisparse_config`, or a
    `HiSparseConnector`, for which `VllmConfig.__post_init__` fills one in
    (vllm/config/vllm.py:1876-1881)."""
    found = given_field(model, "AttentionConfig", "hisparse_config")
    if found is not None and found.value is not None:
        return found
    return connector(model, "HiSparseConnector")


def compilation_field(model: ConfigModel, field_name: str) -> Given | None:
    """A `CompilationConfig` field the file sets (in `compilation-config` or by the plain
    flag that fills it, such as `max-cudagraph-capture-size`)."""
    return given_field(model, "CompilationConfig", field_name) or json_given(
        model, "compilation-config", field_name
    )


#: `all2all-backend` values for which `CompilationConfig`/`VllmConfig` switch CUDA graphs
#: off themselves (DeepEP high-throughput with DP, MoonEP: vllm/config/compilation.py:1243,
#: vllm/config/vllm.py:2146).
_GRAPHLESS_ALL2ALL = ("deepep_high_throughput", "moonep")


def cuda_graphs(model: ConfigModel) -> tuple[str, Given | None]:
    """Whether the file leaves CUDA graphs on, and the setting that decides it.

    "off": `enforce-eager` (vLLM then forces cudagraph_mode NONE, vllm/config/vllm.py:1768),
    `cudagraph_mode: NONE`, or `optimization-level: 0` whose default mode is NONE.
    "on": an explicit non-NONE cudagraph_mode that none of vLLM's own downgrades touch
    (a compilation mode other than VLLM_COMPILE, a graph-less all2all backend).
    "maybe": graphs are on by default, but the platform or the model may still turn
    them off (pooling, encoder-decoder, KV connectors, Model Runner V2 stock compile).
    """
    eager = switched_on(model, "enforce-eager")
    if eager is not None:
        return "off", eager
    mode = compilation_field(model, "cudagraph_mode")
    name = str(mode.value).upper() if mode is not None else None
    if name == "NONE":
        return "off", mode
    level = given(model, "optimization-level")
    if mode is None and level is not None and str(level.value) in ("0", "O0"):
        return "off", level
    compile_mode = compilation_field(model, "mode")
    all2all = given_field(model, "ParallelConfig", "all2all_backend")
    if (
        mode is None
        or (compile_mode is not None and str(compile_mode.value) not in ("3", "VLLM_COMPILE"))
        or (all2all is not None and all2all.value in _GRAPHLESS_ALL2ALL)
    ):
        return "maybe", mode
    return "on", mode


def speculative_tokens(model: ConfigModel) -> Given | None:
    """`num_speculative_tokens` as the file sets it (speculative-config or spec-tokens)."""
    found = json_given(model, "speculative-config", "num_speculative_tokens") or given(
        model, "spec-tokens"
    )
    return found if found is not None and is_int(found.value) else None


def adaptive_verification(model: ConfigModel) -> Given | None:
    """`speculative-config.enable_adaptive_verification: true`, else None."""
    return json_true(model, "speculative-config", "enable_adaptive_verification")
