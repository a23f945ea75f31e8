"""One entry point for every front end: a document in, what vLLM would make of it out.

`check(Document, CheckOptions) -> Checked` is the check service the CLI, the language server
and the benchmarks call: it decides whether the document is a vLLM document and in which
host syntax (`sources.hosts`, `sources.association`), which release it targets and why
(`vllm.versions`), and runs the rules (`lint`). The front ends only convert (paths, URIs,
settings, positions) and render; `fix_all`, `migrate.migration` and the editor's
refactorings take the `Checked`. Rules run in code order and a crashing rule becomes an
internal-error finding instead of a traceback, so one bug never hides the other diagnostics.
"""

from __future__ import annotations

import os
import re
import traceback
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from pathlib import Path

from vllm_config_lsp.document.markers import marker_spans
from vllm_config_lsp.document.text_memo import Memo
from vllm_config_lsp.findings import Finding, Severity, apply_edits, safe_fix_edits
from vllm_config_lsp.rules import FIRST_IMPERATIVE_CODE, Rule, all_rules
from vllm_config_lsp.rules.suppression import apply as apply_suppressions
from vllm_config_lsp.sources import compose_env
from vllm_config_lsp.sources.association import AssociationSettings as AssociationSettings
from vllm_config_lsp.sources.association import path_of_uri
from vllm_config_lsp.sources.config_file import ConfigFile, read_config_file
from vllm_config_lsp.sources.detect import detect
from vllm_config_lsp.sources.files import pick
from vllm_config_lsp.sources.hosts import document_fixes, find_invocations
from vllm_config_lsp.sources.invocation import (
    EnvVar,
    GpuClaim,
    Invocation,
    filled_references,
    on_filled_text,
    on_written_text,
    own_findings,
)
from vllm_config_lsp.sources.safe_read import is_dir, read_text
from vllm_config_lsp.vllm.catalogue import detection_flag_names, load_catalogue, nearest_release
from vllm_config_lsp.vllm.config_model import (
    ConfigModel,
    argv_model,
    config_start,
    host_document,
)
from vllm_config_lsp.vllm.hardware import Stated, Target, resolve_target
from vllm_config_lsp.vllm.plugins import PluginChoice, choose_plugin, switched, with_plugin
from vllm_config_lsp.vllm.versions import (
    NEWEST_REASON,
    WATCHED_GLOBS,
    DeploymentFolders,
    choose_version,
    depends_on,
    invocation_release,
    release_stated,
)

#: The marker comment's options with the offsets of their values (`markers.marker_spans`).
Marker = Mapping[str, tuple[str, int, int]]

#: Files larger than this are not parsed (a config is a few KB; this keeps editors responsive).
MAX_BYTES = 2_000_000

INTERNAL_ERROR = "VC000"
#: Innermost traceback frames kept of an engine crash (a RecursionError has thousands).
CRASH_FRAMES = 8

#: Applying one fix can reveal the next (a renamed key then gets its value checked); a few
#: rounds reach the fixed point on every case seen, and the bound keeps a fix loop finite.
FIX_ROUNDS = 5


class LintResult:
    """What `lint` found. For a host of command lines, the per-command-line models (hover,
    completion, code lenses, tests) are built on first use, not on every keystroke: the
    findings of a command line a keystroke did not touch come from the engine's memo."""

    def __init__(
        self,
        findings: list[Finding],
        model: ConfigModel | None,
        command_lines: Sequence[CommandLine] = (),
        document: ConfigModel | None = None,
        release: tuple[str, str] | None = None,
        *,
        starts: int = 0,
    ) -> None:
        self.findings = findings
        #: How many starts of vLLM the document's source found (a `--config` file is one).
        self.starts = starts
        #: The document's release and why, when a plugin sign in it chose them.
        self.release = release
        self._model = model
        #: Every vLLM command line of a host document, with the release it is checked for.
        self.command_lines = list(command_lines)
        #: What `# vllm-config: disable=` comments are read against: the `--config` file's
        #: model, or the host document's text with its first command line.
        self.document = document if document is not None else model

    @cached_property
    def invocations(self) -> list[ConfigModel]:
        """One model per vLLM command line of a host document (empty for a `--config` file)."""
        return [line.model() for line in self.command_lines]

    @property
    def model(self) -> ConfigModel | None:
        """The `--config` file's model, or the first command line's."""
        if self._model is None and self.command_lines:
            return self.invocations[0]
        return self._model


