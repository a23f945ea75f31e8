"""Edits to a command line in its host's own syntax: rename an option, remove a flag with
its values, without breaking the quoting, the `\\` continuations or the
YAML list around the words.

Words know where each of their characters was written (`Word.source_range`), so an edit
inside a word touches only the characters that wrote the part it changes, whatever quotes
surround them; removing whole words deletes from the first word to the next word kept
(or from the last word kept), so a continuation line or a list item goes with its words.
"""

from __future__ import annotations

import re
import shlex

from vllm_config_lsp.findings import TextEdit
from vllm_config_lsp.sources.invocation import Invocation, Word

_SAFE_YAML_PLAIN = re.compile(r"^[\w./:=,@+-]+$")


def rename_option(word: Word, new_option: str) -> TextEdit:
    """`--swap_space=4` → `--new-name=4`: only the option part of the word changes."""
    option = word.text.split("=", 1)[0]
    start, end = word.source_range(0, len(option))
    return TextEdit(start, end, new_option)


def quote(text: str, quoting: str) -> str:
    if quoting.startswith("yaml"):
        return text if _SAFE_YAML_PLAIN.match(text) else "'" + text.replace("'", "''") + "'"
    if quoting == "python":
        return text.replace("\\", "\\\\").replace('"', '\\"')
    return shlex.quote(text)


def remove_words(invocation: Invocation, first: Word, last: Word) -> TextEdit:
    """Remove the words `first`…`last` of the invocation and the space that separated
    them from the words kept."""
    args = invocation.args
    at = next(i for i, word in enumerate(args) if word is first)
    end = next(i for i, word in enumerate(args) if word is last)
    if end + 1 < len(args):
        return TextEdit(first.start, args[end + 1].start, "")
    if at > 0:
        return TextEdit(args[at - 1].end, last.end, "")
    return TextEdit(first.start, last.end, "")
