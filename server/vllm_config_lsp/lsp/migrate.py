"""The "Migrate this config to vLLM X" code action (kind `source.migrate.vllm-config`).

Offered, whatever the range, when the release a file is checked against is older than the
newest one the server knows (X) and `migrate.migrate` has something to say: renames and
removals it can apply, or options whose replacement has another shape. A whole-document
`source` action (VS Code: "Source Action…"; Neovim and eglot list it with the others).

* The edit is the migrated text as one minimal edit. A `# vllm-config: version=…` comment
  is updated to X in the same edit: it pinned the old release, and the migrated file would
  otherwise be checked against it (and its new keys reported).
* What needs a human decision is counted in the title ("… (1 needs your decision)"), and
  listed after the edit is applied: the action carries the command `vllmConfig.migrationReport`,
  which the editor runs after applying the edit; the server answers it with a
  `window/showMessage` (a warning when something is left to decide, else information)
  and writes the full report to the log.
* When the version came from elsewhere (the setting, the workspace's vLLM, an image tag),
  nothing pins it in the file: the report says the file is still checked against the old
  release until that source changes.

Migrations are computed on the lint thread and cached per analysis (document version).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lsprotocol import types

if TYPE_CHECKING:
    from vllm_config_lsp.engine import Checked
    from vllm_config_lsp.lsp.session import Session, Snapshot

MIGRATE_KIND = "source.migrate.vllm-config"
MIGRATION_REPORT = "vllmConfig.migrationReport"
_VERSION_OPTION = re.compile(r"(?<![\w-])version=([^\s,]+)")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass
class Planned:
    target: str
    text: str  # the document after the action
    applied: list[str] = field(default_factory=list)
    needs_human: list[str] = field(default_factory=list)
    marker_updated: bool = False


def newest_release() -> str:
    from vllm_config_lsp.vllm.catalogue import DEFAULT_VERSION

    return DEFAULT_VERSION


def is_older(version: str, than: str) -> bool:
    from vllm_config_lsp.vllm.catalogue import minor_of

    mine, theirs = minor_of(version), minor_of(than)
    return mine is not None and theirs is not None and mine < theirs


def bump_marker(text: str, target: str) -> str:
    """`text` with the `version=` of its `# vllm-config:` comment set to `target`."""
    from vllm_config_lsp.document.markers import MARKER, MARKER_LINES

    head_end = len(text)
    for count, match in enumerate(_LINE_BREAK.finditer(text), 1):
        if count == MARKER_LINES:
            head_end = match.start()
            break
    marker = MARKER.search(text, 0, head_end)
    if marker is None or marker.group("options") is None:
        return text
    option = _VERSION_OPTION.search(text, marker.start("options"), marker.end("options"))
    if option is None or option.group(1) == target:
        return text
    return text[: option.start(1)] + target + text[option.end(1) :]


def plan(checked: Checked) -> Planned | None:
    """The migration offered for a checked document (lint thread)."""
    from vllm_config_lsp.migrate import migration as migrated

    target = newest_release()
    if not is_older(checked.release, target):
        return None
    text = checked.text
    migration = migrated(checked, target)
    final = bump_marker(migration.text, migration.target)
    if final == text and not migration.needs_human:
        return None
    return Planned(
        migration.target,
        final,
        list(migration.applied),
        list(migration.needs_human),
        marker_updated=final != migration.text,
    )


async def planned(session: Session, analysis: Snapshot) -> Planned | None:
    """The migration offered for the snapshot, planned once (kept with it)."""
    if "migration" in analysis.memo:
        cached: Planned | None = analysis.memo["migration"]
        return cached
    result: Planned | None = await session.run_on_lint_thread(plan, analysis.checked)
    analysis.memo["migration"] = result
    return result


def title(migration: Planned) -> str:
    text = f"Migrate this config to vLLM {migration.target}"
    decisions = len(migration.needs_human)
    if decisions:
        text += f" ({decisions} {'needs' if decisions == 1 else 'need'} your decision)"
    return text


def action(
    migration: Planned, analysis: Snapshot, edit: types.WorkspaceEdit | None
) -> types.CodeAction:
    report = {
        "uri": analysis.uri,
        "from": analysis.vllm_version,
        "versionSource": analysis.version_source,
        "target": migration.target,
        "applied": migration.applied,
        "needsHuman": migration.needs_human,
        "markerUpdated": migration.marker_updated,
    }
    return types.CodeAction(
        title=title(migration),
        kind=MIGRATE_KIND,
        edit=edit,
        command=types.Command(
            title="Show what the migration left to decide",
            command=MIGRATION_REPORT,
            arguments=[report],
        ),
    )


def report_message(report: Any) -> tuple[types.MessageType, str, str]:
    """(type, pop-up message, full log text) for the command's argument."""
    if not isinstance(report, dict):
        report = {}
    target = report.get("target") or "?"
    applied = [str(line) for line in report.get("applied") or ()]
    decide = [str(line) for line in report.get("needsHuman") or ()]
    changes = f"{len(applied)} change{'' if len(applied) == 1 else 's'} applied"
    parts = [f"vllm-config: migrated to vLLM {target} ({changes})."]
    if decide:
        parts.append("Needs your decision: " + "; ".join(decide) + ".")
    still = report.get("from")
    if isinstance(still, str) and not report.get("markerUpdated") and still != target:
        from vllm_config_lsp.lsp.describe import version_text

        where = version_text(still, str(report.get("versionSource") or ""))
        parts.append(
            f"The file is still checked against {where} until that changes, "
            f"or add `# vllm-config: version={target}` at its top."
        )
    kind = types.MessageType.Warning if decide else types.MessageType.Info
    log = "\n".join(
        [f"{report.get('uri')}: migrated to vLLM {target}"]
        + [f"  applied: {line}" for line in applied]
        + [f"  needs a decision: {line}" for line in decide]
    )
    return kind, " ".join(parts), log