@dataclass(frozen=True)
class CommandLine:
    """One start of vLLM in a document (a host's command line, or the one a `--config`
    file is) and how to build what vLLM makes of it."""

    text: str
    invocation: Invocation
    release: str
    path: Path | None
    model_dirs: tuple[Path, ...]
    #: The target the user states outside the document (CLI, editor setting).
    stated: Stated | None = None
    #: Why this release (`versions.invocation_release`).
    why: str = ""
    #: The document's marker comment, parsed once for all its command lines.
    marker: Marker | None = None
    #: The `--config` file the words were loaded from (None: a host's command line), and
    #: whether `vllm serve` names the model outside it (None: only without `model:`).
    origin: ConfigFile | None = None
    model_on_cli: bool | None = None
    #: The platform plugin it runs with, and why (None: stock vLLM).
    plugin: PluginChoice | None = None

    @property
    def switch(self) -> str | None:
        """The word that hands this start to a plugin's serve command (`--omni`)."""
        return switched([word.text for word in self.invocation.args], self.release)

    @cached_property
    def target(self) -> Target | None:
        return _target(self.text, self.invocation.gpus, self.stated, self.marker)

    def model(self) -> ConfigModel:
        plugin = self.plugin.plugin if self.plugin is not None else None
        switch = None if self.origin is not None else self.switch
        model = argv_model(
            self.text,
            with_plugin(load_catalogue(self.release), plugin, switch),
            self.invocation,
            origin=self.origin,
            model_on_cli=self.model_on_cli,
            path=self.path,
            model_dirs=self.model_dirs,
        )
        model.target = self.target
        model.plugin = plugin
        return model


def _line_release(
    text: str,
    invocation: Invocation | None,
    chosen: tuple[str, str, bool],
    marker: Mapping[str, str],
    plugins: Sequence[str],
) -> tuple[str, str, PluginChoice | None]:
    """The release one start runs (its image, its pin, else the document's `chosen`
    release, why and whether the user stated it), the plugin it runs with, and why. A
    plugin sign that names the plugin's release (`quay.io/ascend/vllm-ascend:v0.23.0`)
    names the vLLM release too, the one that plugin release is built for, unless the
    user or the start itself names another."""
    version, why, stated = chosen
    if invocation is not None:
        version, why = invocation_release(invocation, version, why, stated=stated)
    image = invocation.image if invocation is not None else None
    try:
        words = [word.text for word in invocation.args] if invocation is not None else []
        choice = choose_plugin(
            text, vllm=version, marker=marker, setting=plugins, image=image, words=words
        )
    except Exception:  # a bug in reading the signs leaves the start on stock vLLM
        choice = None
    if choice is None:
        return version, why, None
    built = choice.vllm_release
    if built is None and why.startswith(NEWEST_REASON):  # nothing names vLLM's release
        built = choice.plugin.vllm_release
    own = why != chosen[1] or stated  # the start's image or pin, or the user, named it
    release = nearest_release(built, clamp=True) if built else None
    if release is not None and not own and release != version:
        said = f"{choice.plugin.name} {choice.said}" if choice.said else choice.plugin.label
        version, why = release, f"vLLM {release}, the release {said} is built for"
    return version, f"{why}; plugin {choice.why}", choice


def _target(
    text: str, claims: Sequence[GpuClaim], stated: Stated | None, marker: Marker | None
) -> Target | None:
    """The target hardware; a bug in reading it leaves the file without one (the checks it
    decides stay off) rather than taking the other diagnostics down."""
    try:
        return resolve_target(text, claims, stated, marker=marker)
    except Exception:
        return None


def _selected(
    rules: Iterable[Rule], select: set[str] | None, ignore: set[str] | None
) -> list[Rule]:
    chosen = []
    for rule in rules:
        if select and not any(rule.code.startswith(s) for s in select):
            continue
        if ignore and any(rule.code.startswith(s) for s in ignore):
            continue
        chosen.append(rule)
    return chosen


def _internal(what: str) -> Finding:
    detail = traceback.format_exc(limit=-1).strip().splitlines()[-1]
    return Finding(INTERNAL_ERROR, Severity.WARNING, 0, 0, f"internal error in {what}: {detail}")


def _too_large() -> LintResult:
    message = f"file is larger than {MAX_BYTES:,} characters; not checked"
    return LintResult([Finding(INTERNAL_ERROR, Severity.ERROR, 0, 0, message)], None)


def _run_rules(model: ConfigModel, rules: list[Rule]) -> list[Finding]:
    findings: list[Finding] = []
    for rule in rules:
        if not rule.applies_to(model.catalogue) or not rule.can_fire(model):
            continue  # `can_fire`: what the rule needs is not set; its module stays unread
        try:
            findings.extend(rule.run(model))
        except Exception:  # a rule bug must not take the other diagnostics down
            findings.append(_internal(f"rule {rule.code}"))
    return findings


