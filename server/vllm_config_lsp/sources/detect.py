"""What a document is, for the check: a host of command lines, a `--config` file, or nothing.

The one decision every front end asks for (the CLI for each file, the language server for
each document, the benchmarks): first the host (`hosts.host_of`: a script, a manifest, a
recipe… read by its host's reader, never as a `--config` file), then the association
(`association.classify`: a `--config` file by marker comment, the user's globs, a `vllm`
name or a name on the command line with content that could be one, or content alone).
Anything else holds nothing to check, and `Detected.why_not` says why in one line (the
CLI's `-v`). Pure: the text is given, the flag names are passed in from `vllm/`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import PurePosixPath

from vllm_config_lsp.sources.association import (
    AssociationSettings,
    Reason,
    classify,
    has_marker,
    is_config_mapping,
    is_yaml_document,
    mapping_keys,
    structural_keys,
)
from vllm_config_lsp.sources.hosts import host_of

#: `Detected.kind` of a `--config` file.
CONFIG = "config"
_DEFAULT_SETTINGS = AssociationSettings()


@dataclass(frozen=True)
class Detected:
    """`kind`: a host kind (`hosts.HOSTS`), `CONFIG`, or None when the document holds
    nothing to check; `reason` why it is checked; `why_not` why it is not (when `kind` is
    None)."""

    kind: str | None
    reason: Reason | None
    #: Works out `why_not` when it is asked for (`check -v`): it reads again what
    #: `classify` read, which an editor checking a YAML file that is not vLLM's on every
    #: keystroke never needs.
    explain: Callable[[], str] = field(default=str, compare=False, repr=False)

    @property
    def why_not(self) -> str:
        return self.explain()

    @property
    def host(self) -> str | None:
        """What `engine.lint` takes as `host`: None checks the text as a `--config` file."""
        return None if self.kind == CONFIG else self.kind


def detect(
    path: str,
    text: str,
    language_id: str | None = None,
    *,
    flag_names: frozenset[str],
    settings: AssociationSettings = _DEFAULT_SETTINGS,
    named: bool = False,
) -> Detected:
    """What the document at `path` (a POSIX path, or an editor URI's path) is. `named`: the
    user named the file on the command line (the CLI; a directory walk's files are not)."""
    host = host_of(path, text, language_id, flag_names=flag_names)
    if host is not None:
        return Detected(host, Reason.COMMAND_LINE)
    reason = classify(
        path, text, settings, flag_names=flag_names, language_id=language_id, named=named
    )
    if reason is not None:
        return Detected(CONFIG, reason)
    return Detected(None, None, partial(_why_not, path, text, language_id, flag_names))


def _why_not(path: str, text: str, language_id: str | None, flag_names: frozenset[str]) -> str:
    name = PurePosixPath(path).name
    if not is_yaml_document(path, language_id):
        suffix = PurePosixPath(name).suffix
        return f"not a vLLM file: no vLLM host reads {'a ' + suffix if suffix else 'it'}"
    keys = mapping_keys(text)
    if keys is None:
        return "not a --config file: its top level is not one YAML mapping"
    if not keys:
        return "not a --config file: no settings in it"
    other = structural_keys(keys)
    if other:
        return f"not a --config file: {_listed(other)} belong to another format"
    if not is_config_mapping(keys, flag_names):
        return f"not a --config file: its keys ({_listed(keys)}) are not vLLM flags"
    if has_marker(text):  # excluded by a setting, marker notwithstanding
        return "excluded by the settings"
    return "not a --config file by its name or content"


def _listed(keys: list[str], at_most: int = 4) -> str:
    shown = ", ".join(f"`{key}`" for key in keys[:at_most])
    return shown + (", …" if len(keys) > at_most else "")
