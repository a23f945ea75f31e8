"""TextIndex: PyYAML-compatible lines, LSP (UTF-16) positions, clamping, speed."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st
from vllm_config_lsp.document.text_index import TextIndex

BREAKS = ["\n", "\r\n", "\r", "\x85", "\u2028", "\u2029"]
LSP_BREAKS = ["\n", "\r\n", "\r"]

texts = st.lists(
    st.one_of(
        st.sampled_from(
            [*BREAKS, "a", "b", " ", "\t", "é", "😀", "\U0001f9d1\u200d\U0001f4bb", "\ufeff"]
        ),
        st.text(max_size=5),
    ),
    max_size=40,
).map("".join)


def reference_lines(text: str, breaks: list[str]) -> list[tuple[int, int]]:
    """(start, end-excluding-break) of each line, by a slow obviously-correct scan."""
    lines = []
    start = i = 0
    while i < len(text):
        if text.startswith("\r\n", i) and "\r\n" in breaks:
            lines.append((start, i))
            i += 2
            start = i
        elif text[i] in breaks:
            lines.append((start, i))
            i += 1
            start = i
        else:
            i += 1
    lines.append((start, len(text)))
    return lines


def utf16(s: str) -> int:
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


@given(texts)
def test_lines_match_reference(text: str) -> None:
    idx = TextIndex(text)
    lines = reference_lines(text, BREAKS)
    assert idx.line_count == len(lines)
    for n, (start, end) in enumerate(lines):
        assert idx.line_start(n) == start
        assert idx.line_end(n) == end
    lsp_lines = reference_lines(text, LSP_BREAKS)
    assert idx.lsp_line_count == len(lsp_lines)
    for offset in range(len(text) + 1):
        line, col = idx.line_col(offset)
        start, end = lines[line]
        assert start <= offset
        assert col == min(offset, end) - start
        assert idx.offset_of(line, col) == min(offset, end)
        lline, character = idx.lsp_position(offset)
        lstart, lend = lsp_lines[lline]
        assert (
            lstart <= offset <= (lsp_lines[lline + 1][0] if lline + 1 < len(lsp_lines) else offset)
        )
        assert character == utf16(text[lstart : min(offset, lend)])
        assert idx.offset_of_lsp(lline, character) == min(offset, lend)


@given(texts)
def test_lines_match_pyyaml_marks(text: str) -> None:
    """Mark.line after reading every prefix equals our line; Mark.column too (no BOM)."""
    try:
        reader = yaml.reader.Reader(text)
    except yaml.reader.ReaderError:
        return
    idx = TextIndex(text)
    for offset in range(len(text)):
        mark = reader.get_mark()
        assert mark.index == offset
        line, col = idx.line_col(offset)
        assert line == mark.line
        if "\ufeff" in text:
            pass  # PyYAML does not advance Mark.column over U+FEFF; we count it
        elif text[offset - 1 : offset + 1] == "\r\n":
            # PyYAML sits "after" the \r on the same line; we never split the pair.
            assert col + 1 == mark.column
        else:
            assert col == mark.column
        reader.forward()


def test_crlf_never_split() -> None:
    idx = TextIndex("ab\r\ncd")
    assert idx.line_col(3) == (0, 2)  # between \r and \n -> end of line 0
    assert idx.lsp_position(3) == (0, 2)
    assert idx.line_col(4) == (1, 0)
    assert idx.line_end(0) == 2
    assert idx.line_start(1) == 4


def test_clamping() -> None:
    idx = TextIndex("ab\ncd\n")
    assert idx.line_count == 3
    assert idx.offset_of_lsp(0, 99) == 2
    assert idx.offset_of_lsp(99, 0) == 6
    assert idx.offset_of_lsp(-1, 5) == 0
    assert idx.offset_of_lsp(1, -3) == 3
    assert idx.offset_of(0, 99) == 2
    assert idx.offset_of(99, 99) == 6
    assert idx.line_col(-5) == (0, 0)
    assert idx.line_col(99) == (2, 0)
    assert idx.lsp_position(99) == (2, 0)
    assert idx.line_start(-1) == 0
    assert idx.line_end(99) == 6


def test_empty_text() -> None:
    idx = TextIndex("")
    assert idx.line_count == 1
    assert idx.line_col(0) == (0, 0)
    assert idx.lsp_position(0) == (0, 0)
    assert idx.offset_of_lsp(0, 3) == 0


def test_utf16_columns() -> None:
    text = "k: 😀x\n😀😀y"
    idx = TextIndex(text)
    assert idx.lsp_position(text.index("x")) == (0, 5)
    assert idx.offset_of_lsp(0, 5) == text.index("x")
    assert idx.offset_of_lsp(0, 4) == text.index("😀")  # inside the surrogate pair: round down
    assert idx.lsp_position(text.index("y")) == (1, 4)
    assert idx.line_col(text.index("y")) == (1, 2)


def test_yaml_only_breaks() -> None:
    """NEL/LS/PS end a line for PyYAML (line_col) but not for an LSP client."""
    text = "a\u2028b\x85c\nd"
    idx = TextIndex(text)
    assert idx.line_col(text.index("c")) == (2, 0)
    assert idx.lsp_position(text.index("c")) == (0, 4)
    assert idx.line_col(text.index("d")) == (3, 0)
    assert idx.lsp_position(text.index("d")) == (1, 0)
    assert idx.offset_of_lsp(1, 0) == text.index("d")
    assert idx.line_count == 4
    assert idx.lsp_line_count == 2


def test_pyyaml_marks_on_document() -> None:
    text = "a: 1\r\nb:\r  - x\u2028c: 'y'\n"
    idx = TextIndex(text)
    for token in yaml.scan(text, Loader=yaml.SafeLoader):
        for mark in (token.start_mark, token.end_mark):
            assert idx.line_col(mark.index) == (mark.line, mark.column)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_large_text(newline: str) -> None:
    """Speed is measured in benchmarks/, not here: this is the size, indexed right."""
    lines = [f"  key_{i}: value {i}  # comment é" for i in range(5000)]
    text = newline.join(lines)
    idx = TextIndex(text)
    assert idx.line_count == 5000
    for line in (0, 1, 2500, 4999):
        start = sum(len(before) + len(newline) for before in lines[:line])
        assert idx.lsp_position(start + 3) == (line, 3)
