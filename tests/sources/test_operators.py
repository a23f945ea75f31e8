"""The operator registry (`sources.operators`): one module per operator, each citing the
operator source it transcribes."""

from __future__ import annotations

import importlib
import re

from vllm_config_lsp.sources.operators import operators

#: `owner/repo path@commit` (a commit of at least 7 hex digits).
_CITATION = re.compile(r"^[\w.-]+/[\w.-]+ \S+@[0-9a-f]{7,40}$")


def test_every_operator_module_declares_itself_and_cites_its_source() -> None:
    modules = {
        name: importlib.import_module(f"vllm_config_lsp.sources.operators.{name}")
        for name in (
            "aibrix",
            "kaito",
            "kserve",
            "kubeai",
            "kuberay",
            "leaderworkerset",
            "llmisvc",
            "production_stack",
        )
    }
    assert [module.OPERATOR for module in modules.values()] == list(operators())
    for module in modules.values():
        operator = module.OPERATOR
        assert _CITATION.match(operator.transcribes), operator.transcribes
        assert operator.resources
        repository, path = operator.transcribes.split(" ", 1)
        docstring = " ".join((module.__doc__ or "").split())
        assert repository in docstring and path.split("@")[0] in docstring
