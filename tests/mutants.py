"""Mutants of the corpus's real files, for the fuzzing suites of every reader (issue 30).

Seeds: each file of `tests/corpus/deployments/files` (compose, custom resources, Dockerfiles,
workflows, Helm templates and values, manifests, launcher configs, Markdown, Triton's
`model.json`, Python launchers, shell and Slurm scripts: where each comes from is in that
folder's SOURCES.md) written under the path it has in its repository (`owner__repo__a__b.yml`
is `a/b.yml`, so each reader recognises it as it would there; a chart's files get a
`Chart.yaml`), and every tenth `--config` file of `tests/corpus/real`.

Each mutant is the seed with a few deterministic changes (random.Random seeded by the file
name and the mutant's number): a cut, a span dropped or doubled, a hostile token put in
(quotes, `\\`-newlines, template braces, aliases, a heredoc start, NUL, CR, BOM, U+2028),
a number made 400 or 4,400 digits long, a value nested 5,000 brackets deep, an alias
anchor put on a node. A mutant is whatever a half-typed edit or a hostile file may be.
"""

from __future__ import annotations

import ast
import json
import random
import re
import subprocess
from pathlib import Path, PurePath, PurePosixPath

import yaml

CORPUS = Path(__file__).resolve().parent / "corpus"
DEPLOYMENTS = CORPUS / "deployments" / "files"
REAL = CORPUS / "real"
CHART = "apiVersion: v2\nname: c\nversion: 0.1.0\nappVersion: v0.33.0\n"

TOKENS = (
    "\\\n",
    '"',
    "'",
    "{{ ",
    " }}",
    "{{- .Values.x | quote }}",
    "$(",
    "`",
    "${",
    "*a ",
    "&a ",
    "<<EOF\n",
    "\x00",
    "\r",
    "\ufeff",
    "\u2028",
    "\t",
    " --",
    " --config ../../x.yaml ",
    " -O.x.y=1 ",
    "# vllm-config: gpu=H100 count=99999\n",
    "# vllm-config: disable=\n",
    ": ",
    "- ",
    "!!binary ",
    "%YAML 1.1\n",
    "---\n",
    "[",
    "]",
    "{",
    "}",
    ",",
    '"\\u',
    "\\",
    "é漢🙂",
)

_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")


def seed_paths() -> list[tuple[str, Path]]:
    """(path in its repository, corpus file) of every seed."""
    seeds = []
    for file in sorted(DEPLOYMENTS.rglob("*")):
        if file.is_file():
            parts = file.name.split("__")
            seeds.append(("/".join(parts[2:]) if len(parts) > 2 else file.name, file))
    for file in sorted(REAL.glob("*.yaml"))[::10]:
        seeds.append((f"configs/{file.stem}.vllm.yaml", file))
    return seeds


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        text = _one(text, rng)
    return text


def _one(text: str, rng: random.Random) -> str:
    at = rng.randint(0, len(text))
    end = min(len(text), at + rng.randint(1, 200))
    kind = rng.randrange(8)
    if kind == 0:
        return text[:at]
    if kind == 1:
        return text[:at] + text[end:]
    if kind == 2:
        return text[:end] + text[at:end] * rng.randint(1, 50) + text[end:]
    if kind == 3:
        return text[:at] + rng.choice(TOKENS) * rng.randint(1, 3) + text[at:]
    if kind in (4, 5):
        numbers = list(_NUMBER.finditer(text))
        if not numbers:
            return text
        number = rng.choice(numbers)
        digits = "9" * (400 if kind == 4 else 4400)
        return text[: number.start()] + digits + text[number.end() :]
    if kind == 6:
        depth = 5000
        return text[:at] + "[" * depth + "1" + "]" * depth + text[at:]
    line_start = text.rfind("\n", 0, at) + 1
    return text[:line_start] + re.sub(r":( |$)", r": &a\1", text[line_start:], count=1)


def mutants(per_seed: int) -> dict[str, str]:
    """Relative path → text of every mutant (each under its own folder), and the files a
    chart needs beside its mutated templates and values."""
    found: dict[str, str] = {}
    for number, (path, file) in enumerate(seed_paths()):
        text = file.read_text(encoding="utf-8")
        for k in range(per_seed):
            folder = f"m{number:03d}-{k}"
            rng = random.Random(f"{file.name}:{k}")
            found[f"{folder}/{path}"] = mutate(text, rng)
            chart = _chart_root(PurePosixPath(path))
            if chart is not None:
                found[f"{folder}/{chart}/Chart.yaml".replace("/./", "/")] = CHART
    return found


def _chart_root(path: PurePosixPath) -> str | None:
    if "templates" in path.parts:
        return "/".join(path.parts[: path.parts.index("templates")]) or "."
    if path.name.startswith("values") and path.suffix in (".yaml", ".yml"):
        return str(path.parent)
    return None


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", errors="surrogatepass", newline="")


def parses(path: PurePath, text: str) -> bool | None:
    """Whether `text` parses in the language of `path` (None: no parser to ask)."""
    name = path.name.lower()
    try:
        if name.endswith((".yaml", ".yml")):
            list(yaml.safe_load_all(text))
        elif name.endswith(".json"):
            json.loads(text)
        elif name.endswith(".py"):
            ast.parse(text)
        elif name.endswith((".sh", ".slurm", ".sbatch")):
            done = subprocess.run(
                ["bash", "-n"], input=text.encode(errors="surrogatepass"), capture_output=True
            )
            return done.returncode == 0
        else:
            return None
    except (yaml.YAMLError, ValueError, SyntaxError, RecursionError, MemoryError):
        return False
    return True
