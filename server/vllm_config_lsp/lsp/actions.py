"""Code actions: each finding's fixes (quickfix), "Fix all …" (`fix_all_title`; also a
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
    received,
    rule_page,
)
from vllm_config_lsp.lsp.migrate import MIGRATE_KIND, planned
from vllm_config_lsp.lsp.migrate import action as migrate_action
from vllm_config_lsp.lsp.plain_text import plain

if TYPE_CHECKING:
    from vllm_config_lsp.findings import Finding
    from vllm_config_lsp.lsp.session import FixAllPlan, Session, Snapshot


#: How many of the fixes the title names.
FIXES_NAMED = 2
#: Server command run after "Fix all" is applied: `arguments` = [uri, what it left].
FIX_ALL_REPORT = "vllmConfig.fixAllReport"
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
    session: Session, analysis: Snapshot, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    """The actions of the kinds asked for (all when `only` is not given), in one list."""
    only = [str(kind) for kind in params.context.only] if params.context.only else None
    actions: list[types.CodeAction] = []
    if _wants(only, types.CodeActionKind.QuickFix):
        pairs = _quick_fix_pairs(analysis, params)
        if pairs is None:
            return None
        if pairs:
            actions.extend(await _quick_fixes(session, analysis, pairs))
    if _wants(only, FIX_ALL_KIND):
        fix_all = await _fix_all(session, analysis)
        if fix_all is not None:
            actions.append(fix_all_action(analysis, *fix_all, FIX_ALL_KIND))
    if _wants(only, MIGRATE_KIND) and analysis.result is not None:
        migration = await planned(session, analysis)
        if migration is not None:
            rewrite: types.WorkspaceEdit | None = None
            if migration.text != analysis.text:  # else only the report (needs a human)
                change = _minimal_edit(analysis, migration.text)
                rewrite = _workspace_edit(analysis, [change])
            actions.append(migrate_action(migration, analysis, rewrite))
    if analysis.result is not None and analysis.result.invocations:
        root = session.server.workspace.root_path
        actions.extend(_refactorings(analysis, params, only, Path(root) if root else None))
    return actions or None


def _quick_fix_pairs(
    analysis: Snapshot, params: types.CodeActionParams
) -> list[tuple[types.Diagnostic, dict[str, Any]]] | None:
    """Each diagnostic with the data of its finding: echoed by the client for this version,
    else matched to a finding; without diagnostics, the findings under the range. None when
    the document is not a vLLM config (any more)."""
    pairs: list[tuple[types.Diagnostic, dict[str, Any]]] = []
    for diagnostic in [d for d in params.context.diagnostics if d.source == SOURCE]:
        data = diagnostic.data if isinstance(diagnostic.data, dict) else None
        if data is None or data.get("version") != analysis.version:
            if analysis.result is None:
                return None
            finding = _match(analysis, diagnostic)
            if finding is None:
                continue
            data = finding_data(analysis, finding)
        pairs.append((diagnostic, data))
    if not params.context.diagnostics:
        if analysis.result is None:
            return None
        for finding in _under(analysis, params.range):
            pairs.append((_diagnostic_for(analysis, finding), finding_data(analysis, finding)))
    return pairs


def _refactorings(
    analysis: Snapshot, params: types.CodeActionParams, only: list[str] | None, root: Path | None
) -> list[types.CodeAction]:
    """Between a command line and a `--config` file (`command_lines`)."""
    offset = analysis.positions.offset(params.range.start)
    found = []
    if only is not None and _wants(only, MOVE_TO_CONFIG_KIND):  # a refactoring: asked for
        found.append(move_to_config(analysis, offset, _can_create(analysis)))
    if _wants(only, INLINE_CONFIG_KIND):
        path = analysis.path
        found.append(inline_config(analysis, offset, path.parent if path else None, root))
    return [action for action in found if action is not None]


def _can_create(analysis: Snapshot) -> bool:
    """ "Move into a --config file" creates a file: only for clients that can."""
    workspace = analysis.capabilities.workspace
    edit = workspace.workspace_edit if workspace else None
    operations = (edit.resource_operations or []) if edit else []
    return bool(edit and edit.document_changes) and types.ResourceOperationKind.Create in operations


def fix_title(text: Any, code: str) -> str:
    """The fix's own words first (editors sort and filter the menu by title), the code last:
    "Remove the non-positive budget (keep [2048, 4096]) (VC301)"."""
    words = plain(" ".join(str(text or "").split())) or "Fix"
    return f"{words} ({code})" if code else words


async def _quick_fixes(
    session: Session,
    analysis: Snapshot,
    pairs: list[tuple[types.Diagnostic, dict[str, Any]]],
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
                        edit=_workspace_edit(analysis, edits),
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
                        edit=_workspace_edit(analysis, [disable]),
                    )
                )
        pull = _pull_action(analysis, diagnostic) if code == "VC600" else None
        if pull is not None:
            fixes.append(pull)
        if rule_page(code) is not None and all(a.title != _docs_title(code) for a in docs):
            docs.append(_docs_action(code, diagnostic))
    fix_all = await _fix_all(session, analysis) if _fixable(analysis) else None
    if fix_all is not None:
        action = fix_all_action(analysis, *fix_all, types.CodeActionKind.QuickFix)
        action.diagnostics = [diagnostic for diagnostic, _ in pairs]
        fixes.append(action)
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
    analysis: Snapshot | None, diagnostic: types.Diagnostic
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


def _fixable(analysis: Snapshot) -> bool:
    """More than one problem that fix-all would fix (a single one has its own fix)."""
    return sum(1 for finding in analysis.checked.findings if finding.safe_fix) > 1


async def _fix_all(
    session: Session, analysis: Snapshot
) -> tuple[types.WorkspaceEdit, FixAllPlan] | None:
    """Every safe fix, re-checked (`check --fix`), as one minimal edit, and what it leaves;
    None if there is nothing to fix. Kept with the snapshot: the lightbulb asks on every
    cursor move over a diagnostic, and fix-all checks the text again up to five times."""
    if analysis.result is None:
        return None
    plan: FixAllPlan | None = analysis.memo.get("fix-all")
    if plan is None:
        plan = await session.run_on_lint_thread(session.fix_all_plan, analysis)
        analysis.memo["fix-all"] = plan
    if plan is None or plan.text == analysis.text:
        return None
    return _workspace_edit(analysis, [_minimal_edit(analysis, plan.text)]), plan


async def fix_all_edit(
    session: Session, analysis: Snapshot
) -> tuple[types.WorkspaceEdit, FixAllPlan] | None:
    """`vllmConfig.fixAll` (the command palette): the fix-all edit of an open document and
    what it leaves."""
    return await _fix_all(session, analysis)


def fix_all_action(
    analysis: Snapshot, edit: types.WorkspaceEdit, plan: FixAllPlan, kind: str
) -> types.CodeAction:
    """The action, titled with what it does; where it leaves problems, applying it says so
    (`FIX_ALL_REPORT`)."""
    report = fix_all_report(plan)
    command = None
    if report is not None:
        command = types.Command(
            title="What Fix all left", command=FIX_ALL_REPORT, arguments=[analysis.uri, report]
        )
    return types.CodeAction(title=fix_all_title(plan), kind=kind, edit=edit, command=command)


def fix_all_title(plan: FixAllPlan) -> str:
    """What the action will do: "Fix all safely: 1 of 3 vLLM Config problems: Rename … (2
    need a decision)" (editors filter their menu by a title's start: "Fix all" it is)."""
    count, total = len(plan.fixed), plan.total
    if count == total:
        head = (
            "Fix the vLLM Config problem" if total == 1 else f"Fix all {total} vLLM Config problems"
        )
    else:
        head = f"Fix all safely: {count} of {total} vLLM Config problems"
    names = "; ".join(plain(" ".join(title.split())) for title in plan.fixed[:FIXES_NAMED])
    if count > FIXES_NAMED:
        names += "; …"
    many = len(plan.decisions)
    left = f" ({many} {'needs' if many == 1 else 'need'} a decision)" if many else ""
    return f"{head}: {names}{left}" if names else f"{head}{left}"


