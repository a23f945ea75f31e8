"""The association globs' linear matcher agrees with the reference semantics: `fnmatch` for
a file-name pattern, `PurePosixPath.match` for a relative path pattern (pathlib reads `**`
as `*`: left out there), brace expansion for
`{a,b}`, and for the whole syntax (`**`, `**/`, nested and unclosed braces) the regular
expression the patterns were once translated to (exponential on `*a*a*…`, fine on the short
cases hypothesis draws)."""

from __future__ import annotations

import fnmatch
import re
from pathlib import PurePosixPath

from hypothesis import given
from hypothesis import strategies as st
from vllm_config_lsp.sources.association import glob_matches
from vllm_config_lsp.sources.globs import matches

NAME_CHARS = "ab.-_x"
#: Segments pathlib keeps as written (it drops `.` and reads `..`).
SEGMENT = st.text(alphabet=NAME_CHARS, min_size=1, max_size=5).filter(lambda s: s.strip("."))
GLOB_SEGMENT = (
    st.lists(st.sampled_from([*NAME_CHARS, "*", "?"]), min_size=1, max_size=5)
    .map("".join)
    .filter(lambda s: s.strip("."))
)
#: Relative: pathlib matches a pattern segment against the root `/` too.
PATH = st.lists(SEGMENT, min_size=1, max_size=5).map("/".join)


def _reference(pattern: str) -> re.Pattern[str]:
    """The editor-association reading of a pattern as a regular expression."""
    out, depth, at = [], 0, 0
    while at < len(pattern):
        for token, regex in (("**/", "(?:.*/)?"), ("**", ".*"), ("*", "[^/]*"), ("?", "[^/]")):
            if pattern.startswith(token, at):
                out.append(regex)
                at += len(token)
                break
        else:
            char = pattern[at]
            at += 1
            if char == "{":
                out.append("(?:")
                depth += 1
            elif char in ",}" and depth:
                out.append("|" if char == "," else ")")
                depth -= char == "}"
            else:
                out.append(re.escape(char))
    return re.compile("".join(out) + ")" * depth, re.IGNORECASE | re.DOTALL)


@given(st.lists(GLOB_SEGMENT, min_size=1, max_size=4).map("".join), SEGMENT)
def test_file_name_patterns_match_as_fnmatch(pattern: str, name: str) -> None:
    assert glob_matches(pattern, f"/r/{name}") == fnmatch.fnmatchcase(name, pattern)


@given(
    st.lists(GLOB_SEGMENT.filter(lambda s: "**" not in s), min_size=2, max_size=4).map("/".join),
    PATH,
)
def test_relative_path_patterns_match_as_pathlib(pattern: str, path: str) -> None:
    assert glob_matches(pattern, path) == PurePosixPath(path).match(pattern)


@given(GLOB_SEGMENT, st.lists(GLOB_SEGMENT, min_size=1, max_size=3), GLOB_SEGMENT, SEGMENT)
def test_braces_match_as_their_expansion(
    head: str, alternatives: list[str], tail: str, name: str
) -> None:
    pattern = head + "{" + ",".join(alternatives) + "}" + tail
    expanded = [head + alternative + tail for alternative in alternatives]
    assert matches(pattern, name) == any(fnmatch.fnmatchcase(name, e) for e in expanded)


@given(
    st.lists(st.sampled_from(["a", "B", "/", ".", "*", "**", "**/", "?", "{", "}", ","]))
    .map("".join)
    .filter(lambda p: len(p) <= 12),
    st.text(alphabet="aAbB/.\n", max_size=12),
)
def test_every_pattern_matches_as_its_regular_expression(pattern: str, text: str) -> None:
    assert matches(pattern, text) == (_reference(pattern).fullmatch(text) is not None)


def test_cases() -> None:
    assert matches("*.{yaml,yml}", "b.YML")
    assert matches("**/charts/**", "/r/charts/x/serve.vllm.yaml")
    assert not matches("**/charts/**", "/r/chartsx/serve.vllm.yaml")
    assert matches("/r/**/*.yaml", "/r/a.yaml")
    assert matches("a{b,{c,d}}e", "ade")
    assert matches("a{b,", "a")  # an unclosed brace closes at the end
    assert matches("a}", "a}") and matches("a,b", "a,b")
    assert not matches("*", "a/b") and matches("**", "a/b")
    assert not matches("?", "") and not matches("?", "/")
