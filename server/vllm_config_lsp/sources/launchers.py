"""vLLM starts in the configuration files of launchers that build the command line themselves.

A launcher keeps vLLM's flags in its own YAML schema and renders `vllm serve …` at run time,
so each reader below transcribes how its launcher maps keys to argv words (and names the
launcher's source it follows); a word points at the text that caused it:

* vector-inference `models.yaml`: `models.<name>.vllm_args`, a mapping whose keys already
  are flags (`--max-model-len: 8192`), rendered by vec_inf/client/_slurm_script_generator.py
  as `{arg} {value}`, a boolean as the bare flag (even `false`);
* InferenceX AMD disaggregation `models_vllm.yaml`: `<model>.prefill_flags`/`decode_flags`,
  one string of flags each, word-split by the launcher scripts into `vllm serve`;
* vllm-ascend nightly multi-node configs: `server_cmd: >` (a command line, read by the
  shell source) and `server_cmd_template:` (one argv element per item, after
  `vllm serve <model>`, with `${VAR}` rendered per rank by
  tests/e2e/nightly/multi_node/external_dp/scripts/runtime.py);
* ramalama engine specs: `commands[].inference_engine.options`, `{name, value, if}` items
  with Jinja templates (an empty `name` passes the value raw), reused through YAML aliases;
* vLLM recipes `models/*.yaml`: the `guide: |` block is Markdown, read by the Markdown source
  through the block scalar's source map; `base_args`, `features.*.args` and the
  `extra_args` of variants and overrides are flag fragments the recipe tooling appends;
* Baseten Truss `config.yaml`: `docker_server.start_command` (a command line, read by the
  shell source; usually `sh -c "… vllm serve …"`) in the `base_image.image` container, on
  the GPUs `resources.accelerator` names (`H100:2`: truss/base/truss_config.py
  `AcceleratorSpec.from_str`);
* srt-slurm recipes: `backend.vllm_config.prefill/decode/aggregated`, mappings of flag names
  without `--` (rendered by the external srtctl tool: assumed `key: true` → `--key`,
  `false`/null dropped, a mapping or list → its JSON).

Nothing here raises on malformed input, and every pass is linear in the text.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode

from vllm_config_lsp.sources import gpu_claims, markdown, shell
from vllm_config_lsp.sources.invocation import Invocation, Word
from vllm_config_lsp.sources.yaml_hosts import (
    PLACEHOLDER,
    Frame,
    Masked,
    documents,
    get,
    get_pair,
    items,
    key_word,
    node_span,
    pairs,
    relocate,
    relocate_word,
    scalar_frame,
    scalar_word,
    text_of,
    value_of,
    value_word,
)

__all__ = ["SOURCE", "find_invocations"]

SOURCE = "launcher"
_LIST = "yaml-list"
_VALUE = "yaml-value"
#: `${VAR}` / `$VAR` that vllm-ascend's runtime renders per rank.
_DOLLAR = re.compile(r"\$\{[A-Za-z_]\w*\}|\$[A-Za-z_]\w*")
#: Jinja expressions and statements of a ramalama spec.
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
#: The recipe keys whose lists are flags appended to the recipe's command.
_RECIPE_FRAGMENTS = ("features", "variants", "hardware_overrides", "strategy_overrides")
_SRT_ROLES = ("prefill", "decode", "aggregated")
#: A value a guide asks its reader to fill in (`export HF_TOKEN=<your HF token>`): not shell
#: (a redirection the shell grammar cannot close, which swallows the next command).
_FILL_IN = re.compile(r"(?<=[=\s])<[A-Za-z][^<>\n]*[^<>\s]>(?=[\s\"']|$)")


def find_invocations(text: str) -> list[Invocation]:
    """Every vLLM start in a launcher config (any of the formats above), in document order,
    with document offsets."""
    try:
        found: list[Invocation] = []
        frame = Frame(text)
        for root in documents(text):
            if isinstance(root, MappingNode):
                found.extend(_document(frame, root))
        return sorted(found, key=lambda invocation: invocation.start)
    except MemoryError:
        raise  # reported by the engine: not read, rather than no start
    except Exception:  # a launcher file must never take the editor down
        return []


def _document(frame: Frame, root: MappingNode) -> list[Invocation]:
    found: list[Invocation] = []
    found.extend(_vector_inference(frame, root))
    found.extend(_inferencex(frame, root))
    found.extend(_ascend(frame, root))
    found.extend(_ramalama(frame, root))
    found.extend(_recipe(frame, root))
    found.extend(_srt_slurm(frame, root))
    found.extend(_truss(frame, root))
    return found


# -- words -------------------------------------------------------------------------------


def _with_unresolved(word: Word, pattern: re.Pattern[str], *, splat: bool = False) -> Word:
    """The word with every match of `pattern` (a variable, a template) listed as unresolved;
    a word that is only a template may expand to any number of arguments when `splat`."""
    hits = tuple(dict.fromkeys(match.group(0) for match in pattern.finditer(word.text)))
    if not hits:
        return word
    whole = pattern.fullmatch(word.text.strip()) is not None
    return replace(
        word,
        unresolved=word.unresolved + tuple(h for h in hits if h not in word.unresolved),
        splat=word.splat or (splat and whole),
    )


def _start(words: list[Word], anchor: tuple[int, int], entrypoint: str = "serve") -> Invocation:
    """A start whose executable is not in the file: it spans `anchor` (the key that holds
    the flags, or the first argument)."""
    start, end = anchor
    return Invocation(
        SOURCE, entrypoint, start, end, words, insert_at=words[-1].end if words else end
    )


def _first_item(frame: Frame, node: Node | None) -> tuple[int, int] | None:
    listed = items(node)
    return node_span(frame, listed[0]) if listed else None


def _list_words(frame: Frame, node: Node | None, pattern: re.Pattern[str]) -> list[Word]:
    """One argv element per scalar item (no word splitting)."""
    words: list[Word] = []
    for item in items(node):
        word = scalar_word(frame, item, _LIST)
        if word is not None:
            words.append(_with_unresolved(word, pattern))
    return words


def _shell_words(frame: Frame, node: Node) -> list[Word]:
    """A string of flags word-split as a shell splits it, with document offsets."""
    inner = scalar_frame(frame, node)
    if inner is None:
        return []
    return [relocate_word(word, inner) for word in shell.command_words(inner.text)]


def _as_launcher(invocation: Invocation) -> Invocation:
    return replace(invocation, source=SOURCE)


# -- Baseten Truss -----------------------------------------------------------------------


def _truss(frame: Frame, root: MappingNode) -> list[Invocation]:
    """`docker_server.start_command`: the command the Truss server container runs, from
    `base_image.image`, with the GPUs of `resources.accelerator`."""
    command = get(get(root, "docker_server"), "start_command")
    inner = scalar_frame(frame, command) if isinstance(command, ScalarNode) else None
    if inner is None or "vllm" not in inner.text:
        return []
    image = text_of(get(get(root, "base_image"), "image"))
    claims = gpu_claims.truss(frame, get(root, "resources"))
    return [
        replace(_as_launcher(relocate(invocation, inner, image=image)), gpus=claims)
        for invocation in shell.find_invocations(inner.text, source=SOURCE)
    ]


# -- vector-inference --------------------------------------------------------------------


def _vector_inference(frame: Frame, root: MappingNode) -> list[Invocation]:
    """`models.<name>.vllm_args`, as vec_inf/client/_slurm_script_generator.py renders it
    after `vllm serve {model_weights_path} --served-model-name {model_name} --host 0.0.0.0
    --port $server_port_number` (generated, so no words): `{arg} {value}` per key, a
    boolean as the bare flag whatever its value."""
    found: list[Invocation] = []
    for _name, entry in pairs(get(root, "models")):
        pair = get_pair(entry, "vllm_args")
        if pair is None or not isinstance(pair[1], MappingNode):
            continue
        words: list[Word] = []
        for key, value in pairs(pair[1]):
            arg = value_of(key)
            if not isinstance(arg, str) or not arg:
                continue
            words.append(key_word(frame, key, arg))
            loaded = value_of(value)
            if not isinstance(loaded, bool):
                words.append(value_word(frame, value, str(loaded)))
        found.append(_start(words, node_span(frame, pair[0])))
    return found


# -- InferenceX --------------------------------------------------------------------------


def _inferencex(frame: Frame, root: MappingNode) -> list[Invocation]:
    """`<model>.prefill_flags` / `decode_flags`: strings the AMD disaggregation scripts
    word-split into `vllm serve`."""
    found: list[Invocation] = []
    for _name, entry in pairs(root):
        if not isinstance(entry, MappingNode):
            continue
        for key in ("prefill_flags", "decode_flags"):
            pair = get_pair(entry, key)
            if pair is None or not isinstance(pair[1], ScalarNode):
                continue
            words = [_with_unresolved(w, _DOLLAR) for w in _shell_words(frame, pair[1])]
            found.append(_start(words, node_span(frame, pair[0])))
    return found


# -- vllm-ascend -------------------------------------------------------------------------


def _ascend(frame: Frame, root: MappingNode) -> list[Invocation]:
    """`deployment[].server_cmd` (internal DP: a whole command line) and
    `templates[].server_cmd_template` (external DP: runtime.py runs
    `["vllm", "serve", config.model, *rendered_args]`)."""
    found: list[Invocation] = []
    model = get(root, "model")
    for section in ("deployment", "templates"):
        for entry in items(get(root, section)):
            command = get(entry, "server_cmd")
            if isinstance(command, ScalarNode):
                found.extend(_server_cmd(frame, command))
            template = get(entry, "server_cmd_template")
            anchor = _first_item(frame, template)
            if anchor is None:
                continue
            words = _list_words(frame, template, _DOLLAR)
            if isinstance(model, ScalarNode) and model.value:
                model_word = scalar_word(frame, model, _VALUE)
                if model_word is not None:
                    words.insert(0, _with_unresolved(model_word, _DOLLAR))
            found.append(_start(words, anchor))
    return found


def _server_cmd(frame: Frame, node: ScalarNode) -> list[Invocation]:
    """A `server_cmd` string: the command vLLM runs, one line in the loaded value (a folded
    scalar keeps the line breaks of more-indented lines, which the launcher splits as
    whitespace: they become spaces, offsets unchanged)."""
    inner = scalar_frame(frame, node)
    if inner is None:
        return []
    chars = list(inner.text)
    for index, char in enumerate(chars):
        if char == "\n" and (index == 0 or chars[index - 1] != "\\"):
            chars[index] = " "
    line = Frame("".join(chars), inner.starts, inner.ends, inner.end)
    found = [
        _as_launcher(relocate(invocation, line))
        for invocation in shell.find_invocations(line.text, source=SOURCE)
    ]
    if found:
        return found
    words = [relocate_word(word, line) for word in shell.command_words(line.text)]
    if words and words[0].text.startswith("-"):  # flags only: the launcher adds the rest
        return [_start(words, (words[0].start, words[0].end))]
    return []


# -- ramalama ----------------------------------------------------------------------------


def _ramalama(frame: Frame, root: MappingNode) -> list[Invocation]:
    """An engine spec's `commands[]` whose `inference_engine` runs vLLM: `binary` (empty in
    a container, whose image runs the server; `python3 -m
    vllm.entrypoints.openai.api_server` on a host), then each `options` item: `name` and
    `value` as two words, or the value alone when `name` is empty (a raw, templated list of
    runtime arguments). `if:` conditions are not evaluated: every option is kept."""
    found: list[Invocation] = []
    for command in items(get(root, "commands")):
        engine = get(command, "inference_engine")
        binary_pair = get_pair(engine, "binary")
        binary = text_of(binary_pair[1]) if binary_pair is not None else None
        name = text_of(get(engine, "name")) or ""
        if binary_pair is None or binary is None:
            continue
        if "vllm" not in binary.lower() and "vllm" not in name.lower():
            continue
        words: list[Word] = []
        for option in items(get(engine, "options")):
            if not isinstance(option, MappingNode):
                continue
            flag = get(option, "name")
            value = get(option, "value")
            flag_text = text_of(flag)
            if isinstance(flag, ScalarNode) and flag_text:
                word = scalar_word(frame, flag, _LIST)
                if word is not None:
                    words.append(_with_unresolved(word, _JINJA))
            if isinstance(value, ScalarNode) and text_of(value) is not None:
                word = scalar_word(frame, value, _VALUE)
                if word is not None:
                    words.append(_with_unresolved(word, _JINJA, splat=not flag_text))
        entrypoint = "api_server" if "api_server" in binary else "serve"
        found.append(_start(words, node_span(frame, binary_pair[1]), entrypoint))
    return found


# -- vLLM recipes ------------------------------------------------------------------------


def _recipe(frame: Frame, root: MappingNode) -> list[Invocation]:
    """A recipe: `model:` (with `model_id`) and a `guide:` of Markdown, whose shell blocks
    the Markdown source reads; and the flag lists the recipe tooling appends to the
    command it builds (`model.base_args`, `features.<f>.args`, `<variant>.extra_args`,
    `hardware_overrides.<hw>.extra_args`, `strategy_overrides.<s>.extra_args`)."""
    model = get(root, "model")
    guide = get(root, "guide")
    if not isinstance(model, MappingNode) or not isinstance(guide, ScalarNode):
        return []
    found: list[Invocation] = []
    inner = scalar_frame(frame, guide)
    if inner is not None:
        masked = _mask_fill_ins(inner.text)
        found.extend(
            _as_launcher(relocate(invocation, inner))
            for invocation in masked.restore(markdown.find_invocations(masked.text))
        )
    lists: list[Node | None] = [get(model, "base_args")]
    for section in _RECIPE_FRAGMENTS:
        for _key, entry in pairs(get(root, section)):
            lists.append(get(entry, "args"))
            lists.append(get(entry, "extra_args"))
    for node in lists:
        anchor = _first_item(frame, node)
        words = _list_words(frame, node, _DOLLAR)
        if anchor is not None and words:
            found.append(_start(words, anchor))
    return found


def _mask_fill_ins(text: str) -> Masked:
    """The guide with each fill-in replaced length for length by the placeholder, so the
    shell reads the commands after it; words that hold one get it back as unresolved."""
    spans = [match.span() for match in _FILL_IN.finditer(text)]
    if not spans:
        return Masked(text, text)
    out = list(text)
    for start, end in spans:
        out[start:end] = PLACEHOLDER * (end - start)
    return Masked(text, "".join(out), spans)


# -- srt-slurm ---------------------------------------------------------------------------


def _srt_slurm(frame: Frame, root: MappingNode) -> list[Invocation]:
    """`backend.vllm_config.<role>` of an srt-slurm recipe (`backend.type: vllm`): flag names
    without `--`; rendered by the external srtctl tool, assumed as `key: true` → `--key`,
    `false` and null dropped, a mapping or list → its JSON, anything else `str()`."""
    backend = get(root, "backend")
    kind = text_of(get(backend, "type"))
    config = get(backend, "vllm_config")
    if (kind is not None and kind.lower() != "vllm") or not isinstance(config, MappingNode):
        return []
    found: list[Invocation] = []
    for role in _SRT_ROLES:
        pair = get_pair(config, role)
        if pair is None or not isinstance(pair[1], MappingNode):
            continue
        words: list[Word] = []
        for key, value in pairs(pair[1]):
            name = value_of(key)
            loaded: Any = value_of(value)
            if not isinstance(name, str) or not name or loaded is None or loaded is False:
                continue
            flag = name if name.startswith("-") else "--" + name
            words.append(key_word(frame, key, flag))
            if loaded is True:
                continue
            if isinstance(loaded, (dict, list)):
                words.append(value_word(frame, value, json.dumps(loaded)))
            else:
                words.append(value_word(frame, value, str(loaded)))
        found.append(_start(words, node_span(frame, pair[0])))
    return found
