"""Templates as a host of vLLM starts (issue 28, item 3): read as the format under them
(the name under the suffix, else the content) with every template span an unresolved
placeholder of the same length.

Real templates (`data/templates/SOURCES.md`, `data/not-config/SOURCES.md`): each start on its
line with its flags; what the template renders to (Python's `str.format`, Jinja itself) is
the oracle of the words read; exclusive `{% if %}` branches never meet in one command line;
a fix applied leaves a template that still renders to the command line.
"""

from __future__ import annotations

import json
import string
import sys
from pathlib import Path

import jinja2
import pytest
import yaml
from support import cli
from vllm_config_lsp.engine import Document, check
from vllm_config_lsp.findings import apply_edits
from vllm_config_lsp.sources import shell
from vllm_config_lsp.sources.hosts import find_invocations, host_of

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DATA = Path(__file__).resolve().parent / "data"
CEREBRIUM = DATA / "not-config" / "cerebrium" / "tandemn-tuna" / "cerebrium.toml.tpl"
#: An envsubst template (`envsubst < … | kubectl apply -f -`): `${VAR}` in a `sh -c` string.
LLAMA_STACK = DATA / "templates" / "llama-stack" / "vllm-k8s.yaml.template"
#: template → (line, source, first argv words) of each start.
STARTS = {
    CEREBRIUM: [(31, "toml", ["{model}", "--host", "0.0.0.0", "--port", "8080"])],
    # a Truss `docker_server.start_command`, folded (`>-`) over one flag per line
    DATA / "not-config/baseten/tandemn-tuna/config.yaml.tpl": [
        (21, "launcher", ["/models/{model_cache_folder}", "--served-model-name", "{model}"])
    ],
    DATA / "not-config/kubernetes/cybernetic-governance-engine/vllm-reasoning.yaml.tpl": [
        (40, "kubernetes", ["--model", "casperhansen/deepseek-r1-distill-llama-8b-awq"])
    ],
    DATA / "templates/cybernetic-governance-engine-rendered/vllm-fast.yaml.tpl": [
        (68, "kubernetes", ["--model", "${MODEL_FAST}", "--served-model-name"])
    ],
    DATA / "templates/cybernetic-governance-engine/vllm-deployment.yaml.tpl": [
        (60, "kubernetes", ["--host", "0.0.0.0", "--port", "8000"])
    ],
    LLAMA_STACK: [(35, "kubernetes", ["${INFERENCE_MODEL}", "--dtype", "float16"])],
}
#: Real templates that render no start this product reads (a SkyPilot task, a Baseten
#: config, a Modal app whose command is one placeholder, Helm helpers).
NOTHING = [
    DATA / "not-config/skypilot/tandemn-tuna/vllm.yaml.tpl",
    DATA / "not-config/skypilot/tandemn-tuna/router.yaml.tpl",
    DATA / "not-config/modal/tandemn-tuna/vllm_server.py.tpl",
    DATA / "not-config/helm/charts-public/_helpers.tpl",
    DATA / "not-config/helm/vp-rag-llm/_helpers.tpl",
]
RUN_SH = """\
#!/bin/bash
# rendered by Ansible's template module (trim_blocks)
exec vllm serve {{ model }} \\
{% if eager %}
  --enforce-eager --max-model-len 4096 \\
{% else %}
  --max-model-len {{ max_len | default(8192) }} \\
{% endif %}
  --port {{ port }} --task generate
"""


class _Fields(dict[str, str]):
    """The values a `str.format` template is rendered with; any other field is `1`."""

    def __missing__(self, key: str) -> str:
        return "1"


def _rendered_argv(text: str) -> list[str]:
    [invocation] = shell.find_invocations(text)
    return [word.text for word in invocation.args]


def test_the_data_is_cited() -> None:
    cited = (DATA / "templates" / "SOURCES.md").read_text(encoding="utf-8")
    others = (DATA / "not-config" / "SOURCES.md").read_text(encoding="utf-8")
    for path in [*STARTS, *NOTHING]:
        folder = "templates" if "templates" in path.parts else "not-config"
        table = cited if folder == "templates" else others
        assert f"| {path.relative_to(DATA / folder).as_posix()} |" in table, path


@pytest.mark.parametrize("path", sorted(STARTS), ids=lambda p: p.name)
def test_argv_finds_each_start_on_its_line(path: Path) -> None:
    assert host_of(str(path), path.read_text(encoding="utf-8")) == "template"
    starts = json.loads(cli("argv", "--format", "json", str(path)).stdout)
    got = [
        (start["line"], start["source"], start["argv"][: len(words)])
        for start, (_, _, words) in zip(starts, STARTS[path], strict=True)
    ]
    assert got == STARTS[path]
    result = cli("check", "--format", "json", str(path))
    assert json.loads(result.stdout) == []  # nothing on the placeholders


