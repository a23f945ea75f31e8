"""`vllm-config-lsp argv PATH…`: every vLLM start the files hold, as vLLM receives it.

What a reader of a Helm chart or a SLURM script wants to know before anything else: which
command lines start vLLM, with which arguments after `serve` (or after the API-server
module), against which release. Unresolved variables are printed as written.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from vllm_config_lsp import engine
from vllm_config_lsp.cli.formats import printable
from vllm_config_lsp.document.text_index import TextIndex
from vllm_config_lsp.sources.files import discover
from vllm_config_lsp.vllm.catalogue import detection_flag_names


@dataclass
class Entry:
    file: str
    line: int
    column: int
    source: str
    argv: list[str]
    vllm_version: str
    version_source: str
    #: Each argv word, and whether an operator or a chart writes it (no text in the file).
    words: list[dict[str, object]]
    #: `{"name", "value", "origin"}` of each variable the host sets (`value` null where it
    #: names one without a value), and whether others not written may reach it.
    environment: list[dict[str, str | None]]
    environment_open: bool


def entries(path: Path, text: str, version: str | None, releases: engine.Releases) -> list[Entry]:
    """The invocations of one document; a `--config` file is one, its own argv."""
    options = engine.CheckOptions(release=version, release_label="--vllm-version")
    document = engine.Document(text, path=path)
    index = TextIndex(text)
    out = []
    for start in engine.starts(document, options, releases=releases):
        line, column = index.line_col(start.offset)
        argv = list(start.argv)
        made = start.generated or (False,) * len(argv)
        words: list[dict[str, object]] = [
            {"text": word, "generated": generated}
            for word, generated in zip(argv, made, strict=True)
        ]
        environment = [
            {"name": name, "value": value, "origin": origin}
            for name, value, origin in start.environment
        ]
        out.append(
            Entry(
                str(path),
                line + 1,
                column + 1,
                start.source,
                argv,
                start.release,
                start.why,
                words,
                environment,
                start.environment_open,
            )
        )
    return out


def _shown(word: str) -> str:
    """A word as a shell would need it written, except that variables stay readable."""
    return word if word and not re.search(r"[\s'\"\\;&|<>()`]", word) else shlex.quote(word)


def run_argv(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="vllm-config-lsp argv",
        description="List every vLLM invocation in the files, as vLLM receives its arguments.",
    )
    parser.add_argument("paths", nargs="+", type=Path, help="files or directories")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    parser.add_argument("--vllm-version", default=None, help="release when nothing names one")
    args = parser.parse_args(argv)
    found: list[Entry] = []
    status = 0
    releases = engine.Releases(shared_folders=True)
    for path, read in discover(args.paths, detection_flag_names()):
        if read.passed_over is not None:
            continue  # no vLLM file as far as it was read
        if read.text is None:
            print(printable(f"{path}: {read.error}"), file=sys.stderr)
            status = 2
            continue
        found.extend(entries(path, read.text, args.vllm_version, releases))
    if args.format == "json":
        print(json.dumps([entry.__dict__ for entry in found], indent=2))
    else:
        for entry in found:
            words = " ".join(map(_shown, entry.argv))
            where = f"{entry.file}:{entry.line}:{entry.column}"
            print(printable(f"{where}: [{entry.source}] {words}"))
            print(printable(f"    vLLM {entry.vllm_version}: {entry.version_source}"))
    return status
