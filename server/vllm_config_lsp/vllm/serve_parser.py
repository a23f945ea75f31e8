"""Python 3.11 argparse, as the `vllm serve` sub-parser runs it over the config's tokens.

Only the parts reachable from a config file are modelled: option lookup with unique-prefix
abbreviations (`allow_abbrev`), `--opt=value`, negative-number detection, nargs, the
optional positional `model_tag` that swallows the first stray value, and extras that end
as "unrecognized arguments". Conversions and choices are applied by `flag_values`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from vllm_config_lsp.vllm.catalogue import Catalogue, FlagSpec
from vllm_config_lsp.vllm.parse_args import Token

_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")


@dataclass(eq=False)
class OptionUse:
    """One occurrence of an option with the tokens argparse gave it."""

    spec: FlagSpec
    option_string: str  # the registered option it resolved to
    token: Token  # the token as written (after rewriting)
    values: list[Token]
    explicit: str | None = None  # `--opt=value`
    abbreviated: bool = False


@dataclass
class ParseError:
    message: str
    token: Token | None


@dataclass
class ParseResult:
    uses: list[OptionUse] = field(default_factory=list)
    model_tag: Token | None = None
    extras: list[Token] = field(default_factory=list)
    errors: list[ParseError] = field(default_factory=list)


def _classify(
    catalogue: Catalogue, text: str
) -> tuple[FlagSpec | None, str, str | None, bool] | ParseError | None:
    """argparse `_parse_optional`: None for a positional, else (spec, option, explicit,
    abbreviated); an ambiguous prefix is an error at this point in argparse too."""
    index = catalogue.option_index
    if not text or text[0] != "-":
        return None
    if text in index:
        return index[text], text, None, False
    if len(text) == 1:
        return None
    if "=" in text:
        option, explicit = text.split("=", 1)
        if option in index:
            return index[option], option, explicit, False
    matches = _prefix_matches(index, text)
    if len(matches) > 1:
        options = ", ".join(option for option, _ in matches)
        return ParseError(f"ambiguous option: {text.split('=', 1)[0]} could match {options}", None)
    if len(matches) == 1:
        option, abbreviated_explicit = matches[0]
        return index[option], option, abbreviated_explicit, True
    if _NEGATIVE_NUMBER.match(text):
        return None
    if " " in text:
        return None
    return None, text, None, False


def _prefix_matches(index: dict[str, FlagSpec], text: str) -> list[tuple[str, str | None]]:
    """argparse `_get_option_tuples` (3.11) for long options and single-dash prefixes."""
    matches: list[tuple[str, str | None]] = []
    if text.startswith("--"):
        prefix, sep, rest = text.partition("=")
        explicit = rest if sep else None
        for option in index:
            if option.startswith(prefix):
                matches.append((option, explicit))
    else:
        short_prefix, short_explicit = text[:2], text[2:]
        for option in index:
            if option == short_prefix:
                matches.append((option, short_explicit))
            elif option.startswith(text):
                matches.append((option, None))
    return matches


def _arity(spec: FlagSpec) -> tuple[int, int | None]:
    """(min, max) number of value tokens; max None = unbounded."""
    if not spec.takes_value:
        return 0, 0
    nargs = spec.nargs
    if nargs is None:
        return 1, 1
    if nargs == "?":
        return 0, 1
    if nargs == "+":
        return 1, None
    if nargs == "*":
        return 0, None
    if isinstance(nargs, int):
        return nargs, nargs
    return 1, 1


def parse(catalogue: Catalogue, tokens: list[Token], model_on_cli: bool) -> ParseResult:
    result = ParseResult()
    kinds: list[tuple[FlagSpec | None, str, str | None, bool] | ParseError | None] = []
    after_separator = False
    for token in tokens:
        if after_separator:
            kinds.append(None)
        elif token.text == "--":
            kinds.append(ParseError("--", None))  # marker, removed below
            after_separator = True
        else:
            kinds.append(_classify(catalogue, token.text))
    model_tag_free = not model_on_cli
    i = 0
    while i < len(tokens):
        token, kind = tokens[i], kinds[i]
        if isinstance(kind, ParseError):
            if kind.message != "--":
                result.errors.append(ParseError(kind.message, token))
            i += 1
            continue
        if kind is None:
            # A run of positionals: `model_tag` (nargs='?') takes the first, the rest are extras.
            if model_tag_free:
                result.model_tag = token
                model_tag_free = False
            else:
                result.extras.append(token)
            i += 1
            continue
        spec, option, explicit, abbreviated = kind
        if spec is None:
            result.extras.append(token)
            i += 1
            continue
        low, high = _arity(spec)
        if explicit is not None:
            if high == 0:
                result.errors.append(
                    ParseError(
                        f"argument {_display(spec)}: ignored explicit argument {explicit!r}", token
                    )
                )
                i += 1
                continue
            result.uses.append(OptionUse(spec, option, token, [], explicit, abbreviated))
            i += 1
            continue
        values: list[Token] = []
        j = i + 1
        while j < len(tokens) and kinds[j] is None and (high is None or len(values) < high):
            values.append(tokens[j])
            j += 1
        if len(values) < low:
            expected = (
                "expected one argument"
                if low == 1 and high == 1
                else (
                    "expected at least one argument"
                    if high is None
                    else f"expected {low} arguments"
                )
            )
            result.errors.append(ParseError(f"argument {_display(spec)}: {expected}", token))
            i = j
            continue
        result.uses.append(OptionUse(spec, option, token, values, None, abbreviated))
        i = j
    return result


def _display(spec: FlagSpec) -> str:
    """argparse names an option argument by all its option strings joined with '/'."""
    return "/".join(spec.options)
