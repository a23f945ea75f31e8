"""vLLM starts in templates, read as the format under them with every template span
unresolved.

A template (`.tpl`, `.tmpl`, `.gotmpl`, `.j2`/`.jinja`/`.jinja2`, an envsubst `.template`,
Terraform's `.tftpl`, `.mustache`) is the file it renders to with holes in it: the name
under the suffix says which (`deploy.yaml.tpl`, `cerebrium.toml.tpl`, `Dockerfile.j2`,
`run.sh.j2`), else the content does (a Kubernetes object, a `#!` script). The holes are
found here and replaced length for length (`yaml_hosts.mask_actions`), so every offset still
indexes the template: a Jinja or Go action (`{{ … }}`, `{% … %}`, `{# … #}`), a Terraform
interpolation or directive (`${ … }`, `%{ … }`), an envsubst `${VAR}`, a Python
`str.format` field (`{name}`). An expression becomes the placeholder (a word of the format
under it, outside quotes too: `{eager_flag}` before a TOML `]`), a control action or an
action alone on its line becomes blanks; the host of the format under the template reads
the result, and each word that holds a hole gets its template text back as unresolved.

The branches of an `if` (`{% if %}`/`{% elif %}`/`{% else %}`, `{{- if }}`/`{{- else }}`,
`%{ if }`) are all in the file, and only one of them renders: the file is read once per
branch (the n-th reading keeps the n-th branch of every `if`, or its last; eight readings at
most), and a start read the same way twice is kept once. Two exclusive branches never meet
in one command line, so a flag set in both is no conflict.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from vllm_config_lsp.sources.invocation import Invocation
from vllm_config_lsp.sources.yaml_hosts import (
    PLACEHOLDER,
    Masked,
    action_end,
    braced_end,
    mask_actions,
)

__all__ = ["find_invocations", "inner_name", "template_text"]

#: A `str.format` field: `{name}`, `{name.attr}`, `{name[0]}`, `{name!r:>10}`; not `{{`,
#: `${`, `%{` (an escaped brace, a shell or Terraform reference).
_FORMAT_FIELD = re.compile(
    r"(?<![{$%])\{[A-Za-z_]\w*(?:\.\w+|\[[^\]{}\n]*\])*(?:![rsa])?(?::[^{}\n]*)?\}(?!\})"
)
_ENVSUBST = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*\}")
#: The first word of an action's body (after `-`/`+`/`~` whitespace control).
_KEYWORD = re.compile(r"[-+~\s]*(else\s+if|[A-Za-z_/#^*][\w*]*)")
#: Go blocks closed by `{{ end }}` like an `if`.
_GO_BLOCKS = frozenset({"range", "with", "define", "block"})
_GO_CONTROL = frozenset({"template", "break", "continue"})
#: Readings at most (an `if` with more branches is read in its first ones): each reading
#: runs the host under the template on the whole text.
_MAX_READINGS = 8
#: The hosts whose lines run on over a `\\` continuation: a line a template action takes
#: away must not end one (`_variants`).
_JOINED = frozenset({"shell", "dockerfile"})
#: The suffixes whose templates use Python's `str.format` fields (`{name}`).
_FORMAT_SUFFIXES = frozenset({".tpl", ".tmpl", ".template"})


@dataclass(frozen=True)
class _Action:
    start: int
    end: int
    #: "expr", "control", "if", "branch", "endif", "open" (a Go block), "end" (Go's end).
    kind: str


def inner_name(name: str) -> str:
    """The file name the template renders to: its template suffixes taken off."""
    from vllm_config_lsp.sources.association import TEMPLATE_SUFFIXES

    inner = name
    while True:
        suffix = PurePosixPath(inner).suffix.lower()
        if suffix not in TEMPLATE_SUFFIXES or suffix == inner.lower():
            return inner
        inner = inner[: -len(suffix)]


def template_text(name: str, text: str) -> Masked:
    """The template's text with every hole replaced (every branch kept): what tells the
    format under it."""
    actions = _actions(name, text)
    return mask_actions(text, [(a.start, a.end, a.kind != "expr") for a in actions])


def find_invocations(
    text: str,
    path: Path | None,
    *,
    inner_host: Callable[[str, str], str | None],
    read: Callable[[str, str, Path | None], list[Invocation]],
) -> list[Invocation]:
    """Every vLLM start the template renders, with offsets into the template: the host
    `inner_host` names for the file under it reads each branch's text (`read`, the hosts'
    dispatch, handed in by `sources.hosts`)."""
    name = path.name if path is not None else ""
    inner = path.with_name(inner_name(path.name)) if path is not None else None
    kind = inner_host(inner.as_posix() if inner is not None else "", template_text(name, text).text)
    if kind is None:
        return []
    seen: set[tuple[int, tuple[tuple[int, int], ...]]] = set()
    found: list[Invocation] = []
    for masked in _variants(name, text, join=kind in _JOINED, expand=kind == "shell"):
        for invocation in masked.restore(read(kind, masked.text, inner)):
            key = (invocation.start, tuple((w.start, w.end) for w in invocation.args))
            if key not in seen:
                seen.add(key)
                found.append(invocation)
    return found


def _variants(name: str, text: str, *, join: bool, expand: bool = False) -> list[Masked]:
    """One reading per branch index (at least one), each with its holes replaced. `join`:
    a line the masking left blank goes with its line break (as Ansible's `trim_blocks` and
    Go's `{{-` render it), so a shell continuation runs on over a `{% if %}` line.
    `expand`: each expression's placeholder starts with `$`, so the shell reads it as the
    expansion of unknown text it is (`docker run {{ gpu_flags }} IMAGE` has options in
    front of the image, not an image named by the hole)."""
    actions = _actions(name, text)
    base = mask_actions(text, [(a.start, a.end, a.kind != "expr") for a in actions])
    if expand:
        dollars = list(base.text)
        for start, end in base.spans:
            if end - start > 1 and dollars[start] == PLACEHOLDER:
                dollars[start] = "$"
        base = Masked(text, "".join(dollars), base.spans)
    chains = _chains(actions)
    variants: list[Masked] = []
    for index in range(min(max((len(chain) for chain in chains), default=1), _MAX_READINGS)):
        out = list(base.text)
        for chain in chains:
            keep = min(index, len(chain) - 1)
            for branch, (start, end) in enumerate(chain):
                if branch != keep:
                    for at in range(start, end):
                        if out[at] not in "\r\n":
                            out[at] = " "
        if join:
            _join_vanished(text, out)
        variants.append(Masked(text, "".join(out), base.spans))
    return variants


def _join_vanished(original: str, out: list[str]) -> None:
    """Blank out the line break of every line that had text and has none left."""
    line_start = 0
    for index, char in enumerate(original):
        if char != "\n":
            continue
        if original[line_start:index].strip() and not "".join(out[line_start:index]).strip():
            out[index] = " "
            if index > line_start and out[index - 1] == "\r":
                out[index - 1] = " "
        line_start = index + 1


def _chains(actions: list[_Action]) -> list[list[tuple[int, int]]]:
    """The branches of each `if` (the text between its actions), innermost first."""
    chains: list[list[tuple[int, int]]] = []
    #: Open blocks: an `if` with its branches so far and where the current one starts,
    #: or a Go block (None) that a Go `end` closes instead.
    stack: list[tuple[list[tuple[int, int]], int] | None] = []
    for action in actions:
        if action.kind == "if":
            stack.append(([], action.end))
        elif action.kind == "open":
            stack.append(None)
        elif action.kind == "branch" and stack and stack[-1] is not None:
            branches, since = stack[-1]
            branches.append((since, action.start))
            stack[-1] = (branches, action.end)
        elif action.kind in ("endif", "end") and stack:
            top = stack.pop()
            if top is None:
                continue
            branches, since = top
            branches.append((since, action.start))
            if len(branches) > 1:
                chains.append(branches)
    return chains


def _actions(name: str, text: str) -> list[_Action]:
    """Every hole of the template, in order, none inside another."""
    suffixes = {suffix.lower() for suffix in PurePosixPath(name).suffixes}
    terraform = ".tftpl" in suffixes
    fields = bool(suffixes & _FORMAT_SUFFIXES)
    found: list[_Action] = []
    index = 0
    while True:
        brace = text.find("{", index)
        if brace == -1:
            return found
        index = brace + 1
        opener = text[brace : brace + 2]
        if opener in ("{{", "{%", "{#"):
            close = {"{{": "}}", "{%": "%}", "{#": "#}"}[opener]
            end = action_end(text, brace + 2, close, "" if opener == "{#" else "\"'")
            if end == -1:
                return found
            kind = "control" if opener == "{#" else _kind(text[brace + 2 : end - 2], opener)
            found.append(_Action(brace, end, kind))
            index = end
            continue
        mark = brace - 1
        if mark >= 0 and text[mark] in "$%":
            if mark > 0 and text[mark - 1] == text[mark]:
                continue  # `$${`, `%%{`: a literal
            if terraform:
                end = braced_end(text, brace + 1)
                if end != -1:
                    body = text[brace + 1 : end - 1]
                    kind = "expr" if text[mark] == "$" else _kind(body, "%{")
                    found.append(_Action(mark, end, kind))
                    index = end
            elif text[mark] == "$":
                match = _ENVSUBST.match(text, mark)
                if match is not None:
                    found.append(_Action(mark, match.end(), "expr"))
                    index = match.end()
            continue
        if fields:
            match = _FORMAT_FIELD.match(text, brace)
            if match is not None:
                found.append(_Action(brace, match.end(), "expr"))
                index = match.end()


def _kind(body: str, opener: str) -> str:
    """What an action is, by its first word: Jinja's `{% %}` and Terraform's `%{ }` are
    control but for an `if` chain's; Go's `{{ }}` is an expression but for its keywords."""
    match = _KEYWORD.match(body)
    word = re.sub(r"\s+", " ", match.group(1)) if match is not None else ""
    if word == "if":
        return "if"
    if word in ("elif", "else", "else if"):
        return "branch"
    if word == "endif":
        return "endif"
    if opener != "{{":
        return "control"
    if word == "end":
        return "end"
    if word in _GO_BLOCKS:
        return "open"
    if word in _GO_CONTROL or (word and word[0] in "/#^"):
        return "control"
    return "expr"
