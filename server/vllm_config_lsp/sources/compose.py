"""vLLM starts in docker-compose files.

A service runs its image's entrypoint with `command:` appended, or its own `entrypoint:`
(which drops the image's) with `command:` appended; so a vLLM service is one whose image is
a vLLM image (`vllm/vllm-openai`, OPEA's `vllm-gaudi`…) or whose entrypoint/command starts
vLLM itself. The TEI and router services next to it, with `command: --model-id …`, are not.

A string `command:`/`entrypoint:` goes through two layers before the container sees it,
and both are emulated here with every character's position kept:

1. compose interpolation, on the loaded YAML string: `$$` is a literal `$` (for the
   container's shell), `${VAR}`, `${VAR:-default}`, `$VAR`… are replaced from the shell's
   environment, then from the `.env` file beside the compose file (`compose_env`): a
   reference the `.env` file settles holds its value (its characters on the reference,
   an `invocation.Fill` at the `.env` line), any other stays as written and unresolved;
2. splitting into argv by compose-go (`types/command.go` → `shellwords.Parse` from
   github.com/mattn/go-shellwords), not by a shell: a backslash escapes any next character
   even inside double quotes (so a folded `\\`+newline of a plain scalar becomes a space),
   `$` is literal, and parsing stops at an unquoted `;`, `&`, `|`, `<` or `>`.

What the argv runs (`/bin/bash -c "<script>"`, `python3 -m …api_server`) is then read as
any exec-form argv, the script by the shell source.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from yaml.nodes import MappingNode, Node, ScalarNode

from vllm_config_lsp.sources import compose_env, dockerfile, gpu_claims, shell
from vllm_config_lsp.sources.compose_env import Setting, reference_end, resolve
from vllm_config_lsp.sources.invocation import EnvVar, Fill, Invocation, Word, assignment
from vllm_config_lsp.sources.safe_read import read_text
from vllm_config_lsp.sources.yaml_hosts import (
    Frame,
    distinct_pairs,
    documents,
    env_mapping,
    get,
    items,
    node_span,
    pairs,
    scalar_word,
    text_of,
)

__all__ = ["find_invocations", "interpolate", "shellwords"]

_SOURCE = "compose"
#: Words split from a compose string are re-quoted the way a shell reads them.
_SPLIT = "compose"
_LIST = "yaml-list"
_VALUE = "yaml-value"
#: A Dockerfile a service builds from is read up to this size.
_MAX_DOCKERFILE_BYTES = 1 << 20


def find_invocations(text: str, path: Path | None = None) -> list[Invocation]:
    """Every vLLM start among the services of a compose file, in document order, with
    document offsets. `path` is where the file is on disk: a service `build:` from a
    Dockerfile there runs what that Dockerfile's image runs (`FROM vllm/vllm-openai`),
    and the `.env` file there fills the references it sets."""
    try:
        found: list[Invocation] = []
        frame = Frame(text)
        folder = path.parent if path is not None else None
        settings = compose_env.read(folder) if folder is not None and "$" in text else {}
        for root in documents(text):
            for _name, service in distinct_pairs(pairs(get(root, "services"))):
                if isinstance(service, MappingNode):
                    fills: list[Fill] = []
                    env = _Env(settings, fills)
                    claims = gpu_claims.compose(frame, service)
                    environ = _environment(frame, service, env)
                    is_open = get(service, "env_file") is not None
                    found.extend(
                        replace(
                            inv,
                            gpus=claims,
                            environ=environ + inv.environ,
                            environ_open=is_open or inv.environ_open,
                            fills=inv.fills + tuple(fills),
                        )
                        for inv in _service(frame, service, folder, env)
                    )
        return sorted(found, key=lambda invocation: invocation.start)
    except RecursionError:  # a MemoryError is reported (engine), never "no start"
        return []


@dataclass
class _Env:
    """What interpolation reads (the `.env` settings) and what it filled (`fills`, one per
    reference and setting it read)."""

    settings: dict[str, Setting]
    fills: list[Fill]


def _service(
    frame: Frame, service: MappingNode, folder: Path | None, env: _Env
) -> list[Invocation]:
    """One service: its own entrypoint + command, or the command after the image's (the
    image it builds, when it names a Dockerfile beside the file)."""
    image_node = get(service, "image")
    image = _image(image_node, env)
    entrypoint = _argv(frame, get(service, "entrypoint"), env)
    command = _argv(frame, get(service, "command"), env)
    anchor = node_span(frame, image_node) if image_node is not None else None
    runs: str | None = None
    build_node = get(service, "build")
    built = _built(build_node, folder) if folder is not None and build_node else None
    if built is not None and (command or entrypoint is not None):
        image, runs = built
        anchor = node_span(frame, build_node) if build_node is not None else anchor
    return shell.container_invocations(
        image,
        command or [],
        source=_SOURCE,
        entrypoint=entrypoint,  # replaces the image's entrypoint (and its CMD)
        anchor=anchor,
        runs=runs,
    )


def _built(build: Node, folder: Path) -> tuple[str, str] | None:
    """The base image and vLLM entrypoint of the image a `build:` makes (`build: ./dir`,
    or `context:` and `dockerfile:`), read from its Dockerfile (`dockerfile.built_image`);
    None when it names none on disk that starts vLLM."""
    if isinstance(build, ScalarNode):
        context, name = build.value, "Dockerfile"
    elif isinstance(build, MappingNode):
        context = text_of(get(build, "context")) or "."
        name = text_of(get(build, "dockerfile")) or "Dockerfile"
    else:
        return None
    if "$" in context + name or "://" in context:  # interpolated, or a remote context
        return None
    text = read_text(folder / context / name, _MAX_DOCKERFILE_BYTES)
    return dockerfile.built_image(text) if text is not None else None


def _environment(frame: Frame, service: MappingNode, env: _Env) -> tuple[EnvVar, ...]:
    """`environment:` as a mapping (`NAME: value`; no value passes the shell's through) or
    a list (`- NAME=value`, `- NAME`), values interpolated like `command:`."""
    node = get(service, "environment")

    def value_of(word: Word) -> Word:
        return interpolate(word, env.settings, fills=env.fills)

    if isinstance(node, MappingNode):
        return env_mapping(frame, node, "environment", value_of=value_of)
    found: list[EnvVar] = []
    for item in items(node):
        word = scalar_word(frame, item, _VALUE)
        if word is not None and word.text:
            found.append(assignment(value_of(word), "environment"))
    return tuple(found)


def _image(node: Node | None, env: _Env) -> str | None:
    """The image as compose resolves it when the shell sets none of its variables: from
    the `.env` file, else `${TAG:-latest}` becomes its default (other variables stay as
    written)."""
    if not isinstance(node, ScalarNode):
        return None
    word = Word(node.value, 0, len(node.value), (), ())
    return interpolate(word, env.settings, defaults=True).text


def _argv(frame: Frame, node: Node | None, env: _Env) -> list[Word] | None:
    """`command:`/`entrypoint:` as an argv: a list's items one per element (interpolated),
    a string split like compose splits it; None when the key is absent (`null` too)."""
    if node is None or (isinstance(node, ScalarNode) and node.tag.endswith(":null")):
        return None
    if isinstance(node, ScalarNode):
        word = scalar_word(frame, node, _SPLIT)
        if word is None:
            return []
        return shellwords(interpolate(word, env.settings, fills=env.fills))
    words: list[Word] = []
    for item in items(node):
        word = scalar_word(frame, item, _LIST)
        if word is not None:
            words.append(interpolate(word, env.settings, fills=env.fills))
    return words


# -- interpolation -----------------------------------------------------------------------


def _default(reference: str) -> str | None:
    """The default of `${VAR:-default}`/`${VAR-default}` (None for other forms)."""
    if not reference.startswith("${"):
        return None
    body = reference[2:-1]
    index = 0
    while index < len(body) and (body[index].isalnum() or body[index] == "_"):
        index += 1
    rest = body[index:]
    if rest.startswith(":-"):
        return rest[2:]
    if rest.startswith("-"):
        return rest[1:]
    return None


def interpolate(
    word: Word,
    settings: Mapping[str, Setting] | None = None,
    *,
    defaults: bool = False,
    fills: list[Fill] | None = None,
) -> Word:
    """Compose's interpolation of one string: `$$` → `$` (mapped to both characters);
    each `${…}`/`$VAR` the `.env` `settings` settle replaced by their value (each
    character on the whole reference; a `Fill` per setting read appended to `fills`),
    any other kept as written and listed as unresolved (or, with `defaults`, replaced by
    its `:-`/`-` default, for the image name)."""
    text = word.text
    if "$" not in text:
        return word
    mapped = len(word.starts) == len(text)
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    unresolved = list(word.unresolved)

    def take(index: int, char: str | None = None, last: int | None = None) -> None:
        chars.append(text[index] if char is None else char)
        if mapped:
            starts.append(word.starts[index])
            ends.append(word.ends[index if last is None else last])

    index = 0
    n = len(text)
    while index < n:
        if text[index] != "$":
            take(index)
            index += 1
            continue
        if index + 1 < n and text[index + 1] == "$":
            take(index, "$", index + 1)
            index += 2
            continue
        end = reference_end(text, index)
        if end == -1:
            take(index)
            index += 1
            continue
        reference = text[index:end]
        used: list[Setting] = []
        value = resolve(reference, settings, used) if settings else None
        if value is None and defaults:
            value = _default(reference)
            value = value if value is not None and "$" not in value else None
        if value is not None:
            for char in value:
                take(index, char, end - 1)
            if fills is not None and mapped:
                at, to = word.starts[index], word.ends[end - 1]
                fills.extend(_fill(setting, at, to) for setting in dict.fromkeys(used))
        else:
            for at in range(index, end):
                take(at)
            unresolved.append(reference)
        index = end
    return Word(
        "".join(chars),
        word.start,
        word.end,
        tuple(starts),
        tuple(ends),
        unresolved=tuple(dict.fromkeys(unresolved)),
        quoting=word.quoting,
        splat=word.splat,
    )


def _fill(setting: Setting, start: int, end: int) -> Fill:
    """The reference `start`..`end` holding the value of a `.env` setting."""
    return Fill(setting.name, start, end, start, end, setting.place)


# -- go-shellwords -----------------------------------------------------------------------


@dataclass
class _Pending:
    """The word being split: its characters, where each came from, and whether a quote
    or character was seen (so that `""` is an empty argument, as in go-shellwords)."""

    chars: list[str]
    sources: list[tuple[int, int]]  # (first, last) index in the split string, per char
    begin: int = -1
    finish: int = -1
    got: bool = False


def shellwords(word: Word) -> list[Word]:
    """`shellwords.Parse` (github.com/mattn/go-shellwords, shellwords.go) over one
    interpolated string, with positions: blanks (space, tab, CR, LF) separate words
    outside quotes; `'…'` is literal; `"…"` keeps blanks; a backslash outside single
    quotes escapes the next character (`\\t`/`\\n` become tab/newline); `$(…)` and
    backticks keep their blanks; an unquoted `;&|<>` ends the command line. A syntax
    error (unclosed quote, bare `(`) makes compose refuse the file; the words read up to
    it are still returned so that the editor has something to check."""
    text = word.text
    out: list[Word] = []
    pending = _Pending([], [])
    escaped = double = single = backquote = dollar = False
    references = _references(word)

    def add(char: str, first: int, last: int) -> None:
        if pending.begin == -1:
            pending.begin = first
        pending.chars.append(char)
        pending.sources.append((first, last))
        pending.finish = last
        pending.got = True

    def emit() -> None:
        nonlocal pending
        if pending.got:
            out.append(_word_from(word, pending, references))
        pending = _Pending([], [])

    for index, char in enumerate(text):
        if escaped:
            escaped = False
            if backquote or dollar:
                add("\\", index - 1, index)
                add(char, index - 1, index)
                continue
            add({"t": "\t", "n": "\n"}.get(char, char), index - 1, index)
            continue
        if char == "\\":
            if single:
                add(char, index, index)
            else:
                escaped = True
                if pending.begin == -1:
                    pending.begin = index
            continue
        if char in " \t\r\n":
            if single or double or backquote or dollar:
                add(char, index, index)
            else:
                emit()
            continue
        if char == "`" and not single and not double and not dollar:
            backquote = not backquote
        elif char == ")" and not single and not double and not backquote:
            if not dollar:
                break  # "invalid command line string"
            dollar = False
        elif char == "(" and not single and not double and not backquote:
            if not dollar and pending.chars and pending.chars[-1] == "$":
                dollar = True
            else:
                break  # "invalid command line string"
        elif char == '"' and not single and not dollar and not backquote:
            if pending.begin == -1:
                pending.begin = index
            pending.finish = index
            if double:
                pending.got = True
            double = not double
            continue
        elif char == "'" and not double and not dollar and not backquote:
            if pending.begin == -1:
                pending.begin = index
            pending.finish = index
            if single:
                pending.got = True
            single = not single
            continue
        elif char in ";&|<>" and not (single or double or backquote or dollar):
            if char == ">" and pending.chars and all(c.isdigit() for c in pending.chars):
                pending = _Pending([], [])  # `2>`: the digits are the redirection's
            break
        add(char, index, index)
    emit()
    return out


def _references(word: Word) -> list[str | None]:
    """For each character of the interpolated text, the unresolved reference it is part
    of (interpolation kept each reference verbatim, so they are found by their text)."""
    at: list[str | None] = [None] * len(word.text)
    for reference in word.unresolved:
        index = word.text.find(reference)
        while index != -1 and reference:
            for inside in range(index, index + len(reference)):
                if at[inside] is None:
                    at[inside] = reference
            index = word.text.find(reference, index + len(reference))
    return at


def _word_from(word: Word, pending: _Pending, references: list[str | None]) -> Word:
    """A split word in document offsets: each character maps to the span of the
    characters of the string that produced it (an escape's backslash included)."""
    mapped = len(word.starts) == len(word.text)

    def start(index: int) -> int:
        return word.starts[index] if mapped and index < len(word.starts) else word.start

    def end(index: int) -> int:
        return word.ends[index] if mapped and index < len(word.ends) else word.end

    begin = max(pending.begin, 0)
    finish = max(pending.finish, begin)
    found: dict[str, None] = {}
    for first, last in pending.sources:
        for index in (first, last):
            reference = references[index] if 0 <= index < len(references) else None
            if reference is not None:
                found[reference] = None
    unresolved = tuple(found)
    return Word(
        "".join(pending.chars),
        start(begin),
        end(finish),
        tuple(start(first) for first, _ in pending.sources),
        tuple(end(last) for _, last in pending.sources),
        unresolved=unresolved,
        quoting=_SPLIT,
    )
