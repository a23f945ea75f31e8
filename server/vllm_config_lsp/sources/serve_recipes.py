"""anvil-serving's serve-recipe registries (`configs/*.toml` of fakoli/anvil-serving, whose
first line is `schema = "anvil-serving.serve-recipes/v1"`): a `[[recipe]]`'s
`[recipe.serve]` table is the `docker run` its launcher builds, as
`anvil_serving/serve_recipes.py:docker_run_argv` does: `-e NAME=value` for each `env` entry,
`--entrypoint entrypoint[0]` and the image, then `entrypoint[1:]`, `model_flag`, the model
(`serve.model_path`, else `recipe.model`; none with `model_env`, whose environment names
it), and each `flags` entry split as `shlex.split` does. Without an `entrypoint` the image's
own runs (`vllm serve` for vLLM's images) with those arguments.

The words are the recipe's own strings (the model is where `model`/`model_path` is written,
each flag's words inside its string), so a start is found and checked where it is written;
the recipe's `env` is its environment. What the launcher adds at load time
(`--gpu-device`, a `CUDA_VISIBLE_DEVICES` from `hardware.gpu_uuid`) is not here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from vllm_config_lsp.sources import shell
from vllm_config_lsp.sources.invocation import EnvVar, Invocation, Word
from vllm_config_lsp.sources.source_map import SourceMap

__all__ = ["SCHEMA", "find_invocations"]

SCHEMA = "anvil-serving.serve-recipes/v1"
_SOURCE = "toml"

Path = tuple[str | int, ...]


def find_invocations(
    loaded: Mapping[str, Any],
    strings: Mapping[Path, Word],
    arrays: Mapping[Path, Sequence[Word | None]],
) -> tuple[list[Invocation], frozenset[Path]]:
    """The start of each recipe of the registry, and the key paths read for them (which
    the TOML host then does not read again on their own)."""
    recipes = loaded.get("recipe")
    if loaded.get("schema") != SCHEMA or not isinstance(recipes, list):
        return [], frozenset()
    found: list[Invocation] = []
    read: set[Path] = set()
    for index, recipe in enumerate(recipes):
        serve = recipe.get("serve") if isinstance(recipe, dict) else None
        if not isinstance(serve, dict):
            continue
        at: Path = ("recipe", index, "serve")
        read.update((*at, key) for key in ("entrypoint", "flags", "env"))
        found.extend(_recipe(serve, at, strings, arrays))
    return found, frozenset(read)


def _recipe(
    serve: Mapping[str, Any],
    at: Path,
    strings: Mapping[Path, Word],
    arrays: Mapping[Path, Sequence[Word | None]],
) -> list[Invocation]:
    entrypoint = _strings(arrays.get((*at, "entrypoint"), ()))
    words: list[Word] = []
    flag = strings.get((*at, "model_flag"))
    if flag is not None and serve.get("model_flag"):
        words.append(flag)
    model = strings.get((*at, "model_path")) or strings.get((*at[:-1], "model"))
    if model is not None and not serve.get("model_env"):
        words.append(model)
    for item in _strings(arrays.get((*at, "flags"), ())):
        to_document = SourceMap.of_word(item)
        words.extend(to_document.word(word) for word in shell.command_words(item.text))
    image = serve.get("image") if isinstance(serve.get("image"), str) else None
    written = strings.get((*at, "image"))
    anchor = (written.start, written.end) if written is not None else None
    starts = shell.container_invocations(
        image, words, source=_SOURCE, entrypoint=entrypoint or None, anchor=anchor
    )
    env = _strings(arrays.get((*at, "env"), ()))
    environ = tuple(_env(item) for item in env if "=" in item.text)
    return [replace(start, environ=(*environ, *start.environ)) for start in starts]


def _strings(items: Sequence[Word | None]) -> list[Word]:
    """An array's strings up to the first value that is none (what the launcher reads)."""
    words: list[Word] = []
    for item in items:
        if item is None:
            break
        words.append(item)
    return words


def _env(item: Word) -> EnvVar:
    """`NAME=value`: the name and the value, each with its characters' positions."""
    cut = item.text.index("=")
    return EnvVar(_piece(item, 0, cut), _piece(item, cut + 1, len(item.text)), "env")


def _piece(word: Word, start: int, end: int) -> Word:
    starts, ends = word.starts[start:end], word.ends[start:end]
    first = starts[0] if starts else word.end
    return Word(word.text[start:end], first, ends[-1] if ends else first, starts, ends)
