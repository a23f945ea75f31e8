"""Checks of what a platform plugin reads (`vllm.plugins`): they run only on a start the
engine decided runs with that plugin (`ConfigModel.plugin`)."""
