"""Helpers shared by the LSP tests (imported by conftest and the test modules)."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Union

from cattrs import Converter
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

TIMEOUT = 10.0
#: A short debounce keeps the suite fast and still lets a burst of edits coalesce.
INITIALIZATION_OPTIONS = {"vllmConfig": {"debounceMs": 50}}
EDITORS = ["visual-studio-code", "neovim", "emacs"]
SERVER_COMMAND = [sys.executable, "-m", "vllm_config_lsp", "--stdio"]
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@dataclass
class Published:
    version: int | None
    diagnostics: list[types.Diagnostic]


@dataclass
class Recorder:
    """Every publishDiagnostics per URI, in order (pytest-lsp keeps only the last list)."""

    by_uri: dict[str, list[Published]] = field(default_factory=dict)
    #: What the server asked to watch (`client/registerCapability`), by method.
    registrations: dict[str, list[types.Registration]] = field(default_factory=dict)


RECORDERS: dict[int, Recorder] = {}


def _record(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    client.diagnostics[params.uri] = params.diagnostics
    recorder = RECORDERS.setdefault(id(client), Recorder())
    recorder.by_uri.setdefault(params.uri, []).append(
        Published(params.version, list(params.diagnostics))
    )


def _register(client: LanguageClient, params: types.RegistrationParams) -> None:
    """The client side of dynamic registration (pytest-lsp answers it with an error)."""
    recorder = RECORDERS.setdefault(id(client), Recorder())
    for registration in params.registrations:
        recorder.registrations.setdefault(registration.method, []).append(registration)


def registrations(client: LanguageClient, method: str) -> list[types.Registration]:
    return RECORDERS.setdefault(id(client), Recorder()).registrations.get(method, [])


def _converter() -> Converter:
    """pygls' converter, except that a CodeAction carrying a `command` stays a CodeAction:
    lsprotocol takes any result with a `command` key for a Command (a Command's `command`
    is a string, a CodeAction's an object), which drops the action's edit."""
    converter: Converter = default_converter()  # type: ignore[no-untyped-call]

    def command_or_action(value: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(value.get("command"), str):
            command: types.Command = converter.structure(value, types.Command)
            return command
        action: types.CodeAction = converter.structure(value, types.CodeAction)
        return action

    converter.register_structure_hook(
        Union[types.Command, types.CodeAction],  # noqa: UP007 (the registered type)
        command_or_action,
    )
    return converter


#: Every `workspace/applyEdit` the server sent, per client (the test client applies them).
APPLIED: dict[int, list[types.WorkspaceEdit]] = {}


def _apply_edit(
    client: LanguageClient, params: types.ApplyWorkspaceEditParams
) -> types.ApplyWorkspaceEditResult:
    APPLIED.setdefault(id(client), []).append(params.edit)
    return types.ApplyWorkspaceEditResult(applied=True)


def _client_factory() -> LanguageClient:
    """pytest-lsp's client, recording every publishDiagnostics with its version and every
    edit the server asks it to apply."""
    client = LanguageClient(converter_factory=_converter)
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _record
    features[types.CLIENT_REGISTER_CAPABILITY] = _register
    features[types.WORKSPACE_APPLY_EDIT] = _apply_edit
    register_lsp_features(client, features)
    return client


CONFIG = ClientServerConfig(server_command=SERVER_COMMAND, client_factory=_client_factory)


def published(client: LanguageClient, uri: str) -> list[Published]:
    return RECORDERS.setdefault(id(client), Recorder()).by_uri.get(uri, [])


async def wait_until(condition: Callable[[], Any], timeout: float = TIMEOUT) -> Any:
    async def poll() -> Any:
        while not (value := condition()):
            await asyncio.sleep(0.005)
        return value

    return await asyncio.wait_for(poll(), timeout)


async def diagnostics_for(
    client: LanguageClient, uri: str, version: int | None, timeout: float = TIMEOUT
) -> list[types.Diagnostic]:
    """The first diagnostics published for `uri` at `version` (waiting for them)."""

    def found() -> Published | None:
        return next((p for p in published(client, uri) if p.version == version), None)

    result: Published = await wait_until(found, timeout)
    return result.diagnostics


def open_doc(
    client: LanguageClient, uri: str, text: str, version: int = 1, language_id: str = "yaml"
) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id=language_id, version=version, text=text
            )
        )
    )


def close_doc(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )


def change_doc(
    client: LanguageClient,
    uri: str,
    version: int,
    text: str,
    edit_range: types.Range | None = None,
) -> None:
    """An incremental change (a range) or, without a range, the whole text."""
    change: types.TextDocumentContentChangeEvent
    if edit_range is None:
        change = types.TextDocumentContentChangeWholeDocument(text=text)
    else:
        change = types.TextDocumentContentChangePartial(range=edit_range, text=text)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[change],
        )
    )


ENCODINGS: dict[int, str] = {}
EDITORS_OF: dict[int, str] = {}
#: What the server answered `initialize` with, per client.
SERVER_CAPABILITIES: dict[int, types.ServerCapabilities] = {}


def editor_of(client: LanguageClient) -> str:
    """Which of `EDITORS` this client plays."""
    return EDITORS_OF[id(client)]


def encoding(client: LanguageClient) -> str:
    """The position encoding the server chose for this client (Emacs offers UTF-32 first)."""
    return ENCODINGS.get(id(client), "utf-16")


def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end-without-break) of every LSP line (breaks: \\r\\n, \\r, \\n)."""
    out = []
    start = 0
    index = 0
    while index < len(text):
        ch = text[index]
        if ch in "\r\n":
            out.append((start, index))
            index += 2 if text.startswith("\r\n", index) else 1
            start = index
        else:
            index += 1
    out.append((start, len(text)))
    return out


def _units(segment: str, enc: str) -> int:
    if enc == "utf-32":
        return len(segment)
    if enc == "utf-8":
        return len(segment.encode("utf-8"))
    return len(segment.encode("utf-16-le")) // 2


def offset_at(text: str, position: types.Position, enc: str) -> int:
    """Written independently of the server's converter, so tests check it."""
    lines = _lines(text)
    if position.line >= len(lines):
        return len(text)
    start, end = lines[position.line]
    for index in range(start, end + 1):
        if _units(text[start:index], enc) >= position.character:
            return index
    return end


def position_of(text: str, offset: int, enc: str) -> types.Position:
    for number, (start, end) in enumerate(_lines(text)):
        if start <= offset <= end:
            return types.Position(line=number, character=_units(text[start:offset], enc))
    raise ValueError(offset)


def apply_text_edits(text: str, edits: list[types.TextEdit], enc: str) -> str:
    spans = sorted(
        (
            (offset_at(text, e.range.start, enc), offset_at(text, e.range.end, enc), e.new_text)
            for e in edits
        ),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def apply_workspace_edit(text: str, edit: types.WorkspaceEdit, uri: str, enc: str) -> str:
    edits: list[types.TextEdit] = []
    if edit.document_changes:
        for change in edit.document_changes:
            assert isinstance(change, types.TextDocumentEdit)
            assert change.text_document.uri == uri
            edits.extend(e for e in change.edits if isinstance(e, types.TextEdit))
    for changed_uri, changes in (edit.changes or {}).items():
        assert changed_uri == uri
        edits.extend(changes)
    assert edits, "an action without edits"
    return apply_text_edits(text, edits, enc)


async def code_actions(
    client: LanguageClient,
    uri: str,
    where: types.Range,
    diagnostics: list[types.Diagnostic],
    only: list[str] | None = None,
) -> list[types.CodeAction]:
    """What the editor asks; Emacs 29 (no `dataSupport`) does not echo `data`."""
    caps = client.capabilities
    publish = caps.text_document.publish_diagnostics if caps and caps.text_document else None
    if not (publish and publish.data_support):
        diagnostics = [
            types.Diagnostic(
                range=d.range, message=d.message, severity=d.severity, code=d.code, source=d.source
            )
            for d in diagnostics
        ]
    result = await asyncio.wait_for(
        client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=where,
                context=types.CodeActionContext(diagnostics=diagnostics, only=only),
            )
        ),
        TIMEOUT,
    )
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


