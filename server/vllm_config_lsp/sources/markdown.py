"""vLLM server starts in Markdown recipes: the shell in fenced and indented code blocks.

Docs and READMEs are where most real command lines live, but only their code blocks are
commands: prose names flags in backticks (`--max-model-len`) and must stay prose. The blocks
come from markdown-it-py (a CommonMark parser with line maps), never from a regex over fences,
because list items, block quotes and mkdocs tabs change what counts as a fence and how much
indentation its content loses. markdown-it hands back each block's content with that
indentation removed; every content line is mapped back to its document line and column by
checking it against the document text, so a flag found in a block lands on the character the
user wrote. Blocks whose text cannot be matched this way are skipped rather than mis-placed.

Two things the CommonMark grammar does not know are read here on purpose:

* mkdocs-material containers (`=== "Tab"`, `!!! note`, `??? tip`): their indented bodies
  parse as indented code, so a code block right after such a marker is parsed again as
  Markdown (its fences are the commands, its prose is not);
* MyST directives written as fences (```` ```{note} ````): their bodies are Markdown too;
  ```` ```{code-block} bash ```` is a bash block.

YAML blocks (Kubernetes manifests, KubeAI models, compose files, workflows, dstack services
shown in a doc) also start vLLM, but through a YAML host: a ```` ```yaml ```` block, or an
untagged one whose text is a mapping such a host reads, is handed to that host (chosen by its
top-level keys, as `hosts` chooses for a file), and every character the host places in the
block's text is moved to the document through the block's line map.

A ```` ```toml ```` block (a `cerebrium.toml`, a launcher's TOML job shown in a doc) is read
by the TOML host (`sources.toml_file`) the same way, and so are the blocks of the other hosts
a fence names: ```` ```python ```` (and `py`, `ipython3`, MyST's ```` ```{code-cell} python
````) by the IPython reader (`sources.ipython`: Python, with `!vllm serve …` lines and
`%%bash` cells as shell, as a notebook cell is read), ```` ```dockerfile ```` by the
Dockerfile host, ```` ```makefile ```` by the Makefile host. A shell block with a line
that starts with `!` (`!pip install vllm`, `!vllm serve …`) is a notebook cell shown as
shell, and is read as the IPython cell it is. A ```` ```json ```` block is
not read: Triton's `model.json` is told by vLLM's flag names, which this layer is not given.

A shell block is read as a shell script is (`sources.shell_script`): a manifest in a
here-document (`kubectl apply -f - <<EOF`) is read by its host, and a `--config` file a
here-document writes stands in for `--config FILE`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import cached_property

from markdown_it import MarkdownIt
from markdown_it.token import Token
from yaml.nodes import MappingNode

from vllm_config_lsp.document.text_memo import text_memo
from vllm_config_lsp.document.yaml_tree import parse_yaml
from vllm_config_lsp.sources import (
    compose,
    dockerfile,
    dstack,
    ipython,
    kubernetes,
    makefile,
    shell_script,
    skypilot,
    toml_file,
    workflow,
)
from vllm_config_lsp.sources.invocation import Invocation, Word
from vllm_config_lsp.sources.source_map import SourceMap

__all__ = [
    "SHELL_LANGUAGES",
    "YAML_LANGUAGES",
    "CodeBlock",
    "code_blocks",
    "find_invocations",
]

#: Info strings whose blocks hold shell commands; "" is an untagged fence or indented code.
SHELL_LANGUAGES = frozenset(
    {
        "",
        "bash",
        "sh",
        "shell",
        "zsh",
        "ksh",
        "console",
        "shell-session",
        "sh-session",
        "bash-session",
        "shellsession",
        "terminal",
        "text",
        "txt",
        "plaintext",
        "plain",
    }
)
#: Info strings whose blocks a YAML host (Kubernetes, compose, workflow, dstack) reads.
YAML_LANGUAGES = frozenset({"yaml", "yml"})
#: Info strings of the blocks another host reads, by the language it reads: Python (as
#: IPython: a `!vllm serve` line in a notebook-style block is a shell line), Dockerfiles,
#: Makefiles and TOML.
_FENCE_LANGUAGES = {
    "python": ("python", "py", "python3", "ipython", "ipython3", "jupyter"),
    "dockerfile": ("dockerfile", "docker", "containerfile"),
    "makefile": ("makefile", "make", "mk"),
    "toml": ("toml",),
}
#: A notebook's shell escape at a line's start (`!vllm serve …`, `!!ls`): a shell block
#: that has one is a notebook cell (bash reads `! cmd`, with its blank, as negation).
_IPYTHON_ESCAPE = re.compile(r"^[ \t]*!!?[^\s!=]", re.M)
#: MyST directives whose body is Markdown (admonitions, tabs, cards, dropdowns).
_MYST_CONTAINERS = frozenset(
    {
        "admonition",
        "attention",
        "caution",
        "danger",
        "error",
        "hint",
        "important",
        "note",
        "seealso",
        "tip",
        "warning",
        "dropdown",
        "tab-set",
        "tab-item",
        "tab",
        "tabs",
        "card",
        "grid",
        "grid-item",
        "grid-item-card",
        "div",
        "topic",
        "sidebar",
    }
)
#: MyST directives whose argument names the language of a code body.
_MYST_CODE = frozenset({"code-block", "code", "sourcecode", "code-cell"})
#: A paragraph ending in an mkdocs container marker: the indented code after it is Markdown.
_CONTAINER_MARKER = re.compile(r"(?:^|\n)[ \t]*(?:===|!!!|\?\?\?\+?)(?:[ \t][^\n]*)?$")
#: markdown-it splits lines on these (and so must the mapping back to the document).
_NEWLINE = re.compile(r"\r\n?|\n")
#: A blank line (spaces and tabs only) before a line that cannot continue a list or a
#: quote across it (it starts with none of spaces, tabs, `-+*>`, digits): a candidate
#: line L of a chunk starts at the match's end.
_CUT = re.compile(
    r"(?:\A|\r\n|\r(?!\n)|\n)"  # the line break before it (a match starts only there)
    r"[ \t]*(?:\r\n?|\n)(?=[^ \t\-+*>0-9\r\n])"
)
#: A prompt at the start of a transcript line: `$ cmd` (or a bare `$`).
_PROMPT = re.compile(r"[ \t]*\$(?: |$)")
#: Top-level keys that name the YAML host of a block (see `_yaml_host`).
_K8S = re.compile(r"^(?:apiVersion|kind):", re.M)
_COMPOSE = re.compile(r"^services:[ \t]*(?:#.*)?$", re.M)
_WORKFLOW = re.compile(r"^jobs:[ \t]*(?:#.*)?$", re.M)
_DSTACK = re.compile(r"^type:[ \t]*[\"']?(?:service|task|dev-environment)\b", re.M)
_COMMANDS = re.compile(r"^commands:", re.M)
#: A SkyPilot task: a `run:` script with another of the task's keys (`sources.skypilot`).
_RUN = re.compile(r"^run:", re.M)
_TASK_KEY = re.compile(rf"^(?:{'|'.join(sorted(skypilot.TASK_KEYS))}):", re.M)
#: Each container level strips at least its marker's indentation; real docs nest 2-3 levels.
_MAX_DEPTH = 8

_PARSER: MarkdownIt | None = None
_READERS: dict[str, Callable[[str], list[Invocation]]] = {
    "python": ipython.find_invocations,
    "dockerfile": dockerfile.find_invocations,
    "makefile": makefile.find_invocations,
    "toml": toml_file.find_invocations,
}
_FENCE_READERS = {
    language: _READERS[host] for host, names in _FENCE_LANGUAGES.items() for language in names
}


@dataclass(frozen=True)
class CodeBlock:
    """One code block as its reader would see it: `text` is the content with the container
    indentation removed, and `starts[i]` is the document offset of `text[i]` (a newline maps
    to the document's line break, a space that markdown-it made from part of a tab maps to
    the tab). `line` is the 0-based document line of the block's first content line."""

    language: str
    info: str
    text: str
    starts: tuple[int, ...]
    #: Document offset just past the block's content (where an empty block sits).
    end: int
    line: int

    @cached_property
    def source_map(self) -> SourceMap:
        """The block's text → document offsets (each character one document character)."""
        last = self.starts[-1] + 1 if self.starts else self.end
        return SourceMap(self.starts, tuple(at + 1 for at in self.starts), last)

    def to_document(self, offset: int) -> int:
        """Document offset of `text[offset]`; `len(text)` maps past the last character."""
        return self.source_map.start_of(offset)

    def end_to_document(self, offset: int) -> int:
        """Document offset of an exclusive end: just past the character before `offset`."""
        return self.source_map.end_of(offset)

    def relocate(self, word: Word) -> Word:
        """A word found in `text`, moved to the document."""
        return self.source_map.word(word)