def _suppressed(
    model: ConfigModel, findings: list[Finding], rules: list[Rule], keep: bool = False
) -> list[Finding]:
    """`# vllm-config: disable=…` comments apply to every front end and host alike; with
    `keep` (suppressions ignored) the findings they hide stay, marked with the comment."""
    try:
        return apply_suppressions(model, findings, {rule.code for rule in rules}, keep=keep)
    except Exception:  # a suppression bug must not hide the findings either
        return [*findings, _internal("suppression")]


#: The release one start runs, why, and the platform plugin it runs with (`_line_release`).
Release = tuple[str, str, PluginChoice | None]


@dataclass(frozen=True)
class _Read:
    """What a document's source yields, whatever the source: its starts of vLLM, each with
    the release it runs; the release the document is shown as checked for; the `--config`
    file the start was loaded from (None: a host's command lines); and why nothing was
    read, when the reader failed."""

    starts: list[tuple[Invocation, Release]]
    release: Release
    origin: ConfigFile | None = None
    problem: Finding | None = None

    @property
    def found(self) -> list[tuple[Invocation, Release]]:
        """The starts `vllm-config-lsp argv` lists: a `--config` file is one only when it
        has keys and vLLM reads an argv from it."""
        origin = self.origin
        if origin is not None and not (origin.pairs and origin.invocation is not None):
            return []
        return self.starts


@dataclass(frozen=True)
class _Reading:
    """What a source reads a document with: its text and path, the document's release
    choice (release, why, whether the user stated it), the marker comment's options and
    the plugins the settings name."""

    text: str
    path: Path | None
    chosen: tuple[str, str, bool]
    marker: Mapping[str, str]
    plugins: Sequence[str]

    def release(self, invocation: Invocation | None) -> Release:
        return _line_release(self.text, invocation, self.chosen, self.marker, self.plugins)


_Reader = Callable[[_Reading], _Read]


def _read_config_file(reading: _Reading) -> _Read:
    """The `--config` file's source: its release first (the loader is the release's, and
    a plugin sign in the file may name it), then the one start the file is."""
    release = reading.release(None)
    origin = read_config_file(reading.text, load_catalogue(release[0]).loader)
    return _Read([(config_start(origin), release)], release, origin)


def _host_reader(host: str) -> _Reader:
    """A host's source: its reader finds the starts (`sources.hosts`); each runs the
    release its own image or pin names, else the document's."""

    def read(reading: _Reading) -> _Read:
        document: Release = (*reading.chosen[:2], None)
        try:
            invocations = find_invocations(host, reading.text, reading.path)
        except MemoryError:  # never "no start of vLLM here": the file was not read
            message = f"not read: the {host} reader ran out of memory on this file"
            problem = Finding(INTERNAL_ERROR, Severity.ERROR, 0, 0, message)
            return _Read([], document, problem=problem)
        except Exception:  # a host parser bug must not take the editor down
            return _Read([], document, problem=_internal(f"the {host} reader"))
        return _Read([(inv, reading.release(inv)) for inv in invocations], document)

    return read


def _reader(host: str | None) -> _Reader:
    """The source of a document of host syntax `host` (None: a `--config` file)."""
    return _read_config_file if host is None else _host_reader(host)


def lint(
    text: str,
    *,
    version: str | None = None,
    select: set[str] | None = None,
    ignore: set[str] | None = None,
    model_on_cli: bool | None = None,
    path: Path | None = None,
    model_dirs: Iterable[Path] = (),
    host: str | None = None,
    version_stated: bool = False,
    gpus: Stated | None = None,
    version_why: str = "",
    marker: Marker | None = None,
    ignore_suppressions: bool = False,
    plugins: Sequence[str] = (),
) -> LintResult:
    """`path` (the file on disk) and `model_dirs` let model-aware rules find the model's
    files: relative model folders are resolved against the file's folder. `host` is the
    source kind of a document that holds command lines (`sources.hosts.host_of`); None
    checks the text as a `--config` file. `version_stated`: the user named the release
    (`--vllm-version`, the setting, the marker comment), which image tags do not override.
    `gpus`: the target the user states (`--gpu`/`--gpus`, the editor setting); the marker
    comment and what the document says are read here. `version_why`: why `version` (what
    a command line that names no release of its own is checked for, and why). `marker`:
    the text's `marker_spans`, when the caller has parsed them (`Document.marker`).
    `ignore_suppressions`: findings that `# vllm-config: disable=` comments hide are kept,
    each with its comment (`Finding.suppressed`). `plugins`: the platform plugins the
    user's settings name (`plugins.choose_plugin`)."""
    if len(text) > MAX_BYTES:
        return _too_large()
    if marker is None:
        marker = marker_spans(text)
    if version is None:  # front ends pass their choice; else the file's own marker counts
        version = choose_version(text, marker=_options(marker))[0]
    rules = _selected(all_rules(), select, ignore)
    chosen = (version, version_why, version_stated)
    read = _reader(host)(_Reading(text, path, chosen, _options(marker), plugins))
    if read.problem is not None:
        return LintResult([read.problem], None)
    origin = read.origin
    version, version_why, document_plugin = read.release
    read_environ = _EnvironReader()
    lines = [
        CommandLine(
            text,
            read_environ(invocation, release),
            release,
            path,
            tuple(model_dirs),
            gpus,
            why,
            marker,
            origin,
            model_on_cli,
            plugin,
        )
        for invocation, (release, why, plugin) in read.starts
    ]
    ran = tuple(rule.code for rule in rules)
    checked = [_command_line_findings(line, rules, ran) for line in lines]
    findings = own_findings([found for found_on, _ in checked for found in found_on], text)
    findings = document_fixes(host, text, findings)
    document = None
    if lines:  # suppression comments apply to the document as a whole
        document = host_document(text, load_catalogue(version), lines[0].invocation, origin)
        findings = _suppressed(document, findings, rules, ignore_suppressions)
    findings.sort(key=Finding.sort_key)
    release = (version, version_why) if document_plugin is not None else None
    if origin is not None:  # one start, the file's own: no command line of a host
        return LintResult(findings, checked[0][1], (), document, release, starts=1)
    return LintResult(findings, None, lines, document, release, starts=len(lines))


