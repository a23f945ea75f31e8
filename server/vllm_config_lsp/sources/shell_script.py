"""A shell script as a host: the commands it runs (`sources.shell`) and what its
here-documents write.

A deployment script often carries its manifest inside it: `cat <<EOF | kubectl apply -f -`,
`kubectl apply -f - <<EOF`, `cat > deploy.yaml <<'EOF'`. Such a body is a YAML host in the
script, read by the reader of its kind (Kubernetes, compose, …, `sources.hosts`) through
the here-document's `SourceMap`, so every word lands where the script writes it. What an
unquoted here-document expands (`$TP`, `$(date)`) is unresolved in the words; a quoted one
hands its text over as written, as the shell does.

A here-document written to the file a start names as its `--config`
(`cat > config.yaml <<EOF` … `vllm serve --config config.yaml`) is that config: its keys
and values take the place of `--config FILE` as `FlexibleArgumentParser` puts them, after
the positional model and before the command line's other arguments (vllm/utils/
argparse_utils.py, `_pull_args_from_config`), each written as the flag it sets
(`sources.engine_kwargs`).
"""

from __future__ import annotations

import posixpath
from dataclasses import replace

from yaml.nodes import MappingNode

from vllm_config_lsp.sources import hosts, shell
from vllm_config_lsp.sources.engine_kwargs import engine_kwargs_words
from vllm_config_lsp.sources.invocation import Invocation, Word
from vllm_config_lsp.sources.yaml_hosts import Frame, Masked, documents

__all__ = ["find_invocations"]

#: The YAML hosts a here-document may be (a script it writes is not read: it may not run).
_MANIFESTS = frozenset({"kubernetes", "compose", "workflow", "launcher", "dstack"})


def find_invocations(text: str, *, source: str = "shell") -> list[Invocation]:
    """Every vLLM start of the script: its commands, with a `--config` a here-document
    writes read in place, and the starts of the manifests its here-documents hold.
    `source` names the host of its commands (a Markdown block's are `markdown`)."""
    found = shell.find_invocations(text, source=source)
    written = shell.heredocs(text)
    if not written:
        return found
    found = [_configured(text, invocation, written) for invocation in found]
    for heredoc in written:
        found.extend(_manifest(text, heredoc))
    return found


def _masked(text: str, heredoc: shell.Heredoc) -> Masked:
    """What the here-document expands, as unresolved parts of the words found in it."""
    return Masked(text, text, sorted(heredoc.expansions))


def _frame(heredoc: shell.Heredoc) -> Frame:
    source_map = heredoc.source_map
    return Frame(heredoc.text, source_map.starts, source_map.ends, source_map.end)


def _manifest(text: str, heredoc: shell.Heredoc) -> list[Invocation]:
    """The starts of a YAML host the here-document holds, in document offsets."""
    name = posixpath.basename(heredoc.target or "") or "heredoc.yaml"
    if not name.endswith((".yaml", ".yml")):
        name = "heredoc.yaml"
    kind = hosts.host_of(name, heredoc.text, "yaml")
    if kind not in _MANIFESTS:
        return []
    found = hosts.find_invocations(kind, heredoc.text)
    mapped = [heredoc.source_map.invocation(invocation) for invocation in found]
    return _masked(text, heredoc).restore(mapped)


def _configured(text: str, invocation: Invocation, written: list[shell.Heredoc]) -> Invocation:
    """A start whose `--config FILE` names a file a here-document before it writes, with
    the config's arguments in place of `--config FILE`."""
    args = invocation.args
    for at, word in enumerate(args):
        path: Word | None = None
        if word.text == "--config" and at + 1 < len(args):
            path, width = args[at + 1], 2
        elif word.text.startswith("--config="):
            path, width = word, 1
        if path is None or not word.resolved or not path.resolved:
            continue
        file = path.text.removeprefix("--config=")
        heredoc = _writer(file, invocation.start, written)
        if heredoc is None:
            continue
        roots = documents(heredoc.text)
        if not roots or not isinstance(roots[0], MappingNode):
            continue
        config = engine_kwargs_words(_frame(heredoc), roots[0], syntax="yaml")
        config = [_masked(text, heredoc).restore_word(item) for item in config]
        rest = [*args[:at], *args[at + width :]]
        model = 1 if invocation.entrypoint == "serve" and rest and _positional(rest[0]) else 0
        return replace(invocation, args=[*rest[:model], *config, *rest[model:]])
    return invocation


def _positional(word: Word) -> bool:
    return not word.text.startswith("-") or word.splat


def _writer(file: str, before: int, written: list[shell.Heredoc]) -> shell.Heredoc | None:
    """The last here-document before `before` that writes `file`."""
    wanted = posixpath.normpath(file)
    found = None
    for heredoc in written:
        target = heredoc.target
        if heredoc.start < before and target is not None and posixpath.normpath(target) == wanted:
            found = heredoc
    return found