def find_invocations(text: str) -> list[Invocation]:
    """Every vLLM server start in the shell code blocks of a Markdown document, in document
    order, with offsets into `text`."""
    found: list[Invocation] = []
    for offset, chunk in _chunks(text):
        found.extend(invocation.moved(offset) for invocation in chunk.invocations)
    return sorted(found, key=lambda invocation: invocation.start)


def code_blocks(text: str) -> list[CodeBlock]:
    """All code blocks of the document (fenced and indented, inside lists, quotes and
    mkdocs/MyST containers), each mapped to the document. Language is the lowercased first
    word of the info string (`{code-block} bash` gives `bash`)."""
    found: list[CodeBlock] = []
    line = 0
    for offset, chunk in _chunks(text):
        found.extend(_moved_block(block, offset, line) for block in chunk.blocks)
        line += chunk.lines
    return found


# -- top-level chunks ---------------------------------------------------------------------
#
# A keystroke changes one place of a long recipe, so the document is read in top-level
# chunks, each parsed and searched on its own (and cached by its text). A chunk ends before
# a line L where CommonMark's block parser starts afresh whatever came before: line L - 1 is
# blank and line L starts in column 0 with a character that cannot continue a list or a block
# quote; and the chunk's own parse leaves no top-level block open at its end (an unclosed
# fence or a raw-HTML block runs on past blank lines: then the next chunk is joined to it).
# After a blank line, a column-0 line closes every paragraph, list item, quote and indented
# code block, so the blocks of the chunk, their maps and the tokens around them are the ones
# the whole document's parse gives.