def change_settings(client: LanguageClient, settings: dict[str, Any]) -> None:
    """Change the `vllmConfig` settings as the client's editor does: VS Code style, a bare
    `didChangeConfiguration` and the server pulls them; Neovim 0.7 style, the settings in
    the payload."""
    caps = client.capabilities
    if caps and caps.workspace and caps.workspace.configuration:
        client.set_configuration(settings, section="vllmConfig")
        pushed: object = None
    else:
        pushed = {"vllmConfig": settings}
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=pushed))


class Doc:
    """A document the test edits like an editor: full-text changes, increasing versions."""

    def __init__(
        self, client: LanguageClient, uri: str, text: str, language_id: str = "yaml"
    ) -> None:
        self.client, self.uri, self.text, self.version = client, uri, text, 1
        open_doc(client, uri, text, language_id=language_id)

    async def diagnostics(self) -> list[types.Diagnostic]:
        return await diagnostics_for(self.client, self.uri, self.version)

    async def replace(self, text: str) -> list[types.Diagnostic]:
        self.version += 1
        self.text = text
        change_doc(self.client, self.uri, self.version, text)
        return await self.diagnostics()

    def close(self) -> None:
        close_doc(self.client, self.uri)


def client_info(editor: str) -> types.ClientInfo:
    """The `clientInfo` the editor sends, from the snapshot its capabilities come from
    (pytest-lsp's `client_capabilities` keeps only those; the name is every version's)."""
    snapshots = resources.files("pytest_lsp.clients")
    name = editor.replace("-", "_") + "_v"
    snapshot = next(f for f in snapshots.iterdir() if f.name.startswith(name))
    info = json.loads(snapshot.read_text(encoding="utf-8"))["clientInfo"]
    return types.ClientInfo(name=info["name"], version=info.get("version"))


