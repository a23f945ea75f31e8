"""Rewrite a config for another vLLM release: "Migrate this config to vLLM X".

Upgrading vLLM breaks configs in known ways (a flag renamed, a config field renamed, an
option removed because its feature went away). For each key the target release refuses,
`flag_history` knows whether a drop-in rename exists (applied), whether the option simply
has to go (removed), or whether the replacement has another shape (`rope-scaling` →
`hf-overrides`): that is left to a human and listed. Old names the target still accepts
beside their new one (`level` and `mode` in 0.12-0.17) are renamed too. Edits are textual
(key renames, line removals), so comments and layout elsewhere stay as they were. The
CLI's `check --migrate-to X` and the language server's code action both call `migrate`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from vllm_config_lsp.document.value_tree import ValueNode
from vllm_config_lsp.document.yaml_edits import remove_entry
from vllm_config_lsp.findings import Severity, TextEdit, apply_edits
from vllm_config_lsp.rules.support import (
    field_issues,
    remove_pair_fix,
    rename_in_place,
    rename_key_fix,
    spell_like,
)
from vllm_config_lsp.sources.yaml_origin import Pair
from vllm_config_lsp.vllm.catalogue import load_catalogue
from vllm_config_lsp.vllm.config_model import ConfigModel, build_model
from vllm_config_lsp.vllm.flag_history import (
    ADVICE,
    Change,
    removed_field,
    removed_flag,
    renamed_field,
    renamed_flag,
)
from vllm_config_lsp.vllm.pydantic_lax import UNKNOWN_KEY_KINDS

if TYPE_CHECKING:
    from vllm_config_lsp.engine import Checked

#: Each round applies non-overlapping edits; nested renames may need a few.
MAX_ROUNDS = 6


@dataclass
class Migration:
    target: str  # the release migrated to
    text: str
    applied: list[str] = field(default_factory=list)
    #: What the tool cannot decide (a removed option whose replacement has another
    #: shape, or an error unrelated to the release change), one line each.
    needs_human: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return bool(self.applied)

    def edit(self, original: str) -> TextEdit:
        """One edit replacing the whole document (what an LSP code action sends)."""
        return TextEdit(0, len(original), self.text)


@dataclass
class _Step:
    description: str
    edit: TextEdit | None  # None: needs a human


def migration(checked: Checked, target: str) -> Migration:
    """A checked document rewritten for vLLM `target`, read as it was checked."""
    return migrate(checked.text, target, model_on_cli=checked.options.model_on_cli)


def migrate(text: str, target: str, *, model_on_cli: bool | None = None) -> Migration:
    """`text` rewritten for vLLM `target` (any spelling `load_catalogue` accepts)."""
    catalogue = load_catalogue(target)
    out = Migration(catalogue.version, text)
    seen_human: set[str] = set()
    for _ in range(MAX_ROUNDS):
        model = build_model(out.text, catalogue, model_on_cli=model_on_cli)
        edits: list[TextEdit] = []
        for step in _steps(model):
            if step.edit is None:
                if step.description not in seen_human:
                    seen_human.add(step.description)
                    out.needs_human.append(step.description)
            elif not any(_overlaps(step.edit, e) for e in edits):
                edits.append(step.edit)
                out.applied.append(step.description)
        if not edits:
            break
        out.text = apply_edits(out.text, edits)
    out.needs_human.extend(_remaining_errors(out, model_on_cli, seen_human))
    return out


def _overlaps(a: TextEdit, b: TextEdit) -> bool:
    return a.start < b.end and b.start < a.end


def _steps(model: ConfigModel) -> Iterator[_Step]:
    version = model.catalogue.version
    pairs: list[Pair] = [
        token.pair
        for token in model.result.extras
        if token.is_key and token.pair is not None and token.text.startswith("--")
    ]
    pairs += [
        event.pair
        for event in model.events
        if event.kind == "false-dropped"
        and event.pair is not None
        and "--" + _head(event.pair.key) not in model.catalogue.option_index
    ]
    for pair in pairs:
        change = removed_flag(_head(pair.key), version)
        if change is not None and change.kind == "removed":
            yield _flag_step(model, pair, change)
    yield from _field_steps(model)
    yield from _rename_steps(model)


def _rename_steps(model: ConfigModel) -> Iterator[_Step]:
    """Old names the target still accepts beside their new one (VC121): renamed now, so
    the next upgrade does not break the file."""
    from vllm_config_lsp.rules._versioned import field_uses

    version = model.catalogue.version
    for use in model.result.uses:
        pair = use.token.pair
        if pair is None or not use.token.is_key or not use.option_string.startswith("--"):
            continue
        rename = renamed_flag(use.option_string[2:], version)
        if rename is not None:
            head, dot, tail = pair.key.partition(".")
            new_key = spell_like(head, rename.new) + dot + tail
            edit = rename_key_fix(model, pair, new_key).edits[0]
            yield _Step(f"renamed `{pair.key}` to `{new_key}` (its new name)", edit)
    for use_ in field_uses(model):
        rename = renamed_field(use_.class_name, use_.name, version)
        entry = use_.entry
        if rename is None:
            continue
        renamed = rename_in_place(model.text, entry.key_start, entry.key_end, use_.name, rename.new)
        if renamed is not None:
            yield _Step(f"renamed `{use_.where}` to `{rename.new}` (its new name)", renamed)


def _head(key: str) -> str:
    return key.split(".", 1)[0].replace("_", "-")


def _deletable(key: str) -> bool:
    advice = ADVICE.get(key)
    return advice is not None and advice.delete


def _flag_step(model: ConfigModel, pair: Pair, change: Change) -> _Step:
    if change.rename_to:
        new_key = spell_like(pair.key, change.rename_to)
        rename = rename_key_fix(model, pair, new_key)
        return _Step(f"renamed `{pair.key}` to `{new_key}` ({change.message})", rename.edits[0])
    if _deletable(change.name):
        removal = remove_pair_fix(model, pair)
        if removal is not None:
            return _Step(f"removed `{pair.key}` ({change.message})", removal.edits[0])
    return _Step(f"`{pair.key}`: {change.message}", None)


def _field_steps(model: ConfigModel) -> Iterator[_Step]:
    version = model.catalogue.version
    for value, issue in field_issues(model, UNKNOWN_KEY_KINDS):
        entry = issue.entry
        if entry is None or value.tree is None:
            continue
        name = issue.path[-1]
        change = removed_field(issue.class_name, name, version)
        if change is None or change.kind != "removed":
            continue
        where = f"`{'.'.join([value.spec.name, *issue.path])}`"
        if change.rename_to:
            edit = rename_in_place(
                model.text, entry.key_start, entry.key_end, name, change.rename_to
            )
            if edit is not None:
                yield _Step(f"renamed {where} to `{change.rename_to}` ({change.message})", edit)
                continue
        key = f"{issue.class_name}.{name}"
        container = _container(value.tree, issue.path)
        if _deletable(key) and container is not None:
            removal = remove_entry(model.text, container, entry)
            if removal is not None:
                yield _Step(f"removed {where} ({change.message})", removal)
                continue
        yield _Step(f"{where}: {change.message}", None)


def _container(tree: ValueNode, path: list[str]) -> ValueNode | None:
    node: ValueNode | None = tree
    for key in path[:-1]:
        node = node.get(key) if node is not None and node.is_object else None
    return node


def _remaining_errors(out: Migration, model_on_cli: bool | None, known: set[str]) -> list[str]:
    """Errors still reported on the target after migrating, not already listed."""
    from vllm_config_lsp.engine import lint

    lines = []
    for finding in lint(out.text, version=out.target, model_on_cli=model_on_cli).findings:
        if finding.severity < Severity.ERROR:
            continue
        if any(finding.message.endswith(k.split(": ", 1)[-1]) for k in known):
            continue
        line = out.text.count("\n", 0, finding.start) + 1
        lines.append(f"line {line}: {finding.code} {finding.message}")
    return lines
