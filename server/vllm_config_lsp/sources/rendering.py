"""Edits to a command line in its host's own syntax: rename an option, remove a flag with
its values, without breaking the quoting, the `\\` continuations or the
YAML list around the words.

Words know where each of their characters was written (`Word.source_range`), so an edit
inside a word touches only the characters that wrote the part it changes, whatever quotes
surround them; removing whole words deletes from the first word to the next word kept
(or from the last word kept), so a continuation line or a list item goes with its words.
A flag that a host derives from an engine-argument key (`sources.engine_kwargs`: quoting
`yaml-field`, `json-field`; its values `…-field-value`) is renamed by writing the new field
name over the key, and removed with its values.
"""

from __future__ import annotations

import json
import re
import shlex

from vllm_config_lsp.findings import TextEdit
from vllm_config_lsp.sources.invocation import Invocation, Word

_SAFE_YAML_PLAIN = re.compile(r"^[\w./:=,@+-]+$")
#: A Makefile recipe's words: shell text that make reads first, expanding every `$` it
#: does not see doubled (`$$` is one shell `$`; `sources.makefile`).
MAKE = "make"
#: The quotings of words the shell reads (a recipe's included).
SHELL_QUOTINGS = frozenset({"shell", MAKE})
#: Quoting suffixes of an engine-argument key (`<syntax>-field`) and of its values.
FIELD = "-field"
FIELD_VALUE = "-field-value"
_LIST = "yaml-list"


def rename_option(word: Word, new_option: str) -> TextEdit:
    """`--swap_space=4` → `--new-name=4`: only the option part of the word changes. A key
    that names an engine argument becomes the new field (`--max-model-len` →
    `max_model_len`), written as a key of its host."""
    option = word.text.split("=", 1)[0]
    start, end = word.source_range(0, len(option))
    if word.quoting.endswith(FIELD):
        return TextEdit(start, end, quote(new_option.lstrip("-").replace("-", "_"), word.quoting))
    return TextEdit(start, end, new_option)


def quote(text: str, quoting: str) -> str:
    """`text` as one word of the host: a YAML plain or single-quoted scalar, a JSON string,
    a Python string literal's content, or a shell word."""
    if quoting.startswith("json"):
        return json.dumps(text)
    if quoting.startswith("yaml"):
        return text if _SAFE_YAML_PLAIN.match(text) else "'" + text.replace("'", "''") + "'"
    if quoting == "python":
        return text.replace("\\", "\\\\").replace('"', '\\"')
    return in_host(shlex.quote(text), quoting)


def in_host(shell_text: str, quoting: str) -> str:
    """Shell text as a host of `quoting` writes it: a Makefile recipe doubles every `$`,
    so that make hands the shell the text (`'$HOME'` is written `'$$HOME'`)."""
    return shell_text.replace("$", "$$") if quoting == MAKE else shell_text


def remove_words(invocation: Invocation, first: Word, last: Word) -> TextEdit:
    """Remove the words `first`…`last` of the invocation and the space that separated
    them from the words kept. Words of engine-argument entries go by whole entries: a key
    takes its values, a value its key (a JSON or YAML key cannot stay without a value)."""
    args = invocation.args
    at, end = invocation.positions[id(first)], invocation.positions[id(last)]
    if first.quoting.endswith(FIELD_VALUE):
        while at > 0 and not args[at].quoting.endswith(FIELD):
            at -= 1
    if args[end].quoting.endswith((FIELD, FIELD_VALUE)):
        while end + 1 < len(args) and args[end + 1].quoting.endswith(FIELD_VALUE):
            end += 1
    first, last = args[at], args[end]
    if end + 1 < len(args):
        return TextEdit(first.start, args[end + 1].start, "")
    if at > 0:
        return TextEdit(args[at - 1].end, last.end, "")
    return TextEdit(first.start, last.end, "")


def append_words(text: str, invocation: Invocation, words: list[str]) -> TextEdit | None:
    """`words` added after the command line's last word, in its host's syntax: ` --a b`
    on a shell line (a `sh -c` string included), one `- item` line each below the last
    item of a block YAML list. None where the last word sits in another syntax (a flow
    list, a Python list, JSON, an engine-argument mapping)."""
    if not invocation.args:
        return None
    last = invocation.args[-1]
    if last.quoting in SHELL_QUOTINGS and last.resolved:
        return TextEdit(last.end, last.end, "".join(" " + quote(w, last.quoting) for w in words))
    if last.quoting == _LIST:
        line_start = text.rfind("\n", 0, last.start) + 1
        prefix = text[line_start : last.start]
        if prefix.strip() != "-":
            return None
        added = "".join(f"\n{prefix}{quote(word, _LIST)}" for word in words)
        return TextEdit(last.end, last.end, added)
    return None
