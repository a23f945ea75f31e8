"""End-to-end LSP tests: the server runs as a subprocess speaking JSON-RPC over stdio, and
the client announces the recorded capabilities of VS Code, Neovim or Emacs (pytest-lsp's
bundled snapshots), so each behaviour is checked against what those editors really send.

One server per editor for the whole session (session-scoped fixture and event loop: the
scopes must match or pytest-asyncio hangs); tests use distinct document URIs so they do not
interfere. Modules that need other settings start their own servers (test_settings).
Every wait is bounded (`TIMEOUT`), so a silent server fails a test instead of hanging it.
"""

from __future__ import annotations

import warnings
from collections.abc import AsyncIterator, Iterator

import pytest
import pytest_lsp
from lsp_support import CONFIG, EDITORS, INITIALIZATION_OPTIONS, start_session
from pytest_lsp import LanguageClient, LspSpecificationWarning


@pytest_lsp.fixture(config=CONFIG, params=EDITORS, scope="session")  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest) -> AsyncIterator[None]:
    """A server per editor, initialized with that editor's capabilities."""
    await start_session(lsp_client, request.param, INITIALIZATION_OPTIONS)
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(autouse=True)
def no_specification_violations() -> Iterator[None]:
    """pytest-lsp warns when a result exceeds the client's declared capabilities (snippets
    to Neovim, markdown to a client without it): here that fails the test."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LspSpecificationWarning)
        yield
    violations = [str(w.message) for w in caught if w.category is LspSpecificationWarning]
    assert not violations, violations