def fix_all_report(plan: FixAllPlan) -> str | None:
    """What "Fix all" leaves, said after it ran; None when it left nothing."""
    if not plan.decisions and not plan.by_hand:
        return None
    parts = [f"vLLM Config: fixed {len(plan.fixed)} of {plan.total} problems."]
    if plan.decisions:
        each = "; ".join(fix_title(title, code) for code, title in plan.decisions)
        many = len(plan.decisions)
        parts.append(
            f"{many} {'needs' if many == 1 else 'need'} a decision, "
            f"{'its' if many == 1 else 'each with its'} quick fix on the line: {each}."
        )
    if plan.by_hand:
        many = len(plan.by_hand)
        codes = ", ".join(sorted(set(plan.by_hand)))
        parts.append(f"{many} {'has' if many == 1 else 'have'} no automatic fix ({codes}).")
    return " ".join(parts)


def _match(analysis: Snapshot, diagnostic: types.Diagnostic) -> Finding | None:
    """The finding a client's diagnostic stands for: same code, same range if possible,
    else the nearest overlapping one (an editor may have shifted the range)."""
    assert analysis.result is not None
    same_code = [f for f in analysis.result.findings if f.code == str(diagnostic.code)]
    for finding in same_code:
        if analysis.positions.range(*received(analysis.text, finding)) == diagnostic.range:
            return finding
    overlapping = _under(analysis, diagnostic.range, same_code)
    return overlapping[0] if overlapping else None


def _under(
    analysis: Snapshot, where: types.Range, findings: list[Finding] | None = None
) -> list[Finding]:
    assert analysis.result is not None
    start = analysis.positions.offset(where.start)
    end = analysis.positions.offset(where.end)
    pool = analysis.result.findings if findings is None else findings
    return [f for f in pool if f.start <= end and start <= f.end]


def _diagnostic_for(analysis: Snapshot, finding: Finding) -> types.Diagnostic:
    return types.Diagnostic(
        range=analysis.positions.range(*received(analysis.text, finding)),
        message=plain(finding.message),
        code=finding.code,
        source=SOURCE,
    )


def _minimal_edit(analysis: Snapshot, fixed: str) -> types.TextEdit:
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


def _workspace_edit(analysis: Snapshot, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
    """`documentChanges` (versioned: a client refuses it for a changed document) when the
    client supports it, plain `changes` otherwise."""
    uri, version = analysis.uri, analysis.version
    workspace = analysis.capabilities.workspace
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