def _options(marker: Marker) -> dict[str, str]:
    return {key: value for key, (value, _start, _end) in marker.items()}


@dataclass(frozen=True)
class _Checked:
    """A command line's findings, in offsets from the start of its first line."""

    findings: tuple[Finding, ...]
    #: The line the command line started on, when a message names a line number (then a
    #: move to another line is a new check).
    line: int | None


#: Findings of the command lines checked lately, by what they depend on: their lines' text,
#: their words' shape relative to it, the release, the rules run and where model folders are
#: looked for. A keystroke changes one command line of a long script or recipe; the others
#: are found here instead of being checked again. (A model folder that appears on disk is
#: seen at the next edit of that command line, as a `--config` file sees it at its next edit.)
#: Bounded by what the entries weigh (their lines' text and findings), not their number:
#: one edited line of 5,000 flags held 13 MB of findings per keystroke (issue 30). Its
#: entries share the one budget of every memo (`text_memo.STORE`), weighed by what they hold
#: in bytes: their lines' text, their key's shape of every word and their findings. Measured
#: with tracemalloc against these weights (benchmarks/hardening.md): a line of 5,000 flags
#: and 4,999 findings holds 4.4 MB (counted 5.4 MB), 20,000 one-letter flags 13.8 MB
#: (19.2 MB), a Markdown file's 1,500 lines 3.9 MB (4.1 MB), a short line with one finding
#: 4.3 KB (4.4 KB).
_CHECKED: Memo[tuple[object, ...], _Checked] = Memo()
#: What one word's shape weighs in a key (its text, offsets and quoting).
_WORD_WEIGHT = 200
#: What a finding weighs besides its message (its fixes, spans and related information).
_FINDING_WEIGHT = 512
#: What an entry weighs besides its words and findings (its key tuple, the release, the
#: rules run, the target).
_ENTRY_WEIGHT = 2048


def forget_checked() -> None:
    """Drop the command-line memo: the files it was computed from changed (a model's
    config.json fetched into the cache)."""
    _CHECKED.clear()


_NAMES_LINE = re.compile(r"\bline \d")


#: A command line's environment up to this many settings is checked as written; past it,
#: only the settings vLLM's checks can read are (`_EnvironReader`).
_ENVIRON_KEPT = 64


class _EnvironReader:
    """Each start with only the environment vLLM's checks read, where it is long: names of
    the release's catalogue (current or removed) and every `VLLM_` name (plugins read
    their own `VLLM_*`; unknown ones are VC240). A shell script's 10,000 `export`s of other
    names went with each of its 300 command lines into the checks and their memo key:
    quadratic, 23 s and 1.2 GB for an 800 KB script (issue 30); no check reads them. Short
    environments (every real one) are left whole.

    One reader per check of a document: the starts of one script share the exports before
    them (the same objects, in the same order), so what the previous start's environment
    shares with this one's keeps its filtered positions and only the rest is read. Reading
    every start's whole environment in Python was quadratic again: 320 command lines x
    16,000 exports, 189 µs per export (issue 30, round 3)."""

    def __init__(self) -> None:
        #: Per release: the last long environment read and the positions of it kept.
        self._last: dict[str, tuple[tuple[EnvVar, ...], list[int]]] = {}

    def __call__(self, invocation: Invocation, release: str) -> Invocation:
        environ = tuple(invocation.environ)
        if len(environ) <= _ENVIRON_KEPT:
            return invocation
        names = _read_names(release)
        previous, kept = self._last.get(release, ((), []))
        shared = _shared_prefix(previous, environ)
        kept = kept[: bisect_left(kept, shared)]
        kept.extend(
            at
            for at in range(shared, len(environ))
            if environ[at].name.text.startswith("VLLM_") or environ[at].name.text in names
        )
        self._last[release] = (environ, kept)
        return replace(invocation, environ=tuple(environ[at] for at in kept))