@dataclass(frozen=True)
class _Chunk:
    """One chunk's code blocks and invocations, in offsets (and lines) of the chunk."""

    blocks: tuple[CodeBlock, ...]
    invocations: tuple[Invocation, ...]
    #: Whether a top-level fence or HTML block of the chunk runs to its end.
    open_end: bool
    #: Line breaks in the chunk (the line count of the next chunk's first line).
    lines: int


def _chunks(text: str) -> Iterator[tuple[int, _Chunk]]:
    """The document's chunks (see above) with their document offsets."""
    cuts = _cut_points(text)
    index = 0
    while index < len(cuts) - 1:
        start = cuts[index]
        step = 1
        while True:
            stop = min(index + step, len(cuts) - 1)
            chunk = _chunk(text[start : cuts[stop]])
            if not chunk.open_end or stop == len(cuts) - 1:
                break
            step *= 2  # an open block: join more (doubling keeps the work linear)
        yield start, chunk
        index = stop


def _cut_points(text: str) -> list[int]:
    """Offsets where a chunk may start: 0, every candidate line L, and `len(text)`."""
    return [0, *(match.end() for match in _CUT.finditer(text)), len(text)]


@text_memo
def _chunk(text: str) -> _Chunk:
    """Code blocks and vLLM starts of one chunk (a pure function of its text)."""
    root = _Host(text, None, len(text))
    tokens = _parser().parse(text)
    blocks = tuple(_blocks(root, 0, tokens))
    invocations: list[Invocation] = []
    for block in blocks:
        host = _yaml_host(block)
        if host is not None:
            invocations.extend(_yaml_invocations(block, host))
        elif block.language in SHELL_LANGUAGES and not _IPYTHON_ESCAPE.search(block.text):
            invocations.extend(_block_invocations(block))
        elif block.language in _FENCE_READERS or block.language in SHELL_LANGUAGES:
            found = _FENCE_READERS.get(block.language, ipython.find_invocations)(block.text)
            moved = (block.source_map.invocation(invocation) for invocation in found)
            invocations.extend(replace(invocation, source="markdown") for invocation in moved)
    count = len(root.line_starts) - (1 if root.line_ends[-1] == root.line_starts[-1] else 0)
    open_end = any(
        token.level == 0
        and token.type in ("fence", "html_block")
        and token.map is not None
        and token.map[1] >= count
        for token in tokens
    )
    return _Chunk(blocks, tuple(invocations), open_end, len(root.line_starts) - 1)


