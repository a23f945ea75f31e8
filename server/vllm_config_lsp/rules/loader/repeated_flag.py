"""The same flag is set twice (two spellings, or a mapping plus dotted keys); only the last
one counts.

## What vLLM does
argparse keeps the last value of a repeated option. `max_model_len` and `max-model-len` are
the same flag; dotted keys (`compilation-config.mode: 3`) are gathered into one JSON argument
appended *after* everything else, wherever they stand in the file, which replaces a
`compilation-config:` mapping entirely instead of merging with it. Two dotted keys that
name the same field, one spelled with dashes and one with underscores
(`compilation-config.mode: 3`, later `compilation_config.mode: 0`), are one field once vLLM
folds the flag part: the later value wins and vLLM only logs `Found duplicate keys
--compilation-config.mode`. When the mapping held a
field the config class requires (`watermark-config: {key: 42}` with
`watermark-config.alpha: 0.5`), vLLM then refuses to start (`Field required`): an error.

## Example
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  cudagraph_mode: FULL
compilation-config.mode: 3
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  cudagraph_mode: FULL
  mode: 3
```
"""

from collections.abc import Iterator
from typing import Any

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import finding, site_of
from vllm_config_lsp.vllm.config_model import ConfigModel, FlagValue
from vllm_config_lsp.vllm.parse_args import DottedPiece, nested, recursive_update

CODE = "VC108"
NAME = "repeated-flag"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:500"
CATALOGUE = ("warn.argparse.duplicate_keys",)


def check(model: ConfigModel) -> Iterator[Finding]:
    yield from _repeated_options(model)
    for value in model.values:
        for token in value.use.values:
            if token.dotted:
                yield from _repeated_dotted(model, token.dotted)


def _repeated_dotted(model: ConfigModel, pieces: list[DottedPiece]) -> Iterator[Finding]:
    """Dotted keys naming one field (`compilation-config.mode`, `compilation_config.mode`):
    vLLM's `recursive_dict_update` (argparse_utils.py:425-443) keeps the later value and
    logs `Found duplicate keys` (:495)."""
    merged: dict[str, Any] = {}
    setters: dict[tuple[str, ...], DottedPiece] = {}
    for piece in pieces:
        for path in recursive_update(merged, nested(piece.path, piece.value)):
            victims = [p for p in setters if p[: len(path)] == path]
            for victim_path in victims:
                victim = setters.pop(victim_path)
                found = _dotted_finding(model, victim, piece, path)
                if found is not None:
                    yield found
        setters[tuple(piece.path)] = piece


def _dotted_finding(
    model: ConfigModel, victim: DottedPiece, winner: DottedPiece, path: tuple[str, ...]
) -> Finding | None:
    site, winner_site = site_of(model, victim.key_token), site_of(model, winner.key_token)
    if site is None or winner_site is None or site.span == winner_site.span:
        return None
    line = model.index.line_col(winner_site.span[0])[0] + 1
    name = f"{victim.head}.{'.'.join(path)}"
    drop_this = site.remove(
        f"Remove this `{site.key}` (line {line}'s value applies)", preferred=True
    )
    drop_winner = winner_site.remove(f"Keep this value: remove line {line}'s `{winner_site.key}`")
    fixes = [fix for fix in (drop_this, drop_winner) if fix is not None]
    return finding(
        CODE,
        Severity.WARNING,
        site.span,
        f"`{site.key}` is set again on line {line} (`{winner_site.key}`): vLLM reads both as "
        f'`{name}` and keeps the last value, logging only "Found duplicate keys {name}", '
        f"so this `{site.key}` has no effect",
        source=VLLM_SOURCE,
        fixes=fixes,
    )


def _repeated_options(model: ConfigModel) -> Iterator[Finding]:
    last_by_dest = model.final
    for value in model.values:
        winner = last_by_dest.get(value.spec.dest)
        if winner is None or winner is value:
            continue
        site, winner_site = site_of(model, value.use.token), site_of(model, winner.use.token)
        if site is None or winner_site is None or winner_site.span == site.span:
            continue
        line = model.index.line_col(winner_site.span[0])[0] + 1
        severity = Severity.WARNING
        if _dotted(winner) and not _dotted(value):
            # Wherever the dotted keys stand in the file, their JSON argument is appended
            # after every other argument (argparse_utils.py:498), so it always wins.
            how = (
                "the dotted keys are gathered into one JSON argument placed after every "
                "other argument, which replaces this one entirely"
            )
            lost = _lost_keys(value, winner)
            refused = _refused_without(model, winner, lost)
            if lost:
                how += f" (`{'`, `'.join(lost)}` written here are lost)"
            if refused:
                severity = Severity.ERROR
                how += f"; without `{refused[0]}` vLLM refuses to start: {refused[1]}"
        else:
            how = "argparse keeps the last value"
            if _long(site.key) == _long(winner_site.key) == value.spec.options[0]:
                # FlexibleArgumentParser notes a `--name` it sees twice (argparse_utils.py:455)
                how += f', logging only "Found duplicate keys {value.spec.options[0]}"'
        yield finding(
            CODE,
            severity,
            site.span,
            f"{value.spec.options[0]} is set again on line {line} (`{winner_site.key}`): {how}, "
            f"so this `{site.key}` has no effect",
            source=VLLM_SOURCE,
        )


def _long(key: str) -> str:
    """The `--name` vLLM's argv holds for a key as written (`download_dir`, `--download-dir`):
    FlexibleArgumentParser turns underscores into dashes before it looks for repeats."""
    return "--" + key.lstrip("-").replace("_", "-")


def _dotted(value: FlagValue) -> bool:
    return any(token.dotted for token in value.use.values)


def _lost_keys(value: FlagValue, winner: FlagValue) -> list[str]:
    """Top-level keys of the replaced mapping that the dotted object does not set."""
    if value.tree is None or value.tree.entries is None or winner.tree is None:
        return []
    kept = winner.tree.kept_entries()
    return list(dict.fromkeys(e.key for e in value.tree.entries if e.key not in kept))


def _refused_without(
    model: ConfigModel, winner: FlagValue, lost: list[str]
) -> tuple[str, str] | None:
    """A lost key the config class requires, and pydantic's complaint about its absence."""
    for issue in model.field_issues.get(id(winner), ()):
        if issue.kind == "missing" and len(issue.path) == 1 and issue.path[0] in lost:
            return issue.path[0], f"{issue.class_name} {issue.path[0]}: {issue.message}"
    return None
