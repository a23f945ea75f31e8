"""An imperative rule's findings for a release other than the one it transcribes.

The generator found, in each release's wheel, the checks a rule cites (`x-vllm.checks`):
a finding stands for that release only when the check it cites is there, and then cites
that release's line and speaks that release's words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import replace

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.vllm.catalogue import Catalogue, CheckSite, available_versions, load_catalogue

#: `{expression}`: where vLLM's message formats a value.
_FIELD = re.compile(r"\{([^{}]*)\}")
#: A value at the very end of a message: up to the space or the end, a final stop aside.
_LAST_VALUE = r"(\S+?)(?=[.,;:]?(?:\s|$))"


def in_release(
    code: str, findings: Iterable[Finding], catalogue: Catalogue, reference: Catalogue
) -> Iterator[Finding]:
    sites = catalogue.checks.get(code, {})
    said = reference.checks.get(code, {})
    for found in findings:
        site = sites.get(found.vllm_source or "")
        if site is None:
            continue  # that check is not in this release
        message = found.message
        if site.message is not None:
            was = said.get(found.vllm_source or "", CheckSite("", None)).message
            message = reworded(message, was, site.message, catalogue.version)
        yield replace(found, vllm_source=site.source, message=message)


def has_check(catalogue: Catalogue, code: str, site: str) -> bool:
    """Whether the catalogue's release has the check at `site` of rule `code` (`site` as
    the rule cites it, in the release it transcribes). A rule whose check comes later in
    vLLM asks this of an earlier check that only some releases have: there it stays
    silent where the release stops first."""
    return site in catalogue.checks.get(code, {})


def reworded(message: str, was: str | None, now: str, version: str) -> str:
    """`message` quotes `was` (vLLM's words in the release the rule transcribes) with the
    values filled in: quote `now` instead, with the same values. A message that does not
    quote `was`, or a `now` that formats a value `was` did not, keeps its words and adds
    this release's (values as `…`)."""
    parts = _FIELD.split(was or "")
    pattern = "".join(
        re.escape(part)
        if n % 2 == 0
        else (_LAST_VALUE if n == len(parts) - 2 and not parts[-1] else "(.+?)")
        for n, part in enumerate(parts)
    )
    match = re.search(pattern, message, re.S) if was else None
    if match is not None:
        values = dict(zip(parts[1::2], match.groups(), strict=True))
        pieces = _FIELD.split(now)
        if all(expression in values for expression in pieces[1::2]):
            said = "".join(piece if n % 2 == 0 else values[piece] for n, piece in enumerate(pieces))
            return message[: match.start()] + said + message[match.end() :]
    return f'{message} (vLLM {version}: "{_FIELD.sub("…", now)}")'


def applicability(code: str, reference: str) -> str:
    """The releases an imperative rule runs for, newest first, as ranges of consecutive
    generated releases ("0.13.0 to 0.33.0, 0.11.2", with an en dash), and those that have
    only some of its checks ("in part: …")."""
    versions = available_versions()
    cited = set(load_catalogue(reference).checks.get(code, {}))
    whole, part = {reference}, set[str]()
    for version in versions:
        has = set(load_catalogue(version).checks.get(code, {}))
        if version != reference and has:
            (whole if has >= cited else part).add(version)
    text = _ranges(versions, whole)
    return f"{text}; in part: {_ranges(versions, part)}" if part else text


def _ranges(versions: list[str], chosen: set[str]) -> str:
    runs: list[list[str]] = []
    for n, version in enumerate(versions):
        if version not in chosen:
            continue
        if runs and n > 0 and versions[n - 1] == runs[-1][-1]:
            runs[-1].append(version)
        else:
            runs.append([version])
    return ", ".join(
        run[0] if len(run) == 1 else f"{run[0]}\N{EN DASH}{run[-1]}" for run in reversed(runs)
    )
