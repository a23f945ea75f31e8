"""vLLM starts in Makefile recipes, read as the shell text make hands to `/bin/sh`.

A recipe line is a line that starts with the recipe prefix (a tab, or the first character of
`.RECIPEPREFIX`) inside a rule's context: after a rule line (`target: prerequisites`), with
blank lines, comment lines and conditionals (`ifeq`/`else`/`endif`) not ending it, and any
other make line (a variable assignment, an `include`) ending it. What make does to such a
line before the shell sees it is done here, with the document offset of every character
kept (`SourceMap`):

* the prefix goes, and so do the `@`, `-` and `+` prefixes and the blanks around them;
* a `\\`-newline stays (the shell reads it as a continuation, or as text inside single
  quotes), and the recipe prefix at the start of the next line goes;
* `$$` is one shell `$`; `$(VAR)`, `${VAR}` and `$X` are make's and are kept as written,
  so the shell reads them as expansions, and every word that holds one lists it as
  unresolved (inside single quotes too: make expands them before any quoting);
* each logical line is its own shell (`.ONESHELL:` makes a whole recipe one script).

A fix writes the shell text make must hand over: every `$` it inserts is written `$$`
(`sources.rendering.MAKE`).

A variable assignment (`CMD = vllm serve …`) is not a recipe and starts nothing; a `define`
block is a variable too. The shell text goes to `sources.shell`, which finds the starts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from vllm_config_lsp.sources import shell
from vllm_config_lsp.sources.invocation import Invocation
from vllm_config_lsp.sources.rendering import MAKE
from vllm_config_lsp.sources.source_map import SourceMap
from vllm_config_lsp.sources.yaml_hosts import Masked

__all__ = ["find_invocations"]

#: A recipe that starts vLLM names it or a container runtime (as `shell` looks for).
_STARTERS = ("vllm", "docker", "podman")
_DIRECTIVE = re.compile(r"(?:ifn?eq|ifn?def|else|endif)\b")
_DEFINE = re.compile(r"(?:(?:override|export|private)\s+)*define\b")
_ENDEF = re.compile(r"endef\b")
_NOT_RULE = re.compile(
    r"(?:-?include|sinclude|vpath|export|unexport|override|undefine|private|load)\b"
)
_RECIPEPREFIX = re.compile(r"\.RECIPEPREFIX\s*(?::{0,2}=|\?=|\+=|=)[ \t]*(\S?)")
_ONESHELL = re.compile(r"^\.ONESHELL\s*:", re.M)
#: Single-character make variables the shell reads as an expansion as they are
#: (`$@`, `$*`, `$?`, `$X`); the others (`$<`, `$^`, `$+`, `$%`, `$|`) get the shell's `$_`.
_SHELL_READS = re.compile(r"[@*?A-Za-z0-9_]")


@dataclass
class _Script:
    """Shell text, the document span of each of its characters, and the spans (in the
    text) of the make references it holds."""

    text: list[str] = field(default_factory=list)
    #: The make text of each character where it differs (`$<` reads as the shell's `$_`).
    written: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    ends: list[int] = field(default_factory=list)
    references: list[tuple[int, int]] = field(default_factory=list)

    def add(self, char: str, start: int, end: int, written: str | None = None) -> None:
        self.text.append(char)
        self.written.append(char if written is None else written)
        self.starts.append(start)
        self.ends.append(end)


def find_invocations(text: str) -> list[Invocation]:
    """Every vLLM start in the Makefile's recipes, with document offsets."""
    found: list[Invocation] = []
    for script in _scripts(text):
        source = "".join(script.text)
        if not any(starter in source for starter in _STARTERS):
            continue
        masked = Masked("".join(script.written), source, script.references)
        to_document = SourceMap.of_positions(script.starts, script.ends)
        for invocation in masked.restore(shell.find_invocations(source, source="makefile")):
            found.append(_in_recipe(to_document.invocation(invocation)))
    return found


def _in_recipe(invocation: Invocation) -> Invocation:
    """The start with its shell words marked as a recipe's (`rendering.MAKE`): a fix that
    writes a `$` there writes `$$`, which make hands the shell as one `$`."""
    args = [replace(w, quoting=MAKE) if w.quoting == "shell" else w for w in invocation.args]
    return replace(invocation, args=args)


def _scripts(text: str) -> Iterator[_Script]:
    """The shell script of each recipe line (of each recipe, under `.ONESHELL`)."""
    oneshell = _ONESHELL.search(text) is not None
    recipe: list[tuple[int, int]] = []  # (start, end) of each logical recipe line
    for kind, start, end in _logical_lines(text):
        if kind == "recipe":
            recipe.append((start, end))
            continue
        if kind == "end" and recipe:
            yield from _recipe_scripts(text, recipe, oneshell)
            recipe = []
    if recipe:
        yield from _recipe_scripts(text, recipe, oneshell)


