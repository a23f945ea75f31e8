"""Per-keystroke cost of documents that hold vLLM command lines (not a test).

Builds a 2,000-line Markdown recipe, shell script and Helm chart from the deployment
corpus (`tests/corpus/deployments/files/`), then times what a user typing a word into a
flag name costs: one keystroke after the other at the end of the flag nearest the middle
of the document (timing the source reader alone, `sources.hosts.find_invocations`), then
at the one nearest its first quarter (timing `engine.lint`, on texts the reader has not
seen). Every sample is a new text (a cache of whole texts never hits). 30 samples each,
after one untimed warm-up lint of the unedited text. Default
settings: vLLM 0.33.0, every rule.

    python benchmarks/command_lines.py            # 30 samples
    python benchmarks/command_lines.py --runs 100
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from vllm_config_lsp import engine
from vllm_config_lsp.sources.hosts import find_invocations

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus" / "deployments" / "files"
LINES = 2000
VERSION = "0.33.0"
#: A chart's worth of YAML: Helm templates, then the manifests and resources they render.
HELM = ("helm-template", "k8s", "cr")
KEYS = "abcdefghijklmnopqrstuvwxyz0123456789"


def build(folders: tuple[str, ...], separator: str = "", lines: int = LINES) -> str:
    """Whole corpus files of `folders`, repeated in order until the text has `lines` lines
    (whole files: a file cut in the middle would leave a construct open to the end), each
    followed by a `separator` line (`---` between the documents of a YAML stream)."""
    files = sorted(path for folder in folders for path in (CORPUS / folder).iterdir())
    out: list[str] = []
    while len(out) < lines:
        for path in files:
            out.extend(path.read_text(encoding="utf-8").splitlines())
            out.append(separator)
            if len(out) >= lines:
                break
    return "\n".join(out) + "\n"


def edit_point(text: str, where: float) -> int:
    """Where a keystroke goes: the end of the `--flag` name nearest to `where` (0 to 1)."""
    middle = int(len(text) * where)
    best: int | None = None
    start = 0
    while (index := text.find(" --", start)) != -1:
        end = index + 3
        while end < len(text) and (text[end].isalnum() or text[end] in "-_"):
            end += 1
        if best is None or abs(end - middle) < abs(best - middle):
            best = end
        start = end
    assert best is not None, "no flag in the document"
    return best


def typed(text: str, runs: int, where: float) -> list[str]:
    """`runs` keystrokes typed one after the other at the end of the flag nearest `where`:
    every text is new (no cache of whole texts hits), and each is the previous one plus
    a character, as when a user types."""
    point = edit_point(text, where)
    typed = (KEYS * (1 + runs // len(KEYS)))[:runs]
    return [text[:point] + typed[: index + 1] + text[point:] for index in range(runs)]


def timed(call: Callable[[str], object], texts: list[str]) -> list[float]:
    samples = []
    for text in texts:
        began = time.perf_counter()
        call(text)
        samples.append((time.perf_counter() - began) * 1000)
    return samples


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="samples per row (default 30)")
    runs = parser.parse_args().runs
    documents = [
        ("Markdown recipe", "markdown", build(("markdown",))),
        ("shell script", "shell", build(("shell", "slurm"))),
        ("Helm chart (templates and manifests)", "kubernetes", build(HELM, "---")),
    ]
    print(f"{LINES}-line documents, {runs} keystrokes each (median / p95, ms)\n")
    print("| document | invocations | find_invocations | lint (change → diagnostics) |")
    print("| --- | --- | --- | --- |")
    for label, host, text in documents:
        count = len(find_invocations(host, text))
        engine.lint(text, version=VERSION, host=host)  # warm-up: catalogue, rules, parsers
        finder = timed(lambda text, host=host: find_invocations(host, text), typed(text, runs, 0.5))
        engine.lint(text, version=VERSION, host=host)
        lints = timed(
            lambda text, host=host: engine.lint(text, version=VERSION, host=host),
            typed(text, runs, 0.25),  # texts the reader has not seen either
        )
        print(
            f"| {label} | {count} "
            f"| {statistics.median(finder):.1f} / {p95(finder):.1f} "
            f"| {statistics.median(lints):.1f} / {p95(lints):.1f} |"
        )


if __name__ == "__main__":
    main()