def _moved_block(block: CodeBlock, offset: int, line: int) -> CodeBlock:
    if not offset and not line:
        return block
    return replace(
        block,
        starts=tuple(start + offset for start in block.starts),
        end=block.end + offset,
        line=block.line + line,
    )


# -- block extraction ---------------------------------------------------------------------


class _Host:
    """A text markdown-it parses (the document, or a container body) and where each of its
    characters sits in the document."""

    def __init__(
        self,
        text: str,
        starts: tuple[int, ...] | None,
        end: int,
        document_lines: list[int] | None = None,
    ) -> None:
        self.text = text
        #: None for the document itself (identity).
        self.starts = starts
        self.end = end
        self.line_starts = [0]
        self.line_ends: list[int] = []
        for match in _NEWLINE.finditer(text):
            self.line_ends.append(match.start())
            self.line_starts.append(match.end())
        self.line_ends.append(len(text))
        #: Offsets where the document's lines start (for `CodeBlock.line`).
        self.document_lines = self.line_starts if document_lines is None else document_lines

    def document(self, offset: int) -> int:
        if self.starts is None:
            return offset
        if 0 <= offset < len(self.starts):
            return self.starts[offset]
        return self.end

    def line_text(self, line: int) -> str:
        return self.text[self.line_starts[line] : self.line_ends[line]]

    def documents(self, start: int, stop: int) -> tuple[int, ...] | range:
        """`document(offset)` for every offset of `[start, stop)`."""
        if self.starts is None:
            return range(start, stop)
        if start >= 0 and stop <= len(self.starts):
            return self.starts[start:stop]
        return tuple(self.document(offset) for offset in range(start, stop))


def _parser() -> MarkdownIt:
    """Plain CommonMark: the dialect every Markdown renderer agrees on for code blocks
    (extensions such as tables do not change which lines are code). Only the block level
    runs: inline parsing (emphasis, links, ...) fills the children of `inline` tokens,
    which no code block needs; the `inline` tokens and their content stay."""
    global _PARSER
    if _PARSER is None:
        _PARSER = MarkdownIt("commonmark").disable(["inline", "text_join"])
    return _PARSER


