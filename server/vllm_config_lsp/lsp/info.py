"""`vllmConfig/documentInfo`: what the VS Code status-bar item shows for a document.

Request params: `{"textDocument": {"uri": "file:///…"}}`. Result:

    {"isConfig": true,              # checked as a vLLM config?
     "reason": "file name",         # association.Reason value, or null when not a config
     "vllmVersion": "0.33.0",       # the release the file is (or would be) checked against
     "versionSource": "vLLM 0.33.0, from the `# vllm-config: version=` comment",
     "commandLines": [{"line": 4, "vllmVersion": "0.33.0", "versionSource": "…"}],
     "problems": ["vllmVersion: unknown vLLM version '0.99', ignored; known releases: …"]}

`versionSource` says what the checks use: the one reason of the document (its
`# vllm-config:` comment, the setting, a venv, its command lines' own image tags, a sibling
file's tag as the last resort), or, where its command lines run different releases or for
different reasons, each one's (0-based line, release, why), as `commandLines` lists them
(empty for a `--config` file) and the hover on each says.
`problems` are the settings the server could not use (`settings.parse`), whatever the
document: a user who set a release and sees another in the status item learns why there.
A document the server does not have open gets `isConfig: false` and nulls. Other clients
may use the request as well; a server without it answers MethodNotFound (-32601).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vllm_config_lsp.lsp.session import Snapshot

DOCUMENT_INFO = "vllmConfig/documentInfo"


def requested_uri(params: Any) -> str | None:
    """The `textDocument.uri` of the params, however pygls structured them."""
    document = params.get("textDocument") if isinstance(params, dict) else None
    if document is None:
        document = getattr(params, "textDocument", None) or getattr(params, "text_document", None)
    uri = document.get("uri") if isinstance(document, dict) else getattr(document, "uri", None)
    return uri if isinstance(uri, str) else None


def document_info(analysis: Snapshot | None, settings_problems: Sequence[str]) -> dict[str, Any]:
    """The answer for a document (None: not open); `settings_problems` as the session has
    them now."""
    problems = list(settings_problems)
    if analysis is None:
        return {
            "isConfig": False,
            "reason": None,
            "vllmVersion": None,
            "versionSource": None,
            "commandLines": [],
            "problems": problems,
        }
    is_config = analysis.result is not None
    lines = [
        {
            "line": analysis.positions.range(start, start).start.line,
            "vllmVersion": r,
            "versionSource": why,
        }
        for start, _end, r, why in (analysis.line_releases() if is_config else [])
    ]
    return {
        "isConfig": is_config,
        "reason": analysis.reason if is_config else None,
        "vllmVersion": lines[0]["vllmVersion"] if lines else analysis.vllm_version,
        "versionSource": _source(lines) if lines else analysis.version_source,
        "commandLines": lines,
        "problems": problems,
    }


def _source(lines: list[dict[str, Any]]) -> str:
    """One reason when every command line has the same, else each line's."""
    reasons = {(line["vllmVersion"], line["versionSource"]) for line in lines}
    if len(reasons) == 1:
        return str(lines[0]["versionSource"])
    each = "; ".join(f"line {line['line'] + 1}: {line['versionSource']}" for line in lines)
    return f"{len(lines)} command lines, each checked for its own release: {each}"
