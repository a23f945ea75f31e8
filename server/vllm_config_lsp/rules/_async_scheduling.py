"""What the async-scheduling checks of `VllmConfig.__post_init__` (0.11.2-0.32.0) read: whether
the file turns async scheduling on, and the speculative setup it then refuses.

Not a rule (the leading underscore keeps it out of the registry).
"""

from __future__ import annotations

from dataclasses import dataclass

from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules._model_config import Spec, async_scheduled, spec
from vllm_config_lsp.vllm.config_model import ConfigModel

Span = tuple[int, int]


def async_on(model: ConfigModel) -> bool:
    """`async-scheduling: true`. Only then do these releases refuse: left unset (the default
    from 0.14.1 on) vLLM turns async scheduling off with a warning instead, and up to 0.13.0
    the default is off."""
    a = args(model, "async-scheduling")
    return a is not None and a["async_scheduling"].value is True


@dataclass(frozen=True)
class Refusal:
    """Which speculative check refuses, where the file decides it, and the method."""

    kind: str  # "method" or "padded"
    where: Span
    method: str


def speculative_refusal(model: ConfigModel) -> Refusal | None:
    """The speculative check that refuses async scheduling in the model's release, if one
    does whatever the draft checkpoint turns out to be: a method async scheduling does not
    run with (every method vLLM may settle on refused), then `disable_padded_drafter_batch`
    with one it runs with (every method accepted)."""
    config = spec(model) if async_on(model) else None
    if config is None or not config.candidates:
        return None
    accepted = [async_scheduled(method, model.version) for method in config.candidates]
    if not any(accepted):
        return Refusal("method", config.where_method, _shown(config))
    if all(accepted) and config.value("disable_padded_drafter_batch") is True:
        return Refusal("padded", config.span("disable_padded_drafter_batch"), _shown(config))
    return None


def _shown(config: Spec) -> str:
    return config.settled or str(config.method)