def _blocks(host: _Host, depth: int, tokens: list[Token] | None = None) -> Iterator[CodeBlock]:
    """The code blocks of one host text; container bodies are parsed again as Markdown."""
    if tokens is None:
        tokens = _parser().parse(host.text)
    for index, token in enumerate(tokens):
        if token.type not in ("fence", "code_block") or token.map is None:
            continue
        language, info = _language(token)
        first_line = token.map[0] + (1 if token.type == "fence" else 0)
        mapped = _map_content(host, token.content, first_line)
        if mapped is None:
            continue
        starts, end = mapped
        block = CodeBlock(
            language,
            info,
            token.content,
            starts,
            end,
            _document_line(host, first_line),
        )
        container = (token.type == "code_block" and _after_container_marker(tokens, index)) or (
            token.type == "fence" and language in _MYST_CONTAINERS
        )
        if container:
            if depth < _MAX_DEPTH:
                body = _Host(block.text, block.starts, block.end, host.document_lines)
                yield from _blocks(body, depth + 1)
            continue
        yield block


def _language(token: Token) -> tuple[str, str]:
    """The block's language: `bash`, `{.bash}`, `{code-block} bash`, MyST `{note}`."""
    info = token.info.strip() if token.type == "fence" else ""
    words = info.split()
    if not words:
        return "", info
    first = words[0].lower()
    if first.startswith("{") and first.endswith("}") and not first.startswith("{."):
        directive = first[1:-1]
        if directive in _MYST_CODE:
            return (words[1].lower() if len(words) > 1 else ""), info
        return directive, info
    first = first.strip("{}").lstrip(".")
    return first.split("{", 1)[0], info


def _after_container_marker(tokens: list[Token], index: int) -> bool:
    """Whether the code block directly follows a paragraph whose last line is an mkdocs
    container marker at the same nesting level (`=== "NVIDIA"`, `!!! note`)."""
    if index < 3:
        return False
    close, inline, opening = tokens[index - 1], tokens[index - 2], tokens[index - 3]
    return (
        close.type == "paragraph_close"
        and inline.type == "inline"
        and opening.type == "paragraph_open"
        and opening.level == tokens[index].level
        and _CONTAINER_MARKER.search(inline.content) is not None
    )


def _map_content(host: _Host, content: str, first_line: int) -> tuple[tuple[int, ...], int] | None:
    """Document offset of every character of a block's content, or None when a content
    line is not the end of its source line (then the mapping would be a guess)."""
    lines = content.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if first_line + len(lines) > len(host.line_starts):
        return None
    starts: list[int] = []
    for number, line in enumerate(lines):
        source_line = first_line + number
        source = host.line_text(source_line).replace("\0", "\ufffd")
        base = host.line_starts[source_line]
        if source.endswith(line):
            column = len(source) - len(line)
            starts.extend(host.documents(base + column, base + column + len(line)))
        else:
            # markdown-it turns the part of a tab it strips into spaces: those spaces map to
            # the tab, the rest of the line must still be the end of the source line.
            rest = line.lstrip(" ")
            column = len(source) - len(rest)
            if not rest or not source.endswith(rest) or column == 0:
                return None
            if source[column - 1] not in " \t":
                return None
            starts.extend([host.document(base + column - 1)] * (len(line) - len(rest)))
            starts.extend(host.documents(base + column, base + column + len(rest)))
        starts.append(host.document(host.line_ends[source_line]))
    if lines:
        end = host.document(host.line_ends[first_line + len(lines) - 1])
    else:
        end = host.document(host.line_starts[min(first_line, len(host.line_starts) - 1)])
    # Content ends with a newline for every line markdown-it gives; never let them differ.
    return tuple(starts[: len(content)]), end


def _document_line(host: _Host, line: int) -> int:
    """0-based document line of a host line (a container body's lines sit anywhere)."""
    line = min(line, len(host.line_starts) - 1)
    offset = host.document(host.line_starts[line])
    return bisect_right(host.document_lines, offset) - 1


# -- commands in a block ------------------------------------------------------------------


def _block_invocations(block: CodeBlock) -> list[Invocation]:
    """The shell starts in one block, after removing transcript prompts and output."""
    script, positions = _commands(block)
    if "vllm" not in script:
        return []
    found: list[Invocation] = []
    for invocation in shell_script.find_invocations(script, source="markdown"):
        found.append(_relocate(invocation, block, positions))
    return found


