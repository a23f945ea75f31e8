"""A key is not a `vllm serve` flag (misspelt, removed, or a short alias like `tp`).

## What vLLM does
Every key becomes `--key`; argparse rejects what no option matches with
`unrecognized arguments: --key` and vLLM exits. Short aliases (`-tp`) cannot be used as keys
(`tp:` becomes `--tp`). Flags removed in recent releases are named with their replacement.
A key whose value is `false` never reaches argparse (vLLM drops it), so it is only a warning.

Where the host hands vLLM keyword arguments rather than a command line (`LLM(...)`,
`EngineArgs(...)`, Ray Serve's `engine_kwargs`, Triton's `model.json`), no argparse runs:
`EngineArgs` is a dataclass, and a keyword that is none of its fields is Python's
`TypeError: EngineArgs.__init__() got an unexpected keyword argument 'x'`
(`vllm/engine/arg_utils.py:489` in 0.33.0; `LLM` passes its `**kwargs` on at
`vllm/entrypoints/llm.py:295`), a frontend flag such as `port` included.

## Example
```yaml
model: Qwen/Qwen3-8B
tensor-paralel-size: 2
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
tensor-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules._engine import add_option
from vllm_config_lsp.rules._reasoning import reasoning_parser
from vllm_config_lsp.rules.support import (
    closest,
    finding,
    remove_option_fix,
    remove_pair_fix,
    rename_option_fix,
    rename_pair_fix,
    span,
    spell_like,
)
from vllm_config_lsp.sources.rendering import FIELD, rename_option
from vllm_config_lsp.sources.yaml_origin import Pair
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.engine_args import Constructor, constructor
from vllm_config_lsp.vllm.flag_history import loader_since, removed_flag
from vllm_config_lsp.vllm.parse_args import Token

CODE = "VC101"
NAME = "unknown-flag"
VLLM_SOURCE = "vllm/utils/argparse_utils.py:182"
#: Unknown keys per document that get a "did you mean" (a fuzzy search of every option):
#: past them the refusal comes without one, so 40,000 unknown keys cost what 40,000 look-ups
#: do, not 40,000 fuzzy searches (29 s).
SUGGESTIONS = 200


def _suggestion(model: ConfigModel, key: str) -> str | None:
    """A short alias written as a key, else the closest long option name."""
    head = key.split(".", 1)[0]
    for spec in model.catalogue.flags.values():
        if "-" + head in spec.options and ("--" + head) not in spec.options:
            return spec.name
    names = [o[2:] for o in model.catalogue.option_index if o.startswith("--")]
    return closest(head.replace("_", "-"), names)


def _findings_for(
    model: ConfigModel, pair: Pair, severity: Severity, tail: str, *, suggest: bool
) -> Finding:
    # Before 0.9 there are no dotted keys: the whole key is the option name.
    dotted = model.catalogue.loader.dotted_keys
    key_text = "--" + (pair.key.split(".", 1)[0] if dotted else pair.key).replace("_", "-")
    message = f"unrecognized arguments: {key_text}"
    fixes: list[Fix | None] = []
    history = removed_flag(key_text[2:], model.catalogue.version)
    if history is not None:
        message += f": {history.message}"
        parser = reasoning_parser(model) if key_text == "--enable-reasoning" else None
        if parser is not None:  # the parser the model's family takes
            message += f"; for {parser[0]}: `reasoning-parser: {parser[1]}`"
            key, value = span(pair.key_node), span(pair.value_node)
            edits = (TextEdit(*key, "reasoning-parser"), TextEdit(*value, parser[1]))
            title = f"Replace with `reasoning-parser: {parser[1]}`"
            fixes.append(Fix(title, edits, safe=False, preferred=True))
        if history.rename_to:
            fixes.append(rename_pair_fix(model, pair, spell_like(pair.key, history.rename_to)))
        elif history.suggested:
            new_key = spell_like(pair.key, history.suggested)
            fixes.append(rename_pair_fix(model, pair, new_key, safe=False))
    elif not dotted and "." in pair.key and _dotted_option(model, pair.key):
        head = pair.key.split(".", 1)[0]
        since = loader_since("dotted_keys", True, model.catalogue.version)
        message += (
            f": vLLM {model.catalogue.version} reads a dotted key as one option name (dotted "
            f"keys work from vLLM {since or '0.9'} on); set `{head}` to a JSON string instead"
        )
    else:
        suggestion = _suggestion(model, pair.key) if suggest else None
        if suggestion:
            new_key = spell_like(pair.key, suggestion) + (
                "." + pair.key.split(".", 1)[1] if "." in pair.key and dotted else ""
            )
            message += f": did you mean `{new_key}:`?"  # a key, as the file writes keys
            fixes.append(rename_pair_fix(model, pair, new_key, safe=False))
    fixes.append(remove_pair_fix(model, pair))
    return finding(
        CODE,
        severity,
        span(pair.key_node),
        message + tail,
        source=VLLM_SOURCE,
        fixes=[fix for fix in fixes if fix is not None],
    )


def _parser_fix(model: ConfigModel, token: Token, values: list[Token], parser: str) -> Fix | None:
    """`--enable-reasoning` out, `--reasoning-parser PARSER` in: after the last word where
    the host takes words there (a shell line, a block list), else the one word
    `--reasoning-parser=PARSER` in the flag's place, inside its quotes (a flow list
    `args: [...]`, a Python list, a chart's values key that holds the flag)."""
    removal = remove_option_fix(model, token, values)
    added = add_option(model, None, "reasoning-parser", parser)
    if removal is not None and added is not None:
        title = f"Replace with `--reasoning-parser {parser}`"
        return Fix(title, (*removal.edits, *added.edits), safe=False, preferred=True)
    word = token.word
    if values or word is None or not word.resolved or word.quoting.endswith(FIELD):
        return None
    if word.text != "--enable-reasoning":
        return None  # `--enable-reasoning=…`: argparse refuses the value first
    one = f"--reasoning-parser={parser}"
    return Fix(f"Replace with `{one}`", (rename_option(word, one),), safe=False, preferred=True)


