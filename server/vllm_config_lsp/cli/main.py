"""`vllm-config-lsp`: the language server (default, `--stdio`, `--tcp`), `check` and `rules`.

Exit codes of `check`: 0 nothing at or above `--fail-on`, 1 findings, 2 usage or I/O errors
(a file `--fix` or `--migrate-to` left as it was among them).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from vllm_config_lsp import __version__, code_cache

if TYPE_CHECKING:
    from vllm_config_lsp.engine import Checked
    from vllm_config_lsp.project import ProjectSettings
    from vllm_config_lsp.vllm.hardware import Stated


def _say(message: str) -> None:
    """Report on stderr, which CI runners read for workflow commands too: the paths and
    keys in `message` come from the files checked."""
    from vllm_config_lsp.cli.formats import printable

    print(printable(message), file=sys.stderr)


def _codes(value: str) -> set[str]:
    return {part.strip().upper() for part in value.split(",") if part.strip()}


def _check_parser() -> argparse.ArgumentParser:
    from vllm_config_lsp.vllm.catalogue import DEFAULT_VERSION

    parser = argparse.ArgumentParser(
        prog="vllm-config-lsp check",
        description="Check vLLM `serve --config` YAML files with vLLM's own rules.",
    )
    parser.add_argument("paths", nargs="+", type=Path, help="files or directories")
    parser.add_argument("--format", choices=["text", "json", "github", "sarif"], default="text")
    parser.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    parser.add_argument(
        "--vllm-version",
        default=None,
        help="vLLM release, e.g. 0.10.2 or 0.10 (default: the file's `# vllm-config: "
        "version=` comment, the workspace's installed vLLM, an image tag beside the file, "
        f"else {DEFAULT_VERSION})",
    )
    parser.add_argument(
        "--migrate-to",
        metavar="VERSION",
        default=None,
        help="rewrite each file for this vLLM release first (renames and removals with a "
        "known replacement; what needs a decision is listed), then check against it",
    )
    parser.add_argument("--select", type=_codes, default=None, help="only these codes (prefixes)")
    parser.add_argument("--ignore", type=_codes, default=None, help="skip these codes (prefixes)")
    parser.add_argument(
        "--fail-on",
        choices=["error", "warning", "info"],
        default=None,
        help="lowest severity that fails (default: the settings file's `fail-on`, else error)",
    )
    parser.add_argument(
        "--exit-zero",
        action="store_true",
        help="exit 0 even with findings (2 still means usage or I/O errors)",
    )
    parser.add_argument(
        "--ignore-suppressions",
        action="store_true",
        help="report what `# vllm-config: disable=` comments hide, each with its comment's "
        "line and reason (they count for --fail-on)",
    )
    parser.add_argument(
        "--statistics",
        action="store_true",
        help="print how many findings of each code, instead of the findings",
    )
    parser.add_argument(
        "--show-settings",
        action="store_true",
        help="print the settings that apply to each named file and where they come from "
        "(project settings file, command line, default), then exit",
    )
    parser.add_argument(
        "--model-on-cli",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="whether `vllm serve` gets the model on the command line "
        "(default: only when the file has no `model:`)",
    )
    parser.add_argument("--no-source", action="store_true", help="text format: no source excerpt")
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="say on stderr why a named file holds nothing to check",
    )
    parser.add_argument(
        "--only-detected",
        action="store_true",
        help="check a named file only when a directory walk would pick it (a vLLM config, "
        "or a host that starts vLLM); what the pre-commit hook passes, as pre-commit names "
        "every text file",
    )
    parser.add_argument(
        "--gpu",
        metavar="NAME",
        default=None,
        help="the GPU the server runs on (H100-80GB, L4, MI300X…): turns on the checks the "
        "hardware decides (default: the file's `# vllm-config: gpu=` comment, or what a "
        "manifest's GPU resources and node selectors say)",
    )
    parser.add_argument(
        "--gpus", metavar="N", type=_positive, default=None, help="GPUs per node it gets"
    )
    return parser


def _positive(value: str) -> int:
    if not (value.isascii() and value.isdigit()) or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number of GPUs, got {value!r}")
    return int(value)


def _settings_problems(settings: Iterable[ProjectSettings]) -> bool:
    """Report the unknown keys and bad values of the settings files used, with file and
    line; whether there were any (then `check` exits 2, as ruff does)."""
    problems = [problem for each in settings for problem in each.problems]
    for problem in problems:
        _say(f"vllm-config-lsp: {problem}")
    return bool(problems)


def _show_settings(args: argparse.Namespace, target: Stated | None) -> int:
    from vllm_config_lsp.cli.project_options import options_for, show_settings

    shown = []
    used = {}
    for path in args.paths:
        options = options_for(path, args, target)
        used[options.settings.source] = options.settings
        shown.append(show_settings(path, options))
    print("\n".join(shown))
    return 2 if _settings_problems(used.values()) else 0


def _stated_gpus(args: argparse.Namespace) -> tuple[Stated | None, str | None]:
    """The `--gpu`/`--gpus` target, or why the name is refused (did you mean)."""
    from vllm_config_lsp.vllm.hardware import Stated, find_gpu, gpus, suggestions

    if args.gpu is not None and find_gpu(args.gpu) is None:
        close = suggestions(args.gpu)
        hint = f"did you mean {' or '.join(close)}? " if close else ""
        known = ", ".join(gpu.name for gpu in gpus())
        return None, f"vllm-config-lsp: unknown GPU {args.gpu!r}; {hint}known: {known}"
    if args.gpu is None and args.gpus is None:
        return None, None
    return Stated(args.gpu, args.gpus, "--gpu", "--gpus"), None


def _run_check(argv: Sequence[str]) -> int:
    from vllm_config_lsp import engine
    from vllm_config_lsp.cli.formats import RENDERERS, FileReport, render_statistics, text_lines
    from vllm_config_lsp.cli.in_place import NotWritten, write_in_place
    from vllm_config_lsp.cli.project_options import options_for
    from vllm_config_lsp.findings import Severity
    from vllm_config_lsp.project import settings_for
    from vllm_config_lsp.sources.files import discover
    from vllm_config_lsp.vllm.catalogue import (
        available_versions,
        detection_flag_names,
        nearest_release,
    )

    args = _check_parser().parse_args(argv)
    versions = available_versions()
    for given in (args.vllm_version, args.migrate_to):
        if given is not None and nearest_release(given) is None:
            _say(
                f"vllm-config-lsp: unknown vLLM version {given!r}; "
                f"known: {', '.join(versions)} (any patch of these minors)"
            )
            return 2
    target, refused = _stated_gpus(args)
    if refused is not None:
        _say(refused)
        return 2
    if args.show_settings:
        return _show_settings(args, target)
    releases = engine.Releases(shared_folders=True)
    reports: list[FileReport] = []
    reported, failing = 0, False
    io_error = False
    passed_over = False  # files that hold nothing to check (said with -v)
    paths = (
        [p for p in args.paths if engine.walk_picks(p) and not settings_for(p).excluded(p)]
        if args.only_detected  # the file's `exclude` too, as ruff's --force-exclude
        else args.paths
    )
    seen: dict[Path | None, ProjectSettings] = {}
    folders: dict[Path, ProjectSettings] = {}  # each folder's settings, for the walk
    walk = discover(
        paths,
        detection_flag_names(),
        exclude=lambda found: settings_for(found, folders).excluded(found),
        include=lambda found: settings_for(found, folders).included(found),
    )
    for path, read in walk:
        if read.passed_over is not None:
            passed_over = True
            if args.verbose:
                _say(f"{path}: {read.passed_over}")
            continue
        if read.text is None:
            _say(f"{path}: {read.error}")
            io_error = True
            continue
        on_disk = read.data
        given = options_for(path, args, target)
        seen.setdefault(given.settings.source, given.settings)
        options = engine.CheckOptions(
            release=given.vllm_version,
            release_label=f"vllm-version ({given.origins['vllm-version']})",
            gpus=given.target,
            model_dirs=given.model_dirs,
            select=None if given.select is None else frozenset(given.select),
            ignore=None if given.ignore is None else frozenset(given.ignore),
            model_on_cli=args.model_on_cli,
            ignore_suppressions=args.ignore_suppressions,
            plugins=given.plugins,
        )
        checked = engine.check(engine.Document(read.text, path=path), options, releases=releases)
        if checked.reason is None:
            passed_over = True
            if args.verbose:
                _say(f"{path}: {checked.why_not}")
            continue
        if args.migrate_to is not None:
            migrated = _migrate(path, on_disk, checked, args.migrate_to)
            if migrated is None:
                io_error = True
            else:
                checked, on_disk = migrated
        if args.fix:
            fixed = engine.fix_all(checked)
            if fixed.text != checked.text:
                try:
                    write_in_place(path, on_disk, fixed.text)
                except NotWritten as refused:  # the report stays that of the file on disk
                    _say(f"{path}: fixes not applied: {refused}")
                    io_error = True
                else:
                    checked = fixed
        report = FileReport(str(path), checked.text, checked.findings)
        reported += 1
        threshold = Severity[given.fail_on.upper()]
        failing = failing or any(f.severity >= threshold for f in checked.findings)
        if args.format == "text" and not args.statistics:  # streamed: one file at a time
            for line in text_lines(report, show_source=not args.no_source):
                print(line)
        else:
            reports.append(report)
    if _settings_problems(seen.values()):
        io_error = True
    if not reported and not io_error and not passed_over:
        print("vllm-config-lsp: no vLLM config files found", file=sys.stderr)
    if args.statistics:
        output = render_statistics(reports, as_json=args.format == "json")
    else:
        output = RENDERERS[args.format](reports) if args.format != "text" else ""
    if output:
        print(output)
    if io_error:
        return 2
    return 1 if failing and not args.exit_zero else 0


def _migrate(
    path: Path, on_disk: bytes, checked: Checked, target: str
) -> tuple[Checked, bytes] | None:
    """Rewrite `path` (read as `on_disk`) for `target` in place, report what was done and
    what was not on stderr; (the new text checked for `target`, new bytes) or None when it
    was not written."""
    from vllm_config_lsp.cli.in_place import NotWritten, write_in_place
    from vllm_config_lsp.migrate import migration

    result = migration(checked, target)
    for line in result.applied:
        _say(f"{path}: {line}")
    for line in result.needs_human:
        _say(f"{path}: needs a decision: {line}")
    if result.changed:
        try:
            on_disk = write_in_place(path, on_disk, result.text)
        except NotWritten as refused:
            _say(f"{path}: not migrated: {refused}")
            return None
    migrated = checked.recheck(result.text, release=(result.target, f"--migrate-to {target}"))
    return migrated, on_disk


def _run_rules(argv: Sequence[str]) -> int:
    from vllm_config_lsp.rules import all_rules

    parser = argparse.ArgumentParser(prog="vllm-config-lsp rules", description="List the rules.")
    parser.add_argument("code", nargs="?", help="show one rule's documentation")
    args = parser.parse_args(argv)
    rules = all_rules()
    if args.code:
        rule = next((r for r in rules if r.code == args.code.upper() or r.name == args.code), None)
        if rule is None:
            _say(f"vllm-config-lsp: no rule {args.code!r}")
            return 2
        print(f"{rule.code} {rule.name}\n\n{rule.doc.strip()}")
        if rule.vllm_source:
            print(f"\nvLLM source: {rule.vllm_source}")
        print(f"vLLM releases: {rule.releases}")
        return 0
    for rule in rules:
        print(f"{rule.code}  {rule.name:28}  {rule.summary}")
    return 0


def _server_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vllm-config-lsp",
        description="Language server for vLLM serve configs. Subcommands: check, rules, argv.",
    )
    parser.add_argument("--stdio", action="store_true", help="serve LSP on stdin/stdout (default)")
    parser.add_argument("--tcp", action="store_true", help="serve LSP over TCP (debugging)")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=2087)
    parser.add_argument("--version", action="version", version=f"vllm-config-lsp {__version__}")
    return parser


def _run_argv(argv: Sequence[str]) -> int:
    from vllm_config_lsp.cli.argv import run_argv

    return run_argv(argv)


def _run_models(argv: Sequence[str]) -> int:
    """`models pull MODEL… [--revision R]`: fetch config.json (and the safetensors index,
    params.json) into the Hugging Face cache; 0 when every model was fetched, 1 if not."""
    parser = argparse.ArgumentParser(
        prog="vllm-config-lsp models",
        description="Fetch the config files model-aware checks read (kilobytes, no weights) "
        "into the Hugging Face cache. HF_TOKEN, HF_ENDPOINT and HF_HUB_OFFLINE apply.",
    )
    sub = parser.add_subparsers(dest="action", required=True)
    pull_parser = sub.add_parser("pull", help="download MODEL's config.json & co.")
    pull_parser.add_argument("models", nargs="+", metavar="MODEL")
    pull_parser.add_argument("--revision", default=None)
    args = parser.parse_args(argv)
    from vllm_config_lsp.cli.formats import printable
    from vllm_config_lsp.vllm.model_pull import pull

    failed = 0
    for name in args.models:
        done = pull(name, args.revision)
        if done.ok:
            where = printable(str(done.folder))
            print(f"{printable(name)}: {', '.join(done.files)} in {where}")
        else:
            failed += 1
            _say(f"{name}: not fetched: {done.problem}")
    return 1 if failed else 0


_SUBCOMMANDS = {
    "check": _run_check,
    "rules": _run_rules,
    "argv": _run_argv,
    "models": _run_models,
}


def main(argv: Sequence[str] | None = None) -> int:
    """The command. Started as the process (no `argv`: the console script, `python -m`), a
    subcommand ends the process once its output is flushed and the stores are saved:
    tearing the interpreter down (freeing every object, a last collection) would cost
    more CPU than yamllint's whole check of a file (benchmarks/profiles/cold-start.txt),
    for memory the system reclaims at exit anyway. Nothing of ours runs at exit."""
    process = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in _SUBCOMMANDS:
        try:
            status = _SUBCOMMANDS[argv[0]](argv[1:])
            sys.stdout.flush()
            code_cache.save()  # after the output: what this run compiled, for the next one
            sys.stderr.flush()
        except BrokenPipeError:
            # The reader is gone (`check DIR | head -1`). As the Python docs recommend:
            # point stdout at devnull so the flush at exit cannot fail again, and stop.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
        if process:
            os._exit(status)
        return status
    args = _server_parser().parse_args(argv)
    from vllm_config_lsp.lsp.server import serve

    serve(tcp=args.tcp, host=args.host, port=args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