def _commands(block: CodeBlock) -> tuple[str, list[int]]:
    """The block's shell text and, per character, its index in `block.text`. In a
    transcript (a terminal session shown with prompts), `$ ` prompts (and `> ` on
    continuation lines) are removed and output lines become empty, so only what the user
    typed reaches the shell."""
    text = block.text
    lines = text.split("\n")
    # A block is a transcript when it shows prompts, whatever its tag: ```console blocks
    # without any are plain commands in practice, and ```bash blocks often show `$ `.
    transcript = any(_PROMPT.match(line) for line in lines)
    if not transcript:
        return text, list(range(len(text)))
    out: list[str] = []
    positions: list[int] = []
    offset = 0
    continuing = False
    for number, line in enumerate(lines):
        skip: int | None = None
        prompt = _PROMPT.match(line)
        if prompt:
            skip = prompt.end()
        elif continuing:
            skip = 2 if line.startswith("> ") else 0
        if skip is None:
            continuing = False
        else:
            kept = line[skip:]
            out.append(kept)
            positions.extend(range(offset + skip, offset + len(line)))
            continuing = kept.rstrip().endswith("\\") or (
                # PS2: a quoted value or a pipeline still open on the next line.
                number + 1 < len(lines) and lines[number + 1].startswith("> ")
            )
        if number + 1 < len(lines):
            out.append("\n")
            positions.append(offset + len(line))
        offset += len(line) + 1
    return "".join(out), positions


def _relocate(invocation: Invocation, block: CodeBlock, positions: list[int]) -> Invocation:
    """Move an invocation found in the block's shell text to document offsets."""
    to_document = SourceMap.of_positions(positions).then(block.source_map)
    return replace(to_document.invocation(invocation), source="markdown")


# -- YAML blocks -------------------------------------------------------------------------

_YAML_FINDERS: dict[str, Callable[[str], list[Invocation]]] = {
    "kubernetes": kubernetes.find_invocations,
    "compose": compose.find_invocations,
    "workflow": workflow.find_invocations,
    "dstack": dstack.find_invocations,
    "skypilot": skypilot.find_invocations,
}


def _yaml_host(block: CodeBlock) -> str | None:
    """The YAML host that reads the block, by its top-level keys: a dstack run (`type:
    service` with `commands:`), a Kubernetes object (`apiVersion`/`kind`, a KubeAI `Model`
    snippet included), a compose file (`services:`), a workflow (`jobs:`), a SkyPilot task
    (`run:` with `resources:`, `envs:`, `setup:`…). A ```` ```yaml ````
    block with none of them is a `--config` file or other data; an untagged block is taken
    for YAML only when it has one of them and parses, without error, as a mapping."""
    text = block.text
    if _DSTACK.search(text) and _COMMANDS.search(text):
        host = "dstack"
    elif _K8S.search(text):
        host = "kubernetes"
    elif _COMPOSE.search(text):
        host = "compose"
    elif _WORKFLOW.search(text):
        host = "workflow"
    elif _RUN.search(text) and _TASK_KEY.search(text):
        host = "skypilot"
    else:
        return None
    if block.language in YAML_LANGUAGES:
        return host
    if block.language != "":
        return None
    try:
        parsed = parse_yaml(text)
    except MemoryError:
        raise  # reported by the engine: not read, rather than no start
    except Exception:  # parse_yaml never raises; a RecursionError deep inside might
        return None
    return host if not parsed.problems and isinstance(parsed.root, MappingNode) else None


def _yaml_invocations(block: CodeBlock, host: str) -> list[Invocation]:
    """The starts a YAML host finds in the block's text, in document offsets."""
    if "vllm" not in block.text.lower():
        return []
    found: list[Invocation] = []
    for invocation in _YAML_FINDERS[host](block.text):
        found.append(replace(block.source_map.invocation(invocation), source="markdown"))
    return found