@cache
def _read_names(release: str) -> frozenset[str]:
    """The names a release's checks read besides `VLLM_*`: its catalogue's, current or
    removed."""
    from vllm_config_lsp.vllm.environ import load_environ

    known = load_environ(release)
    if known is None:
        return frozenset()
    return frozenset(known.variables) | frozenset(known.removed)


def _shared_prefix(first: tuple[EnvVar, ...], second: tuple[EnvVar, ...]) -> int:
    """How many leading entries `first` and `second` share, compared in C (a tuple compares
    its items by identity first): one pass when one begins with the other (a script's
    starts one after another), a bisection of passes when they part."""
    length = min(len(first), len(second))
    if first[:length] == second[:length]:
        return length
    low, high = 0, length - 1  # first[:low] == second[:low]; first[:high + 1] differs
    while low < high:
        middle = (low + high + 1) // 2
        if first[:middle] == second[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _command_line_findings(
    line: CommandLine, rules: list[Rule], ran: tuple[str, ...]
) -> tuple[list[Finding], ConfigModel | None]:
    """A `--config` file's findings depend on all its text (its YAML, comments, keys that
    load no word): its one start is checked whole, and its model kept. Each command line
    of a host is checked on its own, against the release its own image or pin
    names (unless the user named one; else the front end's choice); findings on words vLLM
    will not see as written (`$TP`, `{{ .Values.x }}`) are dropped: unknown is not wrong.
    Where a word may expand to any arguments (`$EXTRA_ARGS`, `"$@"`), the checks that
    combine settings (VC300 on) are dropped too; per-flag checks (unknown flags, types,
    choices, bounds) stay."""
    if line.origin is not None:
        model = line.model()
        return _run_rules(model, rules), model
    text, invocation = line.text, line.invocation
    low, high = _extent(text, invocation)
    target = line.target
    key = (
        text[low:high],
        _shape(invocation, low),
        line.release,
        line.plugin.plugin.label if line.plugin is not None else None,
        ran,
        line.path,
        line.model_dirs,
        None if target is None else replace(target, start=0, end=0, count_start=0, count_end=0),
    )
    memo = _CHECKED.get(key)
    if memo is not None and (memo.line is None or memo.line == text.count("\n", 0, low)):
        return [_moved(found, low) for found in memo.findings], None
    model = line.model()
    unknown = [(w.start, w.end) for w in invocation.args if not w.resolved]
    made = [w for w in invocation.args if w.generated is not None]  # an operator's words
    references = filled_references(invocation, text)
    findings = []
    for found in _run_rules(model, rules):
        if any(start < found.end and found.start < end for start, end in unknown):
            continue
        if model.open_ended and found.code >= FIRST_IMPERATIVE_CODE:
            continue  # `$EXTRA_ARGS` may set (or override) what the check needs
        if references or invocation.fills:
            found = on_filled_text(found, references, invocation.fills)
        findings.append(on_written_text(found, made) if made else found)
    if all(_within(found, low, high) for found in findings):
        names_line = any(_NAMES_LINE.search(found.message) for found in findings)
        weight = (
            _ENTRY_WEIGHT
            + high
            - low
            + _WORD_WEIGHT * len(invocation.args)
            + sum(len(found.message) + _FINDING_WEIGHT for found in findings)
        )
        memo = _Checked(
            tuple(_moved(found, -low) for found in findings),
            text.count("\n", 0, low) if names_line else None,
        )
        _CHECKED.put(key, memo, weight)
    return findings, model


def _extent(text: str, invocation: Invocation) -> tuple[int, int]:
    """The whole lines the command line and its fixes touch."""
    written = [word for word in invocation.args if word.generated is None]
    starts = [invocation.start, *(word.start for word in written)]
    ends = [invocation.end, *(word.end for word in written)]
    if invocation.insert_at is not None:
        starts.append(invocation.insert_at)
        ends.append(invocation.insert_at)
    for found in invocation.breaks:  # the line after the command line, and its repair
        starts.extend([found.start, *(edit.start for edit in found.edits)])
        ends.extend([found.end, *(edit.end for edit in found.edits)])
    low = text.rfind("\n", 0, min(starts)) + 1
    high = text.find("\n", max(ends))
    return low, len(text) if high == -1 else high


def _shape(invocation: Invocation, low: int) -> tuple[object, ...]:
    """What the host made of the lines, relative to their start (the same text in another
    context, e.g. with another image, is another command line)."""
    return (
        invocation.source,
        invocation.entrypoint,
        invocation.start - low,
        invocation.image,
        invocation.pinned_version,
        tuple(
            (w.text, w.start - low, w.end - low, w.unresolved, w.quoting, w.splat)
            for w in invocation.args
        ),
        # The environment decides some checks (VC240, VC241, VC508) and is often written
        # outside the command line's lines (a container's `env:`): it is part of the key,
        # and so is the linter's own, which the checks read where the host's is open.
        invocation.environ_complete,
        tuple(
            (
                found.start - low,
                found.end - low,
                found.runs,
                found.fatal,
                tuple((e.start - low, e.end - low, e.new_text) for e in found.edits),
            )
            for found in invocation.breaks
        ),
        tuple(
            (
                var.origin,
                var.name.text,
                var.name.start - low,
                None if var.value is None else (var.value.text, var.value.unresolved),
                None if var.value is None else (var.value.start - low, var.value.end - low),
            )
            for var in invocation.environ
        ),
        tuple(sorted((k, v) for k, v in os.environ.items() if k.startswith("VLLM_"))),
        # where a filled reference takes its value (a compose file's `.env` line): the
        # related information of the findings on it
        tuple(
            (fill.start - low, fill.end - low, fill.value_start - low, fill.place)
            for fill in invocation.fills
        ),
    )


def _within(found: Finding, low: int, high: int) -> bool:
    spans = [edit for fix in found.fixes for edit in fix.edits] + list(found.related)
    return low <= found.start <= found.end <= high and all(
        low <= span.start <= span.end <= high for span in spans
    )


def _moved(found: Finding, by: int) -> Finding:
    fixes = tuple(
        replace(fix, edits=tuple(replace(e, start=e.start + by, end=e.end + by) for e in fix.edits))
        for fix in found.fixes
    )
    related = tuple(replace(r, start=r.start + by, end=r.end + by) for r in found.related)
    return replace(found, start=found.start + by, end=found.end + by, fixes=fixes, related=related)


# -- the check service ---------------------------------------------------------------------

#: The associations of documents the caller chose (the CLI's named and discovered files):
#: the default ones, with a named file's content worth what a `vllm` name is.
_NAMED_SETTINGS = AssociationSettings()


@dataclass(frozen=True)
class Document:
    """A document to check, as a front end has it: its text, `uri` (what an editor calls it:
    `file:`, `untitled:`…), `path` (where it is on disk; None: not saved, and the file system
    is not consulted) and language id. The `# vllm-config:` marker comment is parsed once,
    here, for the association, the release, the target and the suppressions alike."""

    text: str
    uri: str | None = None
    path: Path | None = None
    language_id: str | None = None

    @cached_property
    def name(self) -> str:
        """The POSIX path detection reads names from (`Dockerfile`, `*.sh`, `*vllm*.yaml`)."""
        if self.uri is not None:
            return path_of_uri(self.uri)
        return self.path.as_posix() if self.path is not None else ""

    @cached_property
    def marker(self) -> Marker:
        return marker_spans(self.text)

    @cached_property
    def marker_options(self) -> dict[str, str]:
        return _options(self.marker)


@dataclass(frozen=True)
class CheckOptions:
    """What the user sets outside the document."""

    #: The release the user names (`--vllm-version`, the editor's setting); None or "auto":
    #: each document's own evidence decides (`versions.choose_version`).
    release: str | None = None
    #: How a reason names that setting.
    release_label: str = "the vllmVersion setting"
    #: The target GPU the user states (`--gpu`/`--gpus`, the editor's settings).
    gpus: Stated | None = None
    model_dirs: tuple[Path, ...] = ()
    #: The rules run, by code prefix.
    select: frozenset[str] | None = None
    ignore: frozenset[str] | None = None
    model_on_cli: bool | None = None
    #: Which documents are vLLM documents (the editor's association settings); None: the
    #: caller chose the document (a file named on the command line): always checked.
    associations: AssociationSettings | None = None
    #: `check --ignore-suppressions`: what `# vllm-config: disable=` comments hide is kept,
    #: marked with the comment (`Finding.suppressed`).
    ignore_suppressions: bool = False
    #: The platform plugins the settings name (`vllm-ascend`, `vllm-ascend@0.23.0`).
    plugins: tuple[str, ...] = ()


#: LSP glob patterns of every file a release choice reads, and of the `.env` files compose
#: interpolates from: an editor watching them tells the server when a choice or a compose
#: file's command line is stale (`Releases.forget`).
RELEASE_FILES = (*WATCHED_GLOBS, f"**/{compose_env.ENV_FILE}")


class Releases:
    """The release choices of documents, remembered by their marker comment and file: the
    file system part (a venv's METADATA, image tags beside the file) is read once per file.
    The CLI keeps one per run (`shared_folders`: each folder is listed once); the language
    server one per session, dropping what a changed file may alter (`forget`)."""

    def __init__(self, *, shared_folders: bool = False) -> None:
        self._choices: dict[tuple[str | None, ...], tuple[str, str]] = {}
        self._folders = DeploymentFolders() if shared_folders else None

    def choose(self, document: Document, options: CheckOptions) -> tuple[str, str]:
        """(release, why) of the document as a whole."""
        path = document.path
        key = (
            document.marker_options.get("version"),
            str(path) if path is not None else None,
            options.release,
            options.release_label,
        )
        choice = self._choices.get(key)
        if choice is None:
            choice = choose_version(
                document.text,
                setting=options.release,
                file_path=path,
                setting_label=options.release_label,
                folders=self._folders,
                marker=document.marker_options,
            )
            self._choices[key] = choice
        return choice

    def clear(self) -> None:
        self._choices.clear()

    def forget(self, changed: Sequence[Path]) -> Callable[[Path | None], bool]:
        """Drop the choices `changed` files may alter; the test of a file's staleness."""

        def stale(path: Path | None) -> bool:
            return path is not None and any(
                depends_on(file, path) or compose_env.reads(file, path) for file in changed
            )

        # a copy of the keys: the language server's other lint threads add choices meanwhile
        for key in [key for key in list(self._choices) if stale(Path(key[1]) if key[1] else None)]:
            self._choices.pop(key, None)
        return stale


@dataclass(frozen=True)
class Checked:
    """A document as the engine saw it."""

    document: Document
    options: CheckOptions
    #: Why it is a vLLM document (an `association.Reason` value); None: it is
    #: not one, and `result` is None.
    reason: str | None
    #: The host syntax of a document holding command lines (`sources.hosts`), else None.
    host: str | None
    #: The document's release and why (marker, setting, venv, image tag beside it…).
    chosen: tuple[str, str]
    #: The release it is shown as checked for, and why: the first command line's own.
    release: str
    why: str
    result: LintResult | None
    #: The innermost frames of an engine crash (then `result` holds one VC000 finding).
    crash: str | None = None
    #: Works out why it is no vLLM document when asked (`Detected.explain`).
    explain: Callable[[], str] = field(default=str, compare=False, repr=False)

    @property
    def why_not(self) -> str:
        """Why it is no vLLM document, in one line (`check -v`), when `reason` is None."""
        return self.explain()

    @property
    def text(self) -> str:
        return self.document.text

    @property
    def findings(self) -> list[Finding]:
        return self.result.findings if self.result is not None else []

    @property
    def model(self) -> ConfigModel | None:
        return self.result.model if self.result is not None else None

    @property
    def command_lines(self) -> list[CommandLine]:
        return self.result.command_lines if self.result is not None else []

    def recheck(self, text: str, *, release: tuple[str, str] | None = None) -> Checked:
        """The same document with another text, checked as this one was (its host, its
        release unless `release` says another): what fix rounds and migrations check."""
        document = replace(self.document, text=text)
        return _checked(document, self.options, self.host, self.reason, release or self.chosen)


def check(
    document: Document, options: CheckOptions = CheckOptions(), *, releases: Releases | None = None
) -> Checked:
    """Whether the document is a vLLM document and in which host syntax, the release it
    targets and why, then the rules. A host document that starts no vLLM and has nothing
    to say is no vLLM document. An engine crash becomes a VC000 finding (`Checked.crash`).
    `releases`: the choices remembered across calls."""
    host, reason, explain = _kind(document, options)
    chosen = (releases or Releases()).choose(document, options)
    if reason is None:
        return Checked(document, options, None, host, chosen, *chosen, None, explain=explain)
    checked = _checked(document, options, host, reason, chosen)
    result = checked.result
    if result is not None and not result.starts and not checked.findings:
        # no vLLM in it: say nothing
        why_not = f"no vLLM command line in this {host} file"
        return replace(checked, reason=None, result=None, explain=lambda: why_not)
    return checked


def _kind(
    document: Document, options: CheckOptions
) -> tuple[str | None, str | None, Callable[[], str]]:
    """(host, why it is checked, how to say why not): `sources.detect` decides; a host of
    command lines is never a `--config` file, and a file the user named is one only if its
    content could be (`association.classify`)."""
    detected = detect(
        document.name,
        document.text,
        document.language_id,
        flag_names=detection_flag_names(),
        settings=options.associations or _NAMED_SETTINGS,
        named=options.associations is None,
    )
    reason = None if detected.reason is None else detected.reason.value
    return detected.host, reason, detected.explain


def _checked(
    document: Document,
    options: CheckOptions,
    host: str | None,
    reason: str | None,
    chosen: tuple[str, str],
) -> Checked:
    version, why = chosen
    crash = None
    try:
        result = lint(
            document.text,
            version=version,
            select=set(options.select) if options.select is not None else None,
            ignore=set(options.ignore) if options.ignore is not None else None,
            model_on_cli=options.model_on_cli,
            path=document.path,
            model_dirs=options.model_dirs,
            host=host,
            version_stated=release_stated(document.text, options.release, document.marker_options),
            gpus=options.gpus,
            version_why=why,
            marker=document.marker,
            ignore_suppressions=options.ignore_suppressions,
            plugins=options.plugins,
        )
    except Exception:  # the engine itself failed: say so instead of going silent
        crash = traceback.format_exc(limit=-CRASH_FRAMES)
        last = crash.strip().splitlines()[-1]
        found = Finding(INTERNAL_ERROR, Severity.WARNING, 0, 0, f"internal error: {last}")
        result = LintResult([found], None)
    release = result.command_lines[0] if result.command_lines else None
    if release is not None and (release.release, release.why) != (version, why):
        version, why = release.release, release.why  # what the status bar names
    elif result.release is not None:
        version, why = result.release
    return Checked(document, options, reason, host, chosen, version, why, result, crash)


def fix_all(checked: Checked) -> Checked:
    """`check --fix` and the editor's fixAll: apply the safe fixes, check again, repeat up
    to `FIX_ROUNDS` times."""
    for _ in range(FIX_ROUNDS):
        edits = safe_fix_edits(checked.findings)
        if not edits:
            break
        checked = checked.recheck(apply_edits(checked.text, edits))
    return checked


@dataclass(frozen=True)
class Start:
    """One start of vLLM in a document, with the arguments vLLM receives."""

    offset: int
    #: The host syntax it is written in (`shell`, `kubernetes`…; `config-file`).
    source: str
    argv: tuple[str, ...]
    release: str
    why: str
    #: Which words of `argv` an operator or a chart writes (no text in the document).
    generated: tuple[bool, ...] = ()
    #: The environment the host gives it, in the order written: (name, value as written or
    #: None where the host names it without a value, which host syntax wrote it).
    environment: tuple[tuple[str, str | None, str], ...] = ()
    #: Variables not written may reach it (`envFrom`, `env_file`, a script's caller):
    #: `Invocation.environ_complete` is not.
    environment_open: bool = True


def starts(
    document: Document, options: CheckOptions = CheckOptions(), *, releases: Releases | None = None
) -> list[Start]:
    """Every start of vLLM the document holds, without checking it (`vllm-config-lsp argv`);
    a `--config` file is one, its own argv."""
    host, reason, _explain = _kind(document, options)
    version, why = (releases or Releases()).choose(document, options)
    if reason is None:
        return []
    text = document.text
    stated = release_stated(text, options.release, document.marker_options)
    chosen = (version, why, stated)
    read = _reader(host)(
        _Reading(text, document.path, chosen, document.marker_options, options.plugins)
    )
    return [
        Start(
            inv.start,
            inv.source,
            tuple(w.text for w in inv.args),
            release,
            why,
            tuple(w.generated is not None for w in inv.args),
            tuple(
                (var.name.text, None if var.value is None else var.value.text, var.origin)
                for var in inv.environ
            ),
            not inv.environ_complete,
        )
        for inv, (release, why, _plugin) in read.found
    ]


def inlined_config(path: Path, release: str) -> tuple[str, ...] | None:
    """The argv vLLM builds from the `--config` file at `path`, for that release (the
    editor's "Inline the --config file"); None when it cannot be read or has no keys."""
    text = read_text(path, MAX_BYTES)
    if text is None:
        return None
    source = read_config_file(text, load_catalogue(release).loader)
    if not source.pairs or source.invocation is None:
        return None
    return tuple(word.text for word in source.invocation.args)


def walk_picks(path: Path) -> bool:
    """Whether a directory walk (`check DIR`) would pick this file: a vLLM config, or a host
    that starts vLLM (`files.pick`); every directory, and a file that cannot be read (so
    that it is reported), too. What `check --only-detected` keeps of named files."""
    if is_dir(path):
        return True
    picked = pick(path, detection_flag_names())
    return picked is not None and picked.passed_over is None


def warm_up(release: str | None = None) -> None:
    """Import the engine and load the catalogue before the first document needs them."""
    chosen = check(Document("model: warm-up\n"), CheckOptions(release=release)).chosen[0]
    load_catalogue(chosen).classes  # noqa: B018