@pytest.mark.parametrize("path", NOTHING, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_templates_without_a_start_get_nothing(path: Path) -> None:
    assert find_invocations("template", path.read_text(encoding="utf-8"), path) == []


def test_str_format_fields_are_words_of_the_toml_under_them() -> None:
    """`{eager_flag}{quantization_flag}` stand outside the quotes, before `]`: one item that
    may be any number of arguments; every other word is what `str.format` renders."""
    text = CEREBRIUM.read_text(encoding="utf-8")
    [invocation] = find_invocations("template", text, CEREBRIUM)
    values = _Fields(model="Qwen/Qwen3-4B", max_model_len="4096", tp_size="2")
    values |= {"eager_flag": ', "--enforce-eager"', "quantization_flag": ""}
    toml = tomllib.loads(string.Formatter().vformat(text, (), values))
    rendered = toml["cerebrium"]["runtime"]["custom"]["entrypoint"]
    words = invocation.args
    assert words[-1].splat and words[-1].text == "{eager_flag}{quantization_flag}"
    assert {"{eager_flag}", "{quantization_flag}"} <= set(words[-1].unresolved)
    for word, value in zip(words[:-1], rendered[2:], strict=False):
        if word.resolved:
            assert word.text == value
        else:
            assert text[word.start : word.end].strip('"') in (
                "{model}",
                "{max_model_len}",
                "{tp_size}",
            )
    assert len(words) - 1 == len(rendered) - 3  # the rendered extra flag stood in the field


@pytest.mark.parametrize("eager", [True, False])
def test_each_jinja_branch_is_read_as_it_renders(eager: bool) -> None:
    rendered = jinja2.Environment(trim_blocks=True).from_string(RUN_SH)
    argv = _rendered_argv(rendered.render(model="m", port="8000", eager=eager))
    found = find_invocations("template", RUN_SH, Path("/w/run.sh.j2"))
    flags = [[w.text for w in inv.args if w.text.startswith("--")] for inv in found]
    assert [f for f in argv if f.startswith("--")] in flags
    assert len(found) == 2


def test_exclusive_branches_are_no_conflict_and_placeholders_get_nothing() -> None:
    checked = check(Document(RUN_SH, path=Path("/w/run.sh.j2")))
    assert checked.host == "template"
    codes = [(f.code, RUN_SH.count("\n", 0, f.start) + 1) for f in checked.findings]
    assert codes == [("VC101", 9)]  # `--task`, once; no `--max-model-len` set twice


def test_a_fix_applied_still_renders_to_the_command_line() -> None:
    checked = check(Document(RUN_SH, path=Path("/w/run.sh.j2")))
    [finding] = checked.findings
    fixed = apply_edits(RUN_SH, finding.fixes[0].edits)
    template = jinja2.Environment(trim_blocks=True).from_string(fixed)
    argv = _rendered_argv(template.render(model="m", port="8000", eager=True))
    assert argv == ["m", "--enforce-eager", "--max-model-len", "4096", "--port", "8000"]
    assert check(Document(fixed, path=Path("/w/run.sh.j2"))).findings == []


def test_a_fix_in_a_real_envsubst_template_keeps_it_yaml(tmp_path: Path) -> None:
    """A `--dtype` typo in the llama-stack template's `sh -c` string: the fix writes the
    choice inside the YAML string, the manifest still loads, `${INFERENCE_MODEL}` stays."""
    text = LLAMA_STACK.read_text(encoding="utf-8").replace("--dtype float16", "--dtype float61")
    path = tmp_path / LLAMA_STACK.name
    path.write_text(text, encoding="utf-8")
    [found] = json.loads(cli("check", "--format", "json", str(path)).stdout)
    assert (found["code"], found["line"], found["fix"]["title"]) == (
        "VC202",
        35,
        "Replace with `float16`",
    )
    [edit] = found["fix"]["edits"]
    line = text.splitlines()[34]
    start, end = edit["column"] - 1, edit["end_column"] - 1
    assert line[start:end] == "float61"
    fixed = text.replace(line, line[:start] + edit["new_text"] + line[end:])
    assert fixed == LLAMA_STACK.read_text(encoding="utf-8")
    assert len(list(yaml.safe_load_all(fixed))) == 3
    path.write_text(fixed, encoding="utf-8")
    assert json.loads(cli("check", "--format", "json", str(path)).stdout) == []


def test_go_and_terraform_templates_and_the_name_under_the_suffix() -> None:
    go = (
        "FROM vllm/vllm-openai:{{ .Tag }}\n"
        '{{- if .Eager }}\nCMD ["--model", "{{ .Model }}", "--max-model-len", "1"]\n'
        '{{- else }}\nCMD ["--model", "{{ .Model }}", "--max-model-len", "2"]\n{{- end }}\n'
    )
    found = find_invocations("template", go, Path("/w/Dockerfile.tmpl"))
    assert sorted(inv.args[-1].text for inv in found) == ["1", "2"]
    assert host_of("/w/Dockerfile.tmpl", go) == "template"
    terraform = "#!/bin/sh\nvllm serve ${model} %{ if eager }--enforce-eager%{ endif } --port 1\n"
    [invocation] = find_invocations("template", terraform, Path("/w/start.sh.tftpl"))
    assert [w.text for w in invocation.args] == ["${model}", "--enforce-eager", "--port", "1"]
    assert host_of("/w/notes.txt.j2", "vllm serve m\n") is None
