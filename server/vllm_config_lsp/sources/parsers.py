"""Tree-sitter parsers, one per thread.

The language server checks different documents on several threads at once (`lsp.session`),
and a tree-sitter `Parser` holds the state of the parse it is running: shared between two
threads, one parse would run over the other's. The `Language`, the slow part to build, is
built once and shared.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from tree_sitter import Language, Parser

__all__ = ["per_thread"]


def per_thread(language: Callable[[], object]) -> Callable[[], Parser]:
    """A function giving the calling thread's parser of `language()` (the grammar
    package's `language` function)."""
    built: list[Language] = []
    parsers = threading.local()
    lock = threading.Lock()

    def parser() -> Parser:
        found: Parser | None = getattr(parsers, "parser", None)
        if found is None:
            with lock:
                if not built:
                    built.append(Language(language()))
            found = parsers.parser = Parser(built[0])
        return found

    return parser