async def start_session(client: LanguageClient, editor: str, options: object) -> None:
    result = await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(editor),
            client_info=client_info(editor),
            initialization_options=options,
        )
    )
    chosen = result.capabilities.position_encoding or "utf-16"
    ENCODINGS[id(client)] = str(getattr(chosen, "value", chosen))
    EDITORS_OF[id(client)] = editor
    SERVER_CAPABILITIES[id(client)] = result.capabilities


async def hover_text(client: LanguageClient, doc: Doc, needle: str, skip: int = 0) -> str | None:
    """The hover's Markdown at `needle` (plus `skip` characters), or None."""
    offset = doc.text.index(needle) + skip
    result = await asyncio.wait_for(
        client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=doc.uri),
                position=position_of(doc.text, offset, encoding(client)),
            )
        ),
        TIMEOUT,
    )
    if result is None:
        return None
    assert isinstance(result.contents, types.MarkupContent)
    return result.contents.value


async def document_info(client: LanguageClient, uri: str) -> dict[str, Any]:
    """`vllmConfig/documentInfo` for `uri` (what the VS Code status item shows)."""
    result = await asyncio.wait_for(
        client.protocol.send_request_async(  # type: ignore[no-untyped-call]
            "vllmConfig/documentInfo", {"textDocument": {"uri": uri}}
        ),
        TIMEOUT,
    )
    # pygls hands a custom request's result back as named tuples: compare as dicts
    plain: dict[str, Any] = _plain(result)
    return plain


def _plain(value: Any) -> Any:
    """A custom request's result as JSON values (pygls' named tuples as dicts)."""
    if hasattr(value, "_asdict"):
        return {key: _plain(item) for key, item in value._asdict().items()}
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


async def complete_at(
    client: LanguageClient, doc: Doc, text: str, checked: bool = True
) -> list[types.CompletionItem]:
    """Complete at the `§` in `text` (after telling the server about the new text), items
    in the client's order."""
    offset = text.index("§")
    text = text.replace("§", "")
    if checked:
        await doc.replace(text)
    else:  # not a vLLM config: no diagnostics to wait for
        doc.version += 1
        doc.text = text
        change_doc(client, doc.uri, doc.version, text)
    result = await asyncio.wait_for(
        client.text_document_completion_async(
            types.CompletionParams(
                text_document=types.TextDocumentIdentifier(uri=doc.uri),
                position=position_of(text, offset, encoding(client)),
            )
        ),
        TIMEOUT,
    )
    if result is None:
        return []
    items = result.items if isinstance(result, types.CompletionList) else result
    return sorted(items, key=lambda item: item.sort_text or item.label)


async def each_example(
    client: LanguageClient, folder: str, extra: dict[str, str]
) -> AsyncIterator[tuple[str, Doc, list[types.Diagnostic]]]:
    """`extra` and every file of examples/, opened in turn under `folder` (and closed after
    the caller's turn), with the diagnostics first published."""
    texts = dict(extra)
    texts.update({path.name: path.read_text(encoding="utf-8") for path in EXAMPLES.iterdir()})
    for name, text in texts.items():
        doc = Doc(client, f"file:///work/{folder}/{name}", text)
        yield name, doc, await doc.diagnostics()
        doc.close()


async def inlay_hints(client: LanguageClient, doc: Doc) -> list[types.InlayHint]:
    """The hints of the whole document."""
    end = position_of(doc.text, len(doc.text), encoding(client))
    whole = types.Range(start=types.Position(line=0, character=0), end=end)
    params = types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=doc.uri), range=whole
    )
    result = await asyncio.wait_for(client.text_document_inlay_hint_async(params), TIMEOUT)
    return list(result or ())


def deployment(image: str, args: str) -> str:
    """A Deployment of one container `vllm` running `image` with `args` (YAML, after
    `args:`: a flow list, or a block list starting with a newline)."""
    head = "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n"
    container = f"        - name: vllm\n          image: {image}\n          args: {args}\n"
    return f"{head}      containers:\n{container}"
