"""Rule triggers (issue 35): the generated index lists, for a rule whose `check` returns
before any finding unless the file sets some setting, that setting as the helper call the
rule makes (`tools/generate_rule_index.py`), and the engine imports the rule only when the
call finds it. What a trigger hides must be what the rule would not have found: the
examples of every rule's page (and the test corpus) get the same findings as with every
rule run, and the generator takes a guard only where nothing before it can find anything."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest
from support import REPO, cli
from vllm_config_lsp.rules import all_rules

sys.path.insert(0, str(REPO / "tools"))
from generate_rule_index import triggers


@pytest.fixture(autouse=True)
def _fixture_models(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VLLM_CONFIG_MODEL_DIRS", str(REPO / "tests" / "fixtures" / "models"))


#: The CLI with every rule run whatever its triggers say: the engine as it was without them.
WITHOUT_TRIGGERS = (
    "import sys; from vllm_config_lsp.rules import Rule; "
    "Rule.can_fire = lambda self, model: True; "
    "from vllm_config_lsp.cli.main import main; sys.exit(main())"
)


def test_triggers_never_hide_a_finding(tmp_path: Path) -> None:
    """Every YAML block of every rule's page (the bad example and the fixed one), the
    examples and the test corpus, checked by one process with the triggers and by one
    running every rule: the same findings, byte for byte, for every rule."""
    files, own = [], set()
    for rule in all_rules():
        for index, block in enumerate(re.findall(r"```yaml\n(.*?)```", rule.doc, re.S)):
            path = tmp_path / f"{rule.code}-{index}.vllm.yaml"
            path.write_text(block, encoding="utf-8")
            files.append(str(path))
            own.add((str(path), rule.code))
    assert len(files) > len(all_rules())
    files += [str(path) for path in sorted((REPO / "examples").glob("*.yaml"))]
    files += [str(path) for path in sorted((REPO / "tests" / "corpus").rglob("*.y*ml"))]
    command = ["check", "--format", "json", "--exit-zero", *files]
    lazy = cli(*command)
    every = subprocess.run(
        [sys.executable, "-c", WITHOUT_TRIGGERS, *command], capture_output=True, text=True
    )
    assert lazy.returncode == every.returncode == 0, lazy.stderr + every.stderr
    found = json.loads(lazy.stdout)
    assert found == json.loads(every.stdout)
    examples = {(f["file"], f["code"]) for f in found} & own
    assert len({code for _, code in examples}) > len(all_rules()) * 3 // 4, (
        "most rules' own example gets its finding (the comparison compares findings)"
    )


def _triggers_of(tmp_path: Path, source: str) -> tuple[tuple[str, ...], ...]:
    """The triggers the generator reads from a rule module's source."""
    path = tmp_path / "rule.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    module = types.ModuleType("rule")
    module.__file__ = str(path)
    exec(compile(path.read_text(), str(path), "exec"), module.__dict__)
    return triggers(module)


HEAD = """
from vllm_config_lsp.rules._engine import given, given_field, switched_on
FLAGS = ("a-flag", "b-flag")
"""


def test_a_guard_counts_only_before_anything_that_may_find(tmp_path: Path) -> None:
    taken = _triggers_of(
        tmp_path,
        f"""{HEAD}
def check(model):
    tp = given_field(model, "ParallelConfig", "tensor_parallel_size")
    eager = switched_on(model, FLAGS[0])
    if tp is None or tp.value < 2:
        return
    if not eager:
        return
    yield tp
    late = given(model, "late-flag")
    if late is None:
        return
""",
    )
    assert taken == (("some", "_engine.given_field", "ParallelConfig", "tensor_parallel_size"),), (
        "an argument not a constant (FLAGS[0]) or a guard after a yield is no trigger"
    )


def test_no_trigger_from_reassigned_names_or_unknown_helpers(tmp_path: Path) -> None:
    source = f"""{HEAD}
def _mine(model):
    return None

def check(model):
    found = given(model, "x-flag")
    found = found or given(model, "y-flag")
    other = _mine(model)
    if found is None or other is None:
        return
    yield found
"""
    assert _triggers_of(tmp_path, source) == ()


def test_a_function_returning_a_list_needs_an_empty_one(tmp_path: Path) -> None:
    """`return` alone in a function that returns a list is not "no finding" (the engine would
    fail on None, and report it): only `return []` counts there."""
    source = (
        HEAD
        + """
def check(model):
    found = given(model, "x-flag")
    if found is None:
        return RETURNED
    return [found]
"""
    )
    assert _triggers_of(tmp_path, source.replace("RETURNED", "")) == ()
    assert _triggers_of(tmp_path, source.replace("RETURNED", "[]")) == (
        ("some", "_engine.given", "x-flag"),
    )


ARGS_HEAD = """
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules._model_config import spec
FLAGS = ("a-flag", "b-flag")
"""


def test_a_serve_flag_read_through_args_is_a_trigger(tmp_path: Path) -> None:
    """`a = args(model, …)` then `not a["key"].value` (or through `given = a["key"]`) is
    read again by `_frontend.arg_field` with the same flags, and so is a guard that returns
    when the switch is on (`a["b_flag"].value`: "false"); a key not a constant is none."""
    source = f"""{ARGS_HEAD}
def check(model):
    a = args(model, *FLAGS)
    if a is None or a["b_flag"].value or not a["a_flag"].value:
        return
    given = a["b_flag"]
    a = None
    if not given.explicit or not a[FLAGS[0]].value:
        return
    yield given
"""
    assert _triggers_of(tmp_path, source) == (
        ("false", "_frontend.arg_field", "b_flag", "value", "a-flag", "b-flag"),
        ("true", "_frontend.arg_field", "a_flag", "value", "a-flag", "b-flag"),
        ("true", "_frontend.arg_field", "b_flag", "explicit", "a-flag", "b-flag"),
    ), "`given` keeps the `args` call it was read from though `a` is rebound after it"


def test_spec_is_a_trigger_read_after_the_cheaper_ones(tmp_path: Path) -> None:
    source = f"""{ARGS_HEAD}
from vllm_config_lsp.rules._engine import given

def check(model):
    config = spec(model)
    found = given(model, "x-flag")
    if config is None or found is None:
        return
    yield found
"""
    assert _triggers_of(tmp_path, source) == (
        ("some", "_engine.given", "x-flag"),
        ("some", "_model_config.spec"),
    )


def test_model_attributes_and_a_last_loop_are_triggers(tmp_path: Path) -> None:
    """`model.origin is None`, `model.is_config_file` ("false": returns when true) and what a
    generator's last statement, a `for` loop, iterates (read through a name assigned from
    the model) are triggers; a loop followed by more code is not, nor anything in a function
    that is no generator."""
    source = f"""{HEAD}
def check(model):
    if model.origin is None:
        return
    origin = model.origin
    for problem in origin.parsed.problems:
        yield problem
"""
    assert _triggers_of(tmp_path, source) == (
        ("some", "model", "origin"),
        ("true", "model", "origin", "parsed", "problems"),
    )
    config_file = source.replace(
        "model.origin is None", "model.origin is None or model.is_config_file"
    )
    assert _triggers_of(tmp_path, config_file)[1] == ("false", "model", "is_config_file")
    followed = source + "    yield model\n"
    assert _triggers_of(tmp_path, followed) == (("some", "model", "origin"),)
    returning = source.replace("yield problem", "print(problem)")
    assert _triggers_of(tmp_path, returning) == (), "no generator: `return` is no finding"