def _recipe_scripts(text: str, lines: list[tuple[int, int]], oneshell: bool) -> Iterator[_Script]:
    if not oneshell:
        for start, end in lines:
            script = _Script()
            _recipe_line(text, start, end, script)
            yield script
        return
    script = _Script()
    for index, (start, end) in enumerate(lines):
        if index:
            script.add("\n", start - 1, start)
        _recipe_line(text, start, end, script)
    yield script


def _logical_lines(text: str) -> Iterator[tuple[str, int, int]]:
    """(kind, start, end) of each logical line that matters: "recipe" (its text from the
    recipe prefix on, continuation lines included), "end" (a make line that ends the rule's
    context). `start` of a recipe line is just past its prefix."""
    prefix = "\t"
    in_rule = False
    in_define = 0
    at = 0
    n = len(text)
    while at < n:
        end = _logical_end(text, at)
        line = text[at:end]
        stripped = line.strip()
        if in_define:
            if _ENDEF.match(stripped):
                in_define -= 1
            elif _DEFINE.match(stripped):
                in_define += 1
        elif in_rule and line.startswith(prefix):
            yield "recipe", at + len(prefix), end
        elif not stripped or stripped.startswith("#") or _DIRECTIVE.match(stripped):
            pass
        elif _DEFINE.match(stripped):
            in_define = 1
            in_rule = False
            yield "end", at, end
        else:
            recipe_prefix = _RECIPEPREFIX.match(stripped)
            if recipe_prefix is not None:
                prefix = recipe_prefix.group(1) or "\t"
            inline = _rule_recipe(line)
            in_rule = inline is not None
            yield "end", at, end
            if inline is not None and inline >= 0 and "\\\n" not in line:
                yield "recipe", at + inline, end
                yield "end", end, end
        at = _next_line(text, end)
    return


def _logical_end(text: str, at: int) -> int:
    """End of the logical line at `at` (before its newline): `\\`-newline continues it."""
    while True:
        newline = text.find("\n", at)
        if newline == -1:
            return len(text)
        back = newline - 1
        if back >= 0 and text[back] == "\r":
            back -= 1
        count = 0
        while back >= 0 and text[back] == "\\":
            count += 1
            back -= 1
        if count % 2 == 0:
            return newline - 1 if newline and text[newline - 1] == "\r" else newline
        at = newline + 1


def _next_line(text: str, end: int) -> int:
    newline = text.find("\n", end)
    return len(text) if newline == -1 else newline + 1


def _rule_recipe(line: str) -> int | None:
    """None when the make line is not a rule; else where its inline recipe (`target: ;
    recipe`) starts in the line, or -1 without one."""
    stripped = line.lstrip()
    if _NOT_RULE.match(stripped):
        return None
    depth = 0
    colon = -1
    for index, char in enumerate(line):
        if char in "({":
            depth += 1
        elif char in ")}" and depth:
            depth -= 1
        elif depth:
            continue
        elif char == "#":
            return None if colon < 0 else -1
        elif char in "=!?+" and colon < 0:
            if char == "=" or line.startswith("=", index + 1):
                return None  # `VAR = …`, `VAR ?= …`, `VAR += …`, `VAR != …`
        elif char == ":" and colon < 0:
            if line.startswith(("=", ":="), index + 1):
                return None  # `VAR := …`, `VAR ::= …`
            colon = index
        elif char == ";" and colon >= 0:
            return index + 1
    return -1 if colon >= 0 else None


def _recipe_line(text: str, start: int, end: int, out: _Script) -> None:
    """One logical recipe line as the shell gets it, appended to `out`."""
    at = start
    while at < end and text[at] in "@-+ \t":
        at += 1
    while at < end:
        char = text[at]
        if char == "\\" and at + 1 < end and text[at + 1] in "\r\n":
            out.add("\\", at, at + 1)
            at += 1
            if text[at] == "\r":
                at += 1
            out.add("\n", at, at + 1)
            at += 1
            if at < end and text[at] == "\t":
                at += 1  # the recipe prefix of a continuation line
            continue
        if char != "$" or at + 1 >= end:
            out.add(char, at, at + 1)
            at += 1
            continue
        after = text[at + 1]
        if after == "$":
            out.add("$", at, at + 2)
            at += 2
        elif after in "({":
            close = _reference_end(text, at + 1, end)
            first = len(out.text)
            for index in range(at, close):
                out.add(text[index], index, index + 1)
            out.references.append((first, len(out.text)))
            at = close
        else:
            first = len(out.text)
            out.add("$", at, at + 1)
            out.add(after if _SHELL_READS.match(after) else "_", at + 1, at + 2, after)
            out.references.append((first, first + 2))
            at += 2


def _reference_end(text: str, at: int, end: int) -> int:
    """End of the make reference whose opening bracket is at `at` (brackets of its kind
    nest, as make counts them); the line's end when it never closes."""
    opening = text[at]
    closing = ")" if opening == "(" else "}"
    depth = 0
    index = at
    while index < end:
        char = text[index]
        if char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return end
