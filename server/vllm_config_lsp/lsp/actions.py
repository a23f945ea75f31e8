"""Code actions: each finding's fixes (quickfix), "Fix all vLLM Config problems" (also a
quickfix, when several problems have safe fixes), "Disable CODE for this line / file",
"Show documentation for CODE" (a client command), `source.fixAll.vllm-config` (every safe
fix, as `check --fix` applies them) and `source.migrate.vllm-config` ("Migrate this config
to vLLM X", `lsp_migrate`).

A quick fix's title is the fix's own text followed by the code, "Remove … (VC301)": editors
sort and filter the menu by the title's start.

Quick fixes come from the diagnostic's `data` when the client echoes it for the current
document version; otherwise (eglot drops `data`, or the document changed) the document is
checked again and the client's diagnostic is matched to a finding by code and range.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.uris import to_fs_path

from vllm_config_lsp.lsp.command_lines import (
    INLINE_CONFIG_KIND,
    MOVE_TO_CONFIG_KIND,
    inline_config,
    move_to_config,
)
from vllm_config_lsp.lsp.diagnostics import (
    FIX_ALL_KIND,
    SOURCE,
    edit_from_json,
    finding_data,
    rule_page,
)
from vllm_config_lsp.lsp.migrate import MIGRATE_KIND, planned
from vllm_config_lsp.lsp.migrate import action as migrate_action
from vllm_config_lsp.lsp.plain_text import plain

if TYPE_CHECKING:
    from vllm_config_lsp.findings import Finding
    from vllm_config_lsp.lsp.server import Analysis, VllmConfigServer


#: The fix-all action's title, in the lightbulb and the source actions alike.
FIX_ALL_TITLE = "Fix all vLLM Config problems"
#: Server command: apply every safe fix to the document `arguments[0]` (a URI) through
#: `workspace/applyEdit`; what the editors' "Fix all" commands run.
FIX_ALL_COMMAND = "vllmConfig.fixAll"
#: Client command of the "Show documentation for CODE" action: `arguments` = [CODE].
SHOW_RULE_DOCS = "vllmConfig.showRuleDocs"
#: Fetch a model's config files into the Hugging Face cache (`models pull`), on request.
PULL_MODEL = "vllmConfig.pullModel"


def _wants(only: list[str] | None, kind: str) -> bool:
    """LSP kinds are hierarchical: asking for `source` includes `source.fixAll.x`."""
    if not only:
        return True
    return any(kind == want or kind.startswith(want + ".") for want in map(str, only))


async def code_actions(
    ls: VllmConfigServer, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    uri = params.text_document.uri
    document = ls.workspace.text_documents.get(uri)
    if document is None:
        return None
    only = [str(kind) for kind in params.context.only] if params.context.only else None
    analysis: Analysis | None = None
    actions: list[types.CodeAction] = []
    if _wants(only, types.CodeActionKind.QuickFix):
        pairs: list[tuple[types.Diagnostic, dict[str, Any]]] = []
        ours = [d for d in params.context.diagnostics if d.source == SOURCE]
        for diagnostic in ours:
            data = diagnostic.data if isinstance(diagnostic.data, dict) else None
            if data is None or data.get("version") != document.version:
                analysis = analysis or await ls.current(uri)
                if analysis is None or analysis.result is None:
                    return None
                finding = _match(analysis, diagnostic)
                if finding is None:
                    continue
                data = finding_data(analysis, finding)
            pairs.append((diagnostic, data))
        if not params.context.diagnostics:
            analysis = analysis or await ls.current(uri)
            if analysis is None or analysis.result is None:
                return None
            for finding in _under(analysis, params.range):
                pairs.append((_diagnostic_for(analysis, finding), finding_data(analysis, finding)))
        if pairs:
            analysis = analysis or await ls.current(uri)
            actions.extend(await _quick_fixes(ls, uri, document.version, pairs, analysis))
    if _wants(only, FIX_ALL_KIND):
        analysis = analysis or await ls.current(uri)
        edit = await _fix_all(ls, analysis) if analysis is not None else None
        if edit is not None:
            actions.append(types.CodeAction(title=FIX_ALL_TITLE, kind=FIX_ALL_KIND, edit=edit))
    if _wants(only, MIGRATE_KIND):
        analysis = analysis or await ls.current(uri)
        if analysis is not None and analysis.result is not None:
            migration = await planned(ls, analysis)
            if migration is not None:
                rewrite: types.WorkspaceEdit | None = None
                if migration.text != analysis.text:  # else only the report (needs a human)
                    change = _minimal_edit(analysis, migration.text)
                    rewrite = _workspace_edit(ls, uri, analysis.version, [change])
                actions.append(migrate_action(migration, analysis, rewrite))
    if analysis is None and (_wants(only, MOVE_TO_CONFIG_KIND) or _wants(only, INLINE_CONFIG_KIND)):
        analysis = await ls.current(uri)
    if analysis is not None and analysis.result is not None and analysis.result.invocations:
        offset = analysis.positions.offset(params.range.start)
        if _wants(only, MOVE_TO_CONFIG_KIND):
            moved = move_to_config(analysis, offset, _can_create(ls))
            actions.extend([moved] if moved else [])
        if _wants(only, INLINE_CONFIG_KIND):
            path = to_fs_path(uri)
            inlined = inline_config(analysis, offset, Path(path).parent if path else None)
            actions.extend([inlined] if inlined else [])
    return actions or None


def _can_create(ls: VllmConfigServer) -> bool:
    """ "Move into a --config file" creates a file: only for clients that can."""
    workspace = ls.client_capabilities.workspace
    edit = workspace.workspace_edit if workspace else None
    operations = (edit.resource_operations or []) if edit else []
    return bool(edit and edit.document_changes) and types.ResourceOperationKind.Create in operations


def fix_title(text: Any, code: str) -> str:
    """The fix's own words first (editors sort and filter the menu by title), the code last:
    "Remove the non-positive budget (keep [2048, 4096]) (VC301)"."""
    words = plain(" ".join(str(text or "").split())) or "Fix"
    return f"{words} ({code})" if code else words


async def _quick_fixes(
    ls: VllmConfigServer,
    uri: str,
    version: int | None,
    pairs: list[tuple[types.Diagnostic, dict[str, Any]]],
    analysis: Analysis | None,
) -> list[types.CodeAction]:
    """Each diagnostic's own fixes, then (once) "Fix all" when more than one problem has a
    safe fix, then each diagnostic's "Disable … for this line / file" and (once per code)
    "Show documentation for CODE", as ESLint orders them."""
    fixes: list[types.CodeAction] = []
    disables: list[types.CodeAction] = []
    docs: list[types.CodeAction] = []
    for diagnostic, data in pairs:
        code = str(diagnostic.code) if diagnostic.code is not None else ""
        for fix in data.get("fixes") or ():
            edits = [e for e in map(edit_from_json, fix.get("edits") or ()) if e is not None]
            if edits:
                fixes.append(
                    types.CodeAction(
                        title=fix_title(fix.get("title"), code),
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diagnostic],
                        is_preferred=bool(fix.get("preferred")) or None,
                        edit=_workspace_edit(ls, uri, version, edits),
                    )
                )
        for key, scope in (("disable", "line"), ("disableFile", "file")):
            disable = edit_from_json(data[key]) if data.get(key) else None
            if disable is not None:
                disables.append(
                    types.CodeAction(
                        title=f"Disable {code} for this {scope}",
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diagnostic],
                        edit=_workspace_edit(ls, uri, version, [disable]),
                    )
                )
        pull = _pull_action(analysis, diagnostic) if code == "VC600" else None
        if pull is not None:
            fixes.append(pull)
        if rule_page(code) is not None and all(a.title != _docs_title(code) for a in docs):
            docs.append(_docs_action(code, diagnostic))
    fix_all = await _fix_all(ls, analysis) if analysis is not None and _fixable(analysis) else None
    if fix_all is not None:
        ours = [diagnostic for diagnostic, _ in pairs]
        fixes.append(
            types.CodeAction(
                title=FIX_ALL_TITLE,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=ours,
                edit=fix_all,
            )
        )
    return [*fixes, *disables, *docs]


def _docs_title(code: str) -> str:
    return f"Show documentation for {code}"


def _docs_action(code: str, diagnostic: types.Diagnostic) -> types.CodeAction:
    """Runs the client's `vllmConfig.showRuleDocs` (the VS Code extension opens the page
    it bundles); the server does not advertise the command, the client owns it."""
    title = _docs_title(code)
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        command=types.Command(title=title, command=SHOW_RULE_DOCS, arguments=[code]),
    )


def _pull_action(
    analysis: Analysis | None, diagnostic: types.Diagnostic
) -> types.CodeAction | None:
    """On VC600 for a Hub id: "Download config.json of ORG/NAME", which runs `models pull`
    in the server (kilobytes into the Hugging Face cache) and checks the documents again."""
    from vllm_config_lsp.vllm.model_files import looks_like_path

    if analysis is None:
        return None
    start = analysis.positions.offset(diagnostic.range.start)
    end = analysis.positions.offset(diagnostic.range.end)
    name = analysis.text[start:end].strip().strip("'\"")
    if not name or looks_like_path(name) or name.count("/") != 1 or any(c.isspace() for c in name):
        return None
    title = f"Download config.json of {name} into the Hugging Face cache"
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        command=types.Command(title=title, command=PULL_MODEL, arguments=[name]),
    )


def _fixable(analysis: Analysis) -> bool:
    """More than one problem that fix-all would fix (a single one has its own fix)."""
    assert analysis.result is not None
    return sum(1 for finding in analysis.result.findings if finding.safe_fix) > 1


#: The fix-all text of the analysis last asked about: the lightbulb asks on every cursor
#: move over a diagnostic, and fix-all checks the text again up to five times.
_LAST_FIXED: list[tuple[Analysis, str]] = []


async def _fix_all(ls: VllmConfigServer, analysis: Analysis) -> types.WorkspaceEdit | None:
    """Every safe fix, re-checked (`check --fix`), as one minimal edit; None if none."""
    if analysis.result is None:
        return None
    if _LAST_FIXED and _LAST_FIXED[0][0] is analysis:
        fixed = _LAST_FIXED[0][1]
    else:
        fixed = await ls.run_on_lint_thread(ls.fix_all_text, analysis)
        _LAST_FIXED[:] = [(analysis, fixed)]
    if fixed == analysis.text:
        return None
    return _workspace_edit(ls, analysis.uri, analysis.version, [_minimal_edit(analysis, fixed)])


async def fix_all_edit(ls: VllmConfigServer, uri: str) -> types.WorkspaceEdit | None:
    """`vllmConfig.fixAll` (the command palette): the fix-all edit of an open document."""
    analysis = await ls.current(uri)
    return await _fix_all(ls, analysis) if analysis is not None else None


def _match(analysis: Analysis, diagnostic: types.Diagnostic) -> Finding | None:
    """The finding a client's diagnostic stands for: same code, same range if possible,
    else the nearest overlapping one (an editor may have shifted the range)."""
    assert analysis.result is not None
    same_code = [f for f in analysis.result.findings if f.code == str(diagnostic.code)]
    for finding in same_code:
        if analysis.positions.range(finding.start, finding.end) == diagnostic.range:
            return finding
    overlapping = _under(analysis, diagnostic.range, same_code)
    return overlapping[0] if overlapping else None


def _under(
    analysis: Analysis, where: types.Range, findings: list[Finding] | None = None
) -> list[Finding]:
    assert analysis.result is not None
    start = analysis.positions.offset(where.start)
    end = analysis.positions.offset(where.end)
    pool = analysis.result.findings if findings is None else findings
    return [f for f in pool if f.start <= end and start <= f.end]


def _diagnostic_for(analysis: Analysis, finding: Finding) -> types.Diagnostic:
    return types.Diagnostic(
        range=analysis.positions.range(finding.start, finding.end),
        message=plain(finding.message),
        code=finding.code,
        source=SOURCE,
    )


def _minimal_edit(analysis: Analysis, fixed: str) -> types.TextEdit:
    """One edit covering only the changed middle (keeps the editor's cursor and folds)."""
    before = analysis.text
    prefix = 0
    limit = min(len(before), len(fixed))
    while prefix < limit and before[prefix] == fixed[prefix]:
        prefix += 1
    suffix = 0
    while (
        suffix < limit - prefix
        and before[len(before) - 1 - suffix] == fixed[len(fixed) - 1 - suffix]
    ):
        suffix += 1
    if 0 < prefix < len(before) and before[prefix - 1] == "\r" and before[prefix] == "\n":
        prefix -= 1  # never start between the two halves of a CRLF
    end = len(before) - suffix
    if suffix and 0 < end < len(before) and before[end - 1] == "\r" and before[end] == "\n":
        suffix -= 1  # nor end there
    return types.TextEdit(
        range=analysis.positions.range(prefix, len(before) - suffix),
        new_text=fixed[prefix : len(fixed) - suffix],
    )


def _workspace_edit(
    ls: VllmConfigServer, uri: str, version: int | None, edits: list[types.TextEdit]
) -> types.WorkspaceEdit:
    """`documentChanges` (versioned: a client refuses it for a changed document) when the
    client supports it, plain `changes` otherwise."""
    workspace = ls.client_capabilities.workspace
    edit_caps = workspace.workspace_edit if workspace else None
    if edit_caps and edit_caps.document_changes:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(
                        uri=uri, version=version
                    ),
                    edits=list(edits),
                )
            ]
        )
    return types.WorkspaceEdit(changes={uri: list(edits)})
