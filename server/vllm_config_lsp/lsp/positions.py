"""Engine offsets ↔ LSP positions in the encoding negotiated with the client.

The LSP default is UTF-16 columns (`TextIndex` computes them), but pygls honours a client's
`general.positionEncodings` preference, and Emacs' eglot asks for UTF-32 first: columns are
then code points, and UTF-8 clients count bytes. Lines are always LSP lines (`\\n`, `\\r\\n`,
`\\r`), as `TextIndex` defines them.
"""

from __future__ import annotations

from lsprotocol import types

from vllm_config_lsp.document.text_index import TextIndex
from vllm_config_lsp.findings import TextEdit

_LINE_END = 1 << 30


class Positions:
    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.index = TextIndex(text)
        self.encoding = str(encoding).lower()

    def position(self, offset: int) -> types.Position:
        line, character = self.index.lsp_position(offset)
        if self.encoding != "utf-16":
            start = self.index.offset_of_lsp(line, 0)
            end = self.index.offset_of_lsp(line, _LINE_END)
            segment = self.text[start : min(max(offset, start), end)]
            character = len(segment.encode("utf-8")) if self.encoding == "utf-8" else len(segment)
        return types.Position(line=line, character=character)

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(start=self.position(start), end=self.position(end))

    def offset(self, position: types.Position) -> int:
        if self.encoding == "utf-16":
            return self.index.offset_of_lsp(position.line, position.character)
        start = self.index.offset_of_lsp(position.line, 0)
        end = self.index.offset_of_lsp(position.line, _LINE_END)
        if self.encoding != "utf-8":
            return min(start + max(position.character, 0), end)
        units = 0
        for at in range(start, end):
            units += len(self.text[at].encode("utf-8", "surrogatepass"))
            if units > position.character:
                return at
        return end

    def text_edit(self, edit: TextEdit) -> types.TextEdit:
        return types.TextEdit(range=self.range(edit.start, edit.end), new_text=edit.new_text)
