"""Editor features of the command lines in host documents: a code lens "Show the command
vLLM runs" on each invocation, and the two refactorings between a command line and a
`--config` file ("Move these flags into a --config file" and "Inline the --config file").

Both refactorings keep what vLLM receives. Flags move as typed YAML values (`port: 8000`,
`max-model-len: 8k`): `load_config_file` hands argparse `str(value)`, so a value is written
plain only where YAML reads it back to a value whose `str` is the word as written, and
quoted otherwise (`'010'`, `"1_000"`, `"yes"`, JSON values); on/off flags as `true`; what a
`--config` file cannot say (a `--no-x` negative: `false` is dropped by the loader; a dotted
key; a word holding a variable) stays on the command line. Moving is a `refactor.move`
action, offered only to a request that asks for refactorings (never in the quick-fix menu).
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import yaml
from lsprotocol import types

from vllm_config_lsp.lsp.plain_text import plain
from vllm_config_lsp.sources.invocation import Word
from vllm_config_lsp.sources.rendering import SHELL_QUOTINGS, quote, remove_words
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.serve_parser import OptionUse

if TYPE_CHECKING:
    from vllm_config_lsp.lsp.session import Snapshot

SHOW_COMMAND = "vllmConfig.showCommand"
MOVE_TO_CONFIG_KIND = "refactor.move.vllm-config"
INLINE_CONFIG_KIND = "refactor.inline.vllm-config"
#: The widest argument the shown command's column of origins waits for.
MAX_ARGUMENT_COLUMN = 60


def code_lenses(analysis: Snapshot) -> list[types.CodeLens]:
    models = analysis.result.invocations if analysis.result else []
    lenses = []
    for index, model in enumerate(models):
        invocation = model.invocation
        refused = _refusals(analysis, index)
        what = "the command vLLM runs"
        if refused:
            many = len(refused)
            what = f"the command vLLM refuses ({many} error{'s' if many > 1 else ''})"
        lenses.append(
            types.CodeLens(
                range=analysis.positions.range(invocation.start, invocation.end),
                command=types.Command(
                    title=f"vLLM {model.version}: show {what}",
                    command=SHOW_COMMAND,
                    arguments=[analysis.uri, index],
                ),
            )
        )
    return lenses


def _refusals(analysis: Snapshot, index: int) -> list[str]:
    """The errors of command line `index`: why vLLM would not start with it."""
    from vllm_config_lsp.findings import Severity

    spans = analysis.line_releases()
    lines = analysis.checked.command_lines
    if not 0 <= index < len(lines):
        return []
    errors = [f for f in analysis.checked.findings if f.severity == Severity.ERROR]
    if len(lines) == 1:
        return [f"{f.code} {plain(f.message)}" for f in errors]
    invocation = lines[index].invocation
    low = min((w.start for w in invocation.args), default=invocation.start)
    high = max((w.end for w in invocation.args), default=invocation.end)
    if index < len(spans):
        low, high = min(low, spans[index][0]), max(high, spans[index][1])
    return [f"{f.code} {plain(f.message)}" for f in errors if low <= f.start <= high]


def shown_command(analysis: Snapshot, index: int) -> dict[str, Any] | None:
    """What `vllm-config-lsp argv` prints for one invocation, and the read-only document
    that shows it (`document`): one argument per line with where it came from, the release
    and why, and what vLLM refuses in it."""
    models = analysis.result.invocations if analysis.result else []
    if not 0 <= index < len(models):
        return None
    invocation = models[index].invocation
    line = analysis.positions.range(invocation.start, invocation.start).start.line
    entry = "vllm serve" if invocation.entrypoint == "serve" else "api_server"
    argv = [word.text for word in invocation.args]
    lines = analysis.checked.command_lines
    release, why = (lines[index].release, lines[index].why) if index < len(lines) else ("", "")
    refused = _refusals(analysis, index)
    text = f"{entry} {' '.join(shlex.quote(word) for word in argv)}"
    shown: dict[str, Any] = {
        "line": line,
        "source": invocation.source,
        "entrypoint": entry,
        "argv": argv,
        "origins": [_origin(analysis, word) for word in invocation.args],
        "vllm_version": models[index].version,
        "versionSource": why,
        "refused": refused,
        "text": text,
    }
    shown["document"] = _document(PurePosixPath(analysis.uri).name, shown, release)
    return shown


def _origin(analysis: Snapshot, word: Word) -> str:
    """Where one argument comes from, in words."""
    if word.generated is not None:
        return f"written by {word.generated.origin}"
    size = len(analysis.text)
    if word.start < size:
        return f"line {analysis.positions.range(word.start, word.start).start.line + 1}"
    return "the chart's template"


def _document(name: str, shown: dict[str, Any], release: str) -> str:
    """The read-only document of `shown_command`'s answer."""
    refused, entry, argv = shown["refused"], shown["entrypoint"], shown["argv"]
    if refused:
        many = f"{len(refused)} error{'s' if len(refused) > 1 else ''}"
        out = [f"vLLM {release} refuses to start with this command ({many}):"]
        out += [*(f"  {reason}" for reason in refused), ""]
    else:
        out = [f"The command vLLM {release} runs:", ""]
    where = f"From: {name}, line {shown['line'] + 1} ({shown['source']})"
    out += [f"Release: {shown['versionSource'] or 'vLLM ' + release}", where, ""]
    out.append("Arguments, one per line, as vLLM receives them, and where each came from:")
    quoted = [shlex.quote(word) for word in argv]
    width = min(max([len(entry), *map(len, quoted)]), MAX_ARGUMENT_COLUMN) + 2
    out.append(f"  {entry:<{width}}the entry point")
    out += [
        f"  {word:<{width}}{origin}" for word, origin in zip(quoted, shown["origins"], strict=True)
    ]
    out += ["", "As one line:", shown["text"], ""]
    return "\n".join(out)


