"""The rule registry: every module with a `CODE` in this package's groups is one rule, listed
in the generated `_index` (`python tools/generate_rule_index.py`).

Groups mirror the vLLM file a rule transcribes (`config/compilation/` for
`vllm/config/compilation.py`, `loader/` for the YAML loader in `vllm/utils/argparse_utils.py`).

A rule module has a docstring (its documentation: what vLLM does, a bad example, a fixed
one), `CODE`, `NAME`, `VLLM_SOURCE` (the line of vLLM it mirrors, or None for rules about
YAML itself) and `check(model) -> Iterable[Finding]`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, cached_property, reduce
from types import ModuleType

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._index import RULES, TRIGGERS
from vllm_config_lsp.rules.releases import applicability, in_release
from vllm_config_lsp.vllm.catalogue import Catalogue, load_catalogue
from vllm_config_lsp.vllm.config_model import ConfigModel

#: Rules from VC300 on transcribe vLLM's imperative checks (`__post_init__`, validators,
#: serve-time checks) line by line from this release's source and are proven against its
#: recorded verdicts; another release runs the ones the generator found there with the
#: same condition (`x-vllm.checks`, `releases`).
VERIFIED_RELEASE = "0.33.0"
FIRST_IMPERATIVE_CODE = "VC300"
#: The published form of docs/rules/ (`tools/generate_rule_docs.py`): a rule's page is this
#: plus `<CODE>.md` (diagnostics' `codeDescription`, hover, SARIF's `helpUri`).
RULE_DOCS_URL = "https://github.com/vllm-config-lsp/vllm-config-lsp/blob/main/docs/rules/"


@dataclass(frozen=True)
class Rule:
    """A rule as the index (`_index`, `tools/generate_rule_index.py`) lists it; its module
    is imported when the rule first runs or its documentation is read."""

    code: str
    name: str
    #: The rule's module, under `vllm_config_lsp.rules.`.
    module_name: str
    #: The release whose source the rule transcribes (`TRANSCRIBES`; VERIFIED_RELEASE
    #: unless the check is gone from it).
    transcribes: str = VERIFIED_RELEASE
    #: What its `check` needs the file to set before it can find anything, as the index
    #: lists it: (test, helper, *arguments) (`tools/generate_rule_index.py`).
    triggers: tuple[tuple[str, ...], ...] = ()

    @cached_property
    def module(self) -> ModuleType:
        return importlib.import_module(f"{__name__}.{self.module_name}")

    @property
    def doc(self) -> str:
        return self.module.__doc__ or ""

    @property
    def vllm_source(self) -> str | None:
        source: str | None = getattr(self.module, "VLLM_SOURCE", None)
        return source

    @property
    def catalogue(self) -> tuple[str, ...]:
        return tuple(getattr(self.module, "CATALOGUE", ()))

    @property
    def check(self) -> Callable[[ConfigModel], Iterable[Finding]]:
        check: Callable[[ConfigModel], Iterable[Finding]] = self.module.check
        return check

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0].rstrip(".")

    def applies_to(self, catalogue: Catalogue) -> bool:
        """An imperative rule runs for a release that has one of its checks at least."""
        return (
            self.code < FIRST_IMPERATIVE_CODE
            or catalogue.version == self.transcribes
            or self.code in catalogue.checks
        )

    @property
    def releases(self) -> str:
        """The vLLM releases the rule runs for, as `rules CODE` and docs/rules/ say it."""
        if self.code < FIRST_IMPERATIVE_CODE:
            return "every release (read from that release's own catalogue)"
        return applicability(self.code, self.transcribes)

    def can_fire(self, model: ConfigModel) -> bool:
        """False when the file leaves out a setting the rule's `check` returns without: the
        same helper the rule calls first, with the same arguments, before its module is
        imported (issue 35). A helper that fails leaves the rule to run (and report it)."""
        for test, helper, *arguments in self.triggers:
            try:
                value = _helper(model, helper)(*arguments)
            except Exception:
                return True
            if _RETURNS[test](value):
                return False
        return True

    def run(self, model: ConfigModel) -> Iterable[Finding]:
        """The findings for the model's release: another release than the transcribed one
        keeps only the findings of checks it has, in its words (`releases`)."""
        found = self.check(model)
        if self.code < FIRST_IMPERATIVE_CODE or model.version == self.transcribes:
            return found
        return in_release(self.code, found, model.catalogue, load_catalogue(self.transcribes))


#: A trigger's test: when the value the rule reads first makes its `check` return.
_RETURNS: dict[str, Callable[[object], bool]] = {
    "some": lambda value: value is None,
    "true": lambda value: not value,
    "false": bool,
}


def _helper(model: ConfigModel, name: str) -> Callable[..., object]:
    """`model.flag` (`model.final.get`) → the model's method (its attribute's);
    `_engine.given` → `given` bound to the model; `model` → the chain of the model's
    attributes its arguments name."""
    if name == "model":
        return lambda *path: reduce(getattr, path, model)
    home, function = name.rsplit(".", 1)
    if home == "model" or home.startswith("model."):
        owner = reduce(getattr, home.split(".")[1:], model)
        method: Callable[..., object] = getattr(owner, function)
        return method
    helper = getattr(importlib.import_module(f"{__name__}.{home}"), function)
    return lambda *arguments: helper(model, *arguments)


@cache
def all_rules() -> tuple[Rule, ...]:
    """Every rule, by code, from the generated index: no module is walked or imported here
    (tests/rules/test_rule_index.py keeps the index complete)."""
    rules = []
    for line in RULES.splitlines():
        code, name, module, *transcribes = line.split()
        transcribed = transcribes[0] if transcribes else VERIFIED_RELEASE
        rules.append(Rule(code, name, module, transcribed, TRIGGERS.get(code, ())))
    return tuple(rules)


def rule_by_code(code: str) -> Rule | None:
    return next((rule for rule in all_rules() if rule.code == code), None)