def _on_command_line(model: ConfigModel, at: int, *, suggest: bool) -> Finding:
    """The same refusal for a command-line word: vLLM names the option as written (after
    `_` → `-` before the first `.`), and the fixes edit the word in its host's syntax."""
    token = model.result.extras[at]
    option = token.text.split("=", 1)[0]
    message = f"unrecognized arguments: {option}"
    fixes: list[Fix | None] = []
    history = removed_flag(option.split(".", 1)[0].lstrip("-"), model.catalogue.version)
    parser = reasoning_parser(model) if option == "--enable-reasoning" else None
    if history is not None:
        message += f": {history.message}"
        target = history.rename_to or history.suggested
        if target:
            fixes.append(
                rename_option_fix(model, token, "--" + target, safe=bool(history.rename_to))
            )
    if history is not None and parser is not None:  # the parser its family takes
        name, chosen = parser
        message += f"; for {name}: `--reasoning-parser {chosen}`"
        fixes.append(_parser_fix(model, token, _values_after(model, at), chosen))
    else:
        suggestion = _suggestion(model, option.lstrip("-")) if suggest else None
        if suggestion:
            message += f": did you mean `--{suggestion}`?"
            fixes.append(rename_option_fix(model, token, "--" + suggestion, safe=False))
    values = _values_after(model, at)
    fixes.append(remove_option_fix(model, token, values))
    return finding(
        CODE,
        Severity.ERROR,
        token.word.source_range(0, len(option)) if token.word else token.span(model.text),
        message,
        source=VLLM_SOURCE,
        fixes=[fix for fix in fixes if fix is not None],
    )


def _values_after(model: ConfigModel, at: int) -> list[Token]:
    """The words argparse left over after the unknown option at `at`: its values. A word
    the file leaves unresolved past the first value (a template action, `$EXTRA`) may be
    a flag of its own: it stays, and the words after it."""
    extras = model.result.extras
    end = at + 1  # no slice of the rest: 40,000 unknown flags would copy it 40,000 times
    while end < len(extras) and not extras[end].is_key:
        word = extras[end].word
        if end > at + 1 and word is not None and not word.resolved:
            break
        end += 1
    return extras[at + 1 : end]


def _unexpected_keywords(model: ConfigModel, accepts: Constructor) -> Iterator[Finding]:
    """Keyword arguments (`LLM(...)`, `engine_kwargs`, `model.json`): the constructor's
    fields decide, not argparse (`--port` is a flag and no field; `model_weights` a field
    with no flag)."""
    names = sorted(accepts.accepted)
    for token in model.tokens:
        name = token.word.field if token.word is not None else None
        if name is None or name in accepts.accepted:
            continue
        message = f"{accepts.refused_by}.__init__() got an unexpected keyword argument {name!r}"
        fixes: list[Fix | None] = []
        suggestion = closest(name, names)
        if suggestion:
            message += f": did you mean `{suggestion}`?"
            fixes.append(rename_option_fix(model, token, "--" + suggestion, safe=False))
        fixes.append(remove_option_fix(model, token, []))
        yield finding(
            CODE,
            Severity.ERROR,
            token.word.source_range(0, len(token.word.text)) if token.word else (0, 0),
            message,
            source=accepts.source,
            fixes=[fix for fix in fixes if fix is not None],
        )


def check(model: ConfigModel) -> Iterator[Finding]:
    keywords_of = model.invocation.keywords_of
    accepts = constructor(model.catalogue.version, keywords_of) if keywords_of else None
    if accepts is not None:
        yield from _unexpected_keywords(model, accepts)
    found = 0
    for at, token in enumerate(model.result.extras):
        if accepts is not None and token.word is not None and token.word.field is not None:
            continue  # a keyword argument: its constructor decided above
        if token.is_key and token.pair is not None and token.text.startswith("-"):
            yield _findings_for(model, token.pair, Severity.ERROR, "", suggest=found < SUGGESTIONS)
            found += 1
        elif token.is_key and token.word is not None:
            yield _on_command_line(model, at, suggest=found < SUGGESTIONS)
            found += 1
    for event in model.events:
        if event.kind == "false-dropped" and event.pair is not None:
            pair = event.pair
            head = "--" + pair.key.split(".", 1)[0].replace("_", "-")
            if head not in model.catalogue.option_index and not _abbreviates(model, head):
                yield _findings_for(
                    model,
                    pair,
                    Severity.WARNING,
                    " (vLLM drops `false` values before parsing, so it says nothing)",
                    suggest=found < SUGGESTIONS,
                )
                found += 1


def _dotted_option(model: ConfigModel, key: str) -> bool:
    """`compilation-config.level` starts with an option taking a value (a later release's
    dotted key)."""
    spec = model.catalogue.option_index.get("--" + key.split(".", 1)[0].replace("_", "-"))
    return spec is not None and spec.takes_value


def _abbreviates(model: ConfigModel, option: str) -> bool:
    return any(name.startswith(option) for name in model.catalogue.option_index)