def _at(analysis: Snapshot, offset: int) -> ConfigModel | None:
    for model in analysis.result.invocations if analysis.result else []:
        invocation = model.invocation
        ends = [invocation.end, *(w.end for w in invocation.args if w.generated is None)]
        if invocation.start <= offset <= max(ends):
            return model
    return None


def _movable(use: OptionUse) -> bool:
    token = use.token
    if token.word is None or token.dotted or not token.word.resolved:
        return False
    if token.word.quoting not in SHELL_QUOTINGS:  # a Python list or an exec form in a doc
        return False
    if use.option_string in use.spec.negatives or use.spec.name in ("config", "model"):
        return False
    return all(value.word is not None and value.word.resolved for value in use.values)


#: Characters that end or open something in a YAML flow list or plain scalar.
_NOT_PLAIN = frozenset(",[]{}#&*!|>'\"%@`")


def typed_scalar(text: str) -> str:
    """`text` as a YAML scalar that `load_config_file` turns back into `text` (it passes
    `str(value)` on): plain where YAML reads it as a number or string that prints as
    written, JSON-quoted otherwise (`010` is 8 and `yes` is True in YAML 1.1)."""
    if text and text == text.strip() and not _NOT_PLAIN & set(text) and ": " not in text:
        try:
            loaded = yaml.safe_load(text)
        except yaml.YAMLError:
            loaded = None
        if type(loaded) in (int, float, str) and str(loaded) == text:
            return text
    return json.dumps(text)


def _yaml_value(use: OptionUse) -> str:
    if not use.spec.takes_value:
        return "true"
    texts = [use.explicit] if use.explicit is not None else [v.text for v in use.values]
    many = use.spec.nargs in ("+", "*") or isinstance(use.spec.nargs, int)
    if many:
        return "[" + ", ".join(typed_scalar(text) for text in texts) + "]"
    return typed_scalar(texts[-1])


def move_to_config(analysis: Snapshot, offset: int, can_create: bool) -> types.CodeAction | None:
    """The flags of the command line under the cursor into a new `<name>.vllm.yaml` beside
    the document (a free name: `_free_name`), replaced by `--config <name>.vllm.yaml`."""
    model = _at(analysis, offset)
    if model is None or not can_create:
        return None
    if model.invocation.source not in ("shell", "markdown"):
        return None  # one shell word per flag: YAML list hosts need a list item each
    uses = [use for use in model.result.uses if _movable(use)]
    if not uses:
        return None
    document = PurePosixPath(analysis.uri)
    name = _free_name(analysis.uri, document.stem.split(".")[0])
    if name is None:
        return None
    target = str(document.with_name(name))
    body = "".join(f"{use.spec.name}: {_yaml_value(use)}\n" for use in uses)
    edits = []
    for number, use in enumerate(uses):
        words = [t.word for t in (use.token, *use.values) if t.word is not None]
        first, last = words[0], words[-1]
        if number == 0:
            replacement = f"--config {quote(name, first.quoting)}"
            edits.append(_edit(analysis, first.start, last.end, replacement))
        else:
            edits.append(_edit(analysis, *_removal(model, first, last), ""))
    changes: list[types.TextDocumentEdit | types.CreateFile] = [
        # neither overwrite nor ignoreIfExists: a file made since fails the edit, never
        # gets these flags prepended (its own keys would shadow them)
        types.CreateFile(uri=target),
        types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(uri=target, version=None),
            edits=[types.TextEdit(range=_start(), new_text=body)],
        ),
        types.TextDocumentEdit(
            text_document=types.OptionalVersionedTextDocumentIdentifier(
                uri=analysis.uri, version=analysis.version
            ),
            edits=edits,
        ),
    ]
    return types.CodeAction(
        title=f"Move these flags into a --config file ({name})",
        kind=MOVE_TO_CONFIG_KIND,
        edit=types.WorkspaceEdit(document_changes=changes),
    )


