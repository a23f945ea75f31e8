"""vLLM's human-readable integers (``1k``, ``2M``, ``25.6k``), reproduced without vLLM.

vLLM accepts them for some integer flags (``human_readable_int`` /
``human_readable_int_or_auto`` in ``vllm/utils/argparse_utils.py``) and as bare
tokens inside JSON config values (``_expand_json_human_readable_numbers`` in
``vllm/engine/arg_utils.py``, applied before the JSON is parsed).  The linter must accept and
reject exactly what vLLM does, and must know *where* each expanded token was so diagnostics
point at the user's text, not at the expanded string.

vLLM uses the third-party ``regex`` module; we use :mod:`re`.  ``\\d`` is the same (Unicode
decimal digits) but ``\\b`` is not: ``regex`` word characters are Alphabetic, Marks, ``Nd``,
``Pc`` and the joiners, whereas :mod:`re` uses ``str.isalnum``.  The expansion therefore checks
word boundaries with :func:`_is_word`, which implements the ``regex`` definition (it only
differs from ``regex`` on code points unassigned in this Python's Unicode database).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = [
    "Expansion",
    "HumanReadableIntError",
    "expand_json_human_readable_numbers",
    "human_readable_int",
    "human_readable_int_or_auto",
]

_HUMAN_RE = re.compile(r"(\d+(?:\.\d+)?)([kKmMgGtT])")
_DECIMAL = {"k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12}
_BINARY = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
_SUFFIXES = frozenset("kKmMgGtT")
# Same pattern vLLM splits on: JSON string literals (captured) vs. everything else.
_STRING_SPLIT_RE = re.compile(r'("(?:[^"\\]|\\.)*")')
_DIGITS_RE = re.compile(r"\d+")
_SUFFIX_RE = re.compile(r"\d[kKmMgGtT]")
# Other_Alphabetic symbols (circled/squared letters) that `regex` counts as word characters.
_ALPHABETIC_SYMBOLS = ((0x24B6, 0x24E9), (0x1F130, 0x1F149), (0x1F150, 0x1F169), (0x1F170, 0x1F189))


class HumanReadableIntError(ValueError):
    """vLLM raises ``argparse.ArgumentTypeError`` here; the message is identical."""


def human_readable_int(value: str) -> int:
    """Parse ``'1k'`` (1000), ``'1K'`` (1024), ``'25.6k'`` (25600) or a plain int like vLLM.

    Raises ValueError with vLLM's message (``int()``'s message for non-numbers,
    :class:`HumanReadableIntError` for decimals with binary suffixes).  Where vLLM would
    let an ``OverflowError`` escape (``'1e999'``-sized decimals), a HumanReadableIntError with
    the same text is raised instead so callers only need to catch ValueError.
    """
    value = value.strip()
    match = _HUMAN_RE.fullmatch(value)
    if match:
        number, suffix = match.groups()
        if suffix in _DECIMAL:
            try:
                return int(float(number) * _DECIMAL[suffix])
            except OverflowError as e:
                raise HumanReadableIntError(str(e)) from e
        try:
            return int(number) * _BINARY[suffix]
        except ValueError as e:
            raise HumanReadableIntError(
                "Decimals are not allowed "
                f"with binary suffixes like {suffix}. Did you mean to use "
                f"{number}{suffix.lower()} instead?"
            ) from e
    return int(value)


def human_readable_int_or_auto(value: str) -> int:
    """Like :func:`human_readable_int`, plus ``-1``/``auto`` (any case) meaning -1."""
    value = value.strip()
    if value == "-1" or value.lower() == "auto":
        return -1
    return human_readable_int(value)


@dataclass(frozen=True)
class Expansion:
    """One bare token replaced by :func:`expand_json_human_readable_numbers`.

    ``start``/``end`` index the original string, ``new_start``/``new_end`` the expanded one.
    """

    start: int
    end: int
    new_start: int
    new_end: int
    original: str
    replacement: str


def _is_word(ch: str) -> bool:
    """``\\w`` of the ``regex`` module (Unicode "word": Alphabetic, Mark, Nd, Pc, Join_Control)."""
    if ch.isascii():
        return ch.isalnum() or ch == "_"
    cat = unicodedata.category(ch)
    if cat[0] in "LM" or cat in ("Nd", "Nl", "Pc") or ch in "\u200c\u200d":
        return True
    cp = ord(ch)
    return cat == "So" and any(a <= cp <= b for a, b in _ALPHABETIC_SYMBOLS)


def _tokens(part: str) -> list[tuple[int, int]]:
    """Spans of ``\\b\\d+(?:\\.\\d+)?[kKmMgGtT]\\b`` matches (regex-module semantics).

    The match starting at a digit run is unique (both ``\\d+`` must take whole runs, or the
    next character is a digit rather than ``.``/suffix), so each run is tried once.
    """
    spans: list[tuple[int, int]] = []
    n = len(part)
    pos = 0
    while True:
        m = _DIGITS_RE.search(part, pos)
        if m is None:
            return spans
        start, run_end = m.span()
        pos = run_end
        if start > 0 and _is_word(part[start - 1]):
            continue
        end = -1
        if run_end < n and part[run_end] == ".":
            frac = _DIGITS_RE.match(part, run_end + 1)
            if frac is not None and frac.end() < n and part[frac.end()] in _SUFFIXES:
                end = frac.end() + 1
        if end < 0 and run_end < n and part[run_end] in _SUFFIXES:
            end = run_end + 1
        if end >= 0 and (end == n or not _is_word(part[end])):
            spans.append((start, end))
            pos = end


def expand_json_human_readable_numbers(val: str) -> tuple[str, list[Expansion]]:
    """vLLM's ``_expand_json_human_readable_numbers``, also returning what was replaced.

    Bare (outside ``"..."``) tokens like ``80m`` become ``str(human_readable_int(token))``.
    vLLM aborts the whole argument when a token fails to convert (e.g. ``1.5K``); here the
    token is left as written, which makes the JSON parse fail at (or before) that token -- the
    caller reports that, and can look up the conversion error with :func:`human_readable_int`.
    """
    if _SUFFIX_RE.search(val) is None:
        return val, []
    expansions: list[Expansion] = []
    out: list[str] = []
    offset = 0  # start of the current part in ``val``
    delta = 0  # len(expanded) - len(original) so far
    for i, part in enumerate(_STRING_SPLIT_RE.split(val)):
        if i % 2 == 1 or not part:
            out.append(part)
            offset += len(part)
            continue
        last = 0
        for a, b in _tokens(part):
            token = part[a:b]
            try:
                replacement = str(human_readable_int(token))
            except ValueError:
                continue
            out.append(part[last:a])
            out.append(replacement)
            last = b
            new_start = offset + a + delta
            expansions.append(
                Expansion(
                    offset + a,
                    offset + b,
                    new_start,
                    new_start + len(replacement),
                    token,
                    replacement,
                )
            )
            delta += len(replacement) - len(token)
        out.append(part[last:])
        offset += len(part)
    return "".join(out), expansions
