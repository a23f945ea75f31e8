"""Offsets in a text back to the document that wrote it: one composable map.

A host often finds its command line in a text that is not the document itself: the script of
a `sh -c` string (its characters are the string's, after quote removal), a Dockerfile's shell
form (continued lines joined, comment lines dropped), a YAML scalar (folded, unescaped). A
`SourceMap` gives, for every character of such a text, the document span that wrote it, and
moves what was found in the text (a `Word`, an `Invocation`) to document offsets. Maps
compose (`then`): a script inside a string inside a YAML scalar maps through all three.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from vllm_config_lsp.sources.invocation import Invocation, Word

__all__ = ["SourceMap"]


@dataclass(frozen=True)
class SourceMap:
    """`starts[i]`/`ends[i]`: the document span of character `i` of the text; None for the
    document itself (offsets are document offsets). `end` is the document offset just past
    the text (where an empty suffix would be)."""

    starts: tuple[int, ...] | None = None
    ends: tuple[int, ...] | None = None
    end: int = 0

    @classmethod
    def of_word(cls, word: Word) -> SourceMap:
        """A word's text: what a script string holds maps through its quoting."""
        return cls(word.starts, word.ends, word.end)

    @classmethod
    def of_positions(cls, positions: Sequence[int], ends: Sequence[int] | None = None) -> SourceMap:
        """A text each of whose characters sits at `positions[i]` (one document character
        each, or up to `ends[i]`)."""
        stop = tuple(ends) if ends is not None else tuple(at + 1 for at in positions)
        return cls(tuple(positions), stop, stop[-1] if stop else 0)

    def start_of(self, index: int) -> int:
        """Document offset where character `index` starts (the end past the last one)."""
        if self.starts is None:
            return index
        if 0 <= index < len(self.starts):
            return self.starts[index]
        if index < 0 and self.starts:
            return self.starts[0]
        return self.end

    def end_of(self, index: int) -> int:
        """Document offset of the exclusive end `index`: the end of character `index - 1`."""
        if self.ends is None:
            return index
        if 0 < index <= len(self.ends):
            return self.ends[index - 1]
        if index <= 0:
            return self.starts[0] if self.starts else self.end
        return self.end

    def then(self, outer: SourceMap) -> SourceMap:
        """This map followed by `outer` (this text sits in `outer`'s text)."""
        if self.starts is None or self.ends is None:
            return outer
        if outer.starts is None:
            return self
        return SourceMap(
            tuple(outer.start_of(at) for at in self.starts),
            tuple(outer.end_of(at) for at in self.ends),
            outer.end_of(self.end),
        )

    def word(self, word: Word) -> Word:
        """A word found in the text, with document offsets."""
        if self.starts is None:
            return word
        if word.generated is not None:  # it keeps its place; what writes it moves
            at = word.generated
            return replace(
                word, generated=replace(at, start=self.start_of(at.start), end=self.end_of(at.end))
            )
        return replace(
            word,
            start=self.start_of(word.start),
            end=self.end_of(word.end),
            starts=tuple(self.start_of(at) for at in word.starts),
            ends=tuple(self.end_of(at) for at in word.ends),
        )

    def invocation(self, invocation: Invocation, *, image: str | None = None) -> Invocation:
        """An invocation found in the text, with document offsets; the container image is
        filled in when the text named none."""
        insert_at = invocation.insert_at
        return replace(
            invocation,
            start=self.start_of(invocation.start),
            end=self.end_of(invocation.end),
            args=[self.word(word) for word in invocation.args],
            image=invocation.image if invocation.image is not None else image,
            insert_at=None if insert_at is None else self.end_of(insert_at),
            gpus=tuple(claim.mapped(self.start_of, self.end_of) for claim in invocation.gpus),
            environ=tuple(var.relocated(self.word) for var in invocation.environ),
            fills=tuple(fill.mapped(self.start_of, self.end_of) for fill in invocation.fills),
            model=None
            if invocation.model is None
            else replace(
                invocation.model,
                start=self.start_of(invocation.model.start),
                end=self.end_of(invocation.model.end),
            ),
            # a break's repair edits the text as written: only where that is the document's
            breaks=tuple(
                replace(
                    found,
                    start=self.start_of(found.start),
                    end=self.end_of(found.end),
                    edits=found.edits if self.starts is None else (),
                )
                for found in invocation.breaks
            ),
        )
