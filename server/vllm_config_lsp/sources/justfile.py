"""vLLM starts in a justfile's recipes (`just`, casey/just), read as the shell text just
runs, the way `sources.makefile` reads a Makefile's.

A recipe is a header line at the left margin (`name param="default" +args: deps`, after
any `[attribute]` lines) and the indented lines under it; the other lines at the margin are
settings, assignments (`NAME := …`), `import`s, aliases and comments, and start nothing.
What just does to a body before the shell sees it is done here, with the document offset
of every character kept (`SourceMap`):

* the body's indentation goes; so do a line's `@` and `-` prefixes;
* a linewise recipe runs each line in its own shell, a line ending in `\\` running on
  with the next; a recipe whose first line is a shebang (`#!/usr/bin/env bash`) is one
  script;
* `{{ expression }}` is just's and is unresolved here: the shell reads it as one word
  (or part of one) and that word lists it as unresolved; `{{{{` is a literal `{{`.

A recipe line `just NAME args…` that calls a recipe of the same file whose body ends in its
variadic parameter (`uvx-vllm +args:` running `uvx --with vllm … {{args}}`) runs `args…` as
that recipe's command: the start is read there, with the release the recipe installs
(`--with 'vllm==0.8.4'`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from vllm_config_lsp.sources import shell
from vllm_config_lsp.sources.invocation import Invocation
from vllm_config_lsp.sources.source_map import SourceMap
from vllm_config_lsp.sources.yaml_hosts import Masked

__all__ = ["find_invocations"]

_SOURCE = "justfile"
#: A recipe that starts vLLM names it or a container runtime (as `shell` looks for).
_STARTERS = ("vllm", "docker", "podman")
_NOT_RECIPE = re.compile(r"(?:set|import|mod|alias|export|unexport)\b|#|\[|[A-Za-z_][\w-]*\s*:=")
_HEADER = re.compile(r"@?(?P<name>[A-Za-z_][\w-]*)(?P<params>[^:]*?)\s*:(?!=)")
_VARIADIC = re.compile(r"[+*]\$?(?P<name>[A-Za-z_][\w-]*)")
_INTERPOLATION = re.compile(r"\{\{(?!\{)(?:[^}]|\}(?!\}))*\}\}")


@dataclass
class _Recipe:
    """A recipe's name, its variadic parameter, and its body lines (start, end of each,
    from the first character past the body's indentation)."""

    name: str
    variadic: str | None
    lines: list[tuple[int, int]] = field(default_factory=list)

    def shebang(self, text: str) -> bool:
        return bool(self.lines) and text.startswith("#!", self.lines[0][0])


@dataclass
class _Script:
    """Shell text and the document span of each of its characters."""

    text: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)

    def add(self, text: str, start: int) -> None:
        for index, char in enumerate(text):
            self.text.append(char)
            self.starts.append(start + index)


def find_invocations(text: str) -> list[Invocation]:
    """Every vLLM start in the justfile's recipes, with document offsets."""
    if not any(starter in text for starter in _STARTERS):
        return []
    recipes = list(_recipes(text))
    wrappers = {r.name: r for r in recipes if r.variadic and _ends_in(text, r, r.variadic)}
    found: list[Invocation] = []
    for recipe in recipes:
        for script in _scripts(text, recipe):
            found.extend(_starts(text, script, wrappers))
    return found


def _starts(text: str, script: _Script, wrappers: dict[str, _Recipe]) -> list[Invocation]:
    source = "".join(script.text)
    pinned = None
    for match in re.finditer(r"(?<![\w-])just\s+(?P<name>[A-Za-z_][\w-]*)", source):
        wrapper = wrappers.get(match.group("name"))
        if wrapper is not None:  # its command is the words after the call
            source = source[: match.start()] + " " * len(match.group(0)) + source[match.end() :]
            pinned = pinned or _wrapper_pin(text, wrapper)
    if not any(starter in source for starter in _STARTERS):
        return []
    spans = [m.span() for m in _INTERPOLATION.finditer(source)]
    masked_text = _INTERPOLATION.sub(lambda m: "_" * len(m.group(0)), source)
    masked = Masked(source, masked_text, spans)
    to_document = SourceMap.of_positions(script.starts)
    return [
        replace(start, pinned_version=start.pinned_version or pinned)
        for invocation in masked.restore(shell.find_invocations(masked_text, source=_SOURCE))
        for start in [to_document.invocation(invocation)]
    ]


def _wrapper_pin(text: str, wrapper: _Recipe) -> str | None:
    """The release the wrapper runs its command with: what its body installs (`pip install
    vllm==X`), or what a vLLM start in place of its parameter would get (`uvx --with
    'vllm==X' {{args}}`)."""
    lines = wrapper.lines[1:] if wrapper.shebang(text) else wrapper.lines
    body = "\n".join(text[start:end] for start, end in lines)
    called = re.sub(
        r"\{\{\s*" + re.escape(wrapper.variadic or "") + r"\s*\}\}", "vllm serve _", body
    )
    called = _INTERPOLATION.sub(lambda m: "_" * len(m.group(0)), called)
    pins = [start.pinned_version for start in shell.find_invocations(called)]
    return shell.pinned_version(body) or next((pin for pin in pins if pin), None)


def _recipes(text: str) -> Iterator[_Recipe]:
    recipe: _Recipe | None = None
    indent: str | None = None
    at = 0
    while at < len(text):
        newline = text.find("\n", at)
        end = len(text) if newline == -1 else newline
        line = text[at:end].rstrip("\r")
        if line.strip() and line[0] in " \t":
            if recipe is not None:
                if indent is None:
                    indent = line[: len(line) - len(line.lstrip(" \t"))]
                skip = len(indent) if line.startswith(indent) else 0
                recipe.lines.append((at + skip, at + len(line)))
        elif line.strip():
            if recipe is not None:
                yield recipe
            recipe, indent = _header(line), None
        at = end + 1
    if recipe is not None:
        yield recipe


def _header(line: str) -> _Recipe | None:
    if _NOT_RECIPE.match(line):
        return None
    match = _HEADER.match(line)
    if match is None:
        return None
    variadic = _VARIADIC.search(match.group("params"))
    return _Recipe(match.group("name"), variadic.group("name") if variadic else None)


def _ends_in(text: str, recipe: _Recipe, parameter: str) -> bool:
    """The recipe's last line ends by running its variadic parameter (`… {{args}}`)."""
    if not recipe.lines:
        return False
    start, end = recipe.lines[-1]
    return (
        re.search(r"\{\{\s*" + re.escape(parameter) + r"\s*\}\}\s*$", text[start:end]) is not None
    )


def _scripts(text: str, recipe: _Recipe) -> Iterator[_Script]:
    """One script for a shebang recipe (its lines after the shebang); one per logical
    line (a `\\`-ended line running on) for a linewise one, its `@`/`-` prefixes gone."""
    if recipe.shebang(text):
        script = _Script()
        for start, end in recipe.lines[1:]:
            script.add(text[start:end] + "\n", start)
        yield script
        return
    script = _Script()
    for start, end in recipe.lines:
        line = text[start:end]
        if not script.text:
            stripped = line.lstrip("@-")
            start, line = start + len(line) - len(stripped), stripped
        script.add(line + "\n", start)
        if not line.endswith("\\"):
            yield script
            script = _Script()
    if script.text:
        yield script