#: Names tried for a new config file: `<base>.vllm.yaml`, then `<base>-2` … this.
MAX_NAME_TRIES = 100


def _free_name(uri: str, stem: str) -> str | None:
    """The first `<base>[-N].vllm.yaml` beside the document that is no file yet (the
    document's folder is read for `file:` URIs only); None when every one is taken. The
    base is the document's stem, with `-serve` added only where the stem does not say it
    (`serve.sh` → `serve.vllm.yaml`, `deploy.sh` → `deploy-serve.vllm.yaml`)."""
    from vllm_config_lsp.lsp.session import fs_path

    base = stem if "serve" in stem.lower() else f"{stem}-serve"
    path = fs_path(uri) if uri.startswith("file:") else None
    for number in range(1, MAX_NAME_TRIES + 1):
        name = f"{base}.vllm.yaml" if number == 1 else f"{base}-{number}.vllm.yaml"
        if path is None or not os.path.lexists(path.with_name(name)):
            return name
    return None


def inline_config(
    analysis: Snapshot, offset: int, folder: Path | None, root: Path | None = None
) -> types.CodeAction | None:
    """`--config FILE` on the command line under the cursor replaced by the flags vLLM
    builds from FILE (`load_config_file`), in the host's quoting. Only a file inside the
    workspace `root` (the document's folder without one) whose keys are all vLLM flags:
    a document naming `../../secret/hosts.yml` must not have it read into an edit."""
    model = _at(analysis, offset)
    if model is None or folder is None:
        return None
    use = next((u for u in model.result.uses if u.spec.name == "config" and u.values), None)
    if use is None or not _movable_config(use):
        return None
    value = use.values[-1]
    assert value.word is not None and use.token.word is not None
    from vllm_config_lsp.engine import inlined_config

    target = folder / value.text
    if not _inside(target, root or folder):
        return None
    argv = inlined_config(target, model.catalogue.version)
    if argv is None or not _all_flags(argv, model):
        return None
    words = " ".join(quote(word, value.word.quoting) for word in argv)
    edit = _edit(analysis, use.token.word.start, value.word.end, words)
    return types.CodeAction(
        title=f"Inline the --config file ({value.text})",
        kind=INLINE_CONFIG_KIND,
        edit=types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(
                        uri=analysis.uri, version=analysis.version
                    ),
                    edits=[edit],
                )
            ]
        ),
    )


def _inside(path: Path, root: Path) -> bool:
    """Whether `path` (links followed) lies under `root`."""
    try:
        return path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError, ValueError):  # a link loop, a NUL
        return False


def _all_flags(argv: tuple[str, ...], model: ConfigModel) -> bool:
    """Whether every key the file gave (`--key`, `--head.path`) is an option of vLLM."""
    index = model.catalogue.option_index
    keys = [word.split("=", 1)[0].split(".", 1)[0] for word in argv if word.startswith("--")]
    return bool(keys) and all(key in index for key in keys)


def _movable_config(use: OptionUse) -> bool:
    token, value = use.token.word, use.values[-1].word
    if token is None or value is None:
        return False
    return value.resolved and token.quoting in SHELL_QUOTINGS


def _removal(model: ConfigModel, first: Word, last: Word) -> tuple[int, int]:
    edit = remove_words(model.invocation, first, last)
    return edit.start, edit.end


def _edit(analysis: Snapshot, start: int, end: int, new_text: str) -> types.TextEdit:
    return types.TextEdit(range=analysis.positions.range(start, end), new_text=new_text)


def _start() -> types.Range:
    return types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
    )
