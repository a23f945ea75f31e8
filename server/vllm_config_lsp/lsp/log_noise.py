"""pygls log lines that are ordinary LSP traffic, kept out of the editor's log.

An editor cancels a request it no longer needs (`$/cancelRequest`); when the answer is
already on its way, pygls warns `Cancel notification for unknown message id`. VS Code
cancels hovers, code actions and completions while the user types, so its output channel
filled with these warnings, which report nothing wrong.
"""

from __future__ import annotations

import logging

#: The logger and the format string of the warning (pygls/protocol/json_rpc.py).
PYGLS_RPC_LOGGER = "pygls.protocol.json_rpc"
CANCEL_OF_ANSWERED = "Cancel notification for unknown message id"


class _DropCancelOfAnswered(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(CANCEL_OF_ANSWERED)


def quiet_pygls() -> None:
    """Called once, when the server starts serving."""
    logging.getLogger(PYGLS_RPC_LOGGER).addFilter(_DropCancelOfAnswered())
