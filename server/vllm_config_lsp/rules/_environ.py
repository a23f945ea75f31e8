"""The environment of a command line, for the rules about vLLM's environment variables:
each setting the host writes, with the release's catalogue of variables."""

from __future__ import annotations

import os
from collections.abc import Iterator

from vllm_config_lsp.sources.invocation import EnvVar
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.environ import EnvCatalogue, load_environ


def catalogue(model: ConfigModel) -> EnvCatalogue | None:
    return load_environ(model.version)


def settings(model: ConfigModel) -> Iterator[EnvVar]:
    """The settings of the model's command line, each once (the last of a name wins, as
    the process sees it)."""
    yield from model.invocation.environment().values()


def lookup(model: ConfigModel, name: str) -> tuple[str | None, bool]:
    """(value, known) of a variable for the command line: the value the host writes for
    it; where it is missing, nothing for a host whose environment is closed (a Kubernetes
    container without `envFrom`, a compose service without `env_file`, a Slurm step of
    `--export=NONE`: `Invocation.environ_complete`), else the linter's
    own environment (a shell script runs with its caller's; a `--config` file with the
    serving host's). `known` is True only when the host decides the value: it writes it
    (without parts filled in elsewhere: `valueFrom`, `$(VAR)`), or it is closed."""
    invocation = model.invocation
    var = invocation.environment().get(name)
    if var is not None:
        if var.value is None or not var.value.resolved:
            return None, False
        return var.value.text, True
    if invocation.environ_complete:
        return None, True
    return os.environ.get(name), False


def where(var: EnvVar) -> tuple[int, int]:
    return var.name.start, var.name.end


def value_where(var: EnvVar) -> tuple[int, int]:
    if var.value is None:
        return where(var)
    if var.value.start == var.value.end:
        return var.name.start, var.value.end
    return var.value.start, var.value.end
