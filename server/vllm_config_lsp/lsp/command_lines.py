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

from vllm_config_lsp.sources.invocation import Word
from vllm_config_lsp.sources.rendering import SHELL_QUOTINGS, quote, remove_words
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.serve_parser import OptionUse

if TYPE_CHECKING:
    from vllm_config_lsp.lsp.session import Snapshot

SHOW_COMMAND = "vllmConfig.showCommand"
MOVE_TO_CONFIG_KIND = "refactor.move.vllm-config"
INLINE_CONFIG_KIND = "refactor.inline.vllm-config"


def code_lenses(analysis: Snapshot) -> list[types.CodeLens]:
    models = analysis.result.invocations if analysis.result else []
    lenses = []
    for index, model in enumerate(models):
        invocation = model.invocation
        lenses.append(
            types.CodeLens(
                range=analysis.positions.range(invocation.start, invocation.end),
                command=types.Command(
                    title=f"vLLM {model.version}: show the command vLLM runs",
                    command=SHOW_COMMAND,
                    arguments=[analysis.uri, index],
                ),
            )
        )
    return lenses


def shown_command(analysis: Snapshot, index: int) -> dict[str, Any] | None:
    """What `vllm-config-lsp argv` prints for one invocation."""
    models = analysis.result.invocations if analysis.result else []
    if not 0 <= index < len(models):
        return None
    invocation = models[index].invocation
    line = analysis.positions.range(invocation.start, invocation.start).start.line
    entry = "vllm serve" if invocation.entrypoint == "serve" else "api_server"
    argv = [word.text for word in invocation.args]
    return {
        "line": line,
        "source": invocation.source,
        "entrypoint": invocation.entrypoint,
        "argv": argv,
        "vllm_version": models[index].version,
        "text": f"{entry} {' '.join(shlex.quote(word) for word in argv)}",
    }


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
