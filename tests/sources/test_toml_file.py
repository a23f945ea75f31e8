"""TOML files as a host of vLLM starts (issue 28, item 4): an argv array (Cerebrium's
`[cerebrium.runtime.custom] entrypoint`), a string that is a command line (a task runner's
`serve = "vllm serve …"`). The real TOML files of `data/toml/` (SOURCES.md) name vLLM but
start it elsewhere: they get nothing. The Cerebrium layout below is the one Cerebrium's
documentation and the real template `data/templates/tandemn-tuna/cerebrium.toml.tpl` use."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

import pytest
from support import cli
from vllm_config_lsp.engine import Document, check
from vllm_config_lsp.findings import apply_edits
from vllm_config_lsp.sources.hosts import host_of
from vllm_config_lsp.sources.toml_file import find_invocations

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DATA = Path(__file__).resolve().parent / "data" / "toml"
REAL = sorted(p for p in DATA.rglob("*.toml"))
CEREBRIUM = """\
[cerebrium.deployment]
name = "vllm-qwen"
docker_base_image_url = "vllm/vllm-openai:v0.11.0"

[cerebrium.hardware]
compute = "AMPERE_A10"
gpu_count = 1

[cerebrium.runtime.custom]
entrypoint = ["vllm", "serve", "Qwen/Qwen3-4B", "--host", "0.0.0.0", "--port", "8000",
  # one per line from here
  "--max-model-len", '8192',
  "--task", "generate",
  "--served-model-name", "q\\u0077en"]
port = 8000
healthcheck_endpoint = "/health"

[tasks]
serve = "vllm serve Qwen/Qwen3-4B --tensor-parallel-size 2 --dtype \\"bfloat16\\""
script = \"\"\"
python -m vllm.entrypoints.openai.api_server \\
    --model m --enforce-eager
\"\"\"
"""


#: Real files that hold starts: file → the line of each. anvil-serving's recipe registry:
#: each `[[recipe]]` has its `[recipe.serve]` table, whose vLLM recipes are starts (two an
#: `entrypoint` of `python3 -m vllm.entrypoints.openai.api_server`, one the image's own);
#: its SGLang recipes are not (`sources.serve_recipes`).
#: BlenderGym's `pyproject.toml`: six pixi tasks of `[tool.pixi.feature.vllm.tasks]`, one a
#: `{ cmd = …, env = … }` table, five plain strings.
REAL_STARTS = {
    "anvil-serving/tp2-model-campaign-recipes.toml": [187, 271, 326],
    "blendergym/pyproject.toml": [259, 261, 263, 265, 267, 269],
}

#: What the real files' starts get: the NVIDIA image of anvil-serving's Nemotron recipe is
#: named by digest (no release), so the newest release's variables are the ones checked,
#: and three it sets were removed after vLLM 0.23.0 (warnings that name the release).
REAL_FINDINGS = {
    "anvil-serving/tp2-model-campaign-recipes.toml": [("VC240", n) for n in (203, 204, 205)]
}


def test_the_real_files_are_cited_and_get_no_finding() -> None:
    cited = (DATA / "SOURCES.md").read_text(encoding="utf-8")
    assert len(REAL) >= 8
    for path in REAL:
        name = path.relative_to(DATA).as_posix()
        assert f"| {name} |" in cited
        assert host_of(str(path), path.read_text(encoding="utf-8")) == "toml"
        starts = json.loads(cli("argv", "--format", "json", str(path)).stdout)
        assert [start["line"] for start in starts] == REAL_STARTS.get(name, []), name
        found = json.loads(cli("check", "--format", "json", str(path)).stdout)
        assert [(f["code"], f["line"]) for f in found] == REAL_FINDINGS.get(name, []), found


def test_a_table_under_an_array_of_tables_is_read_where_tomllib_puts_it() -> None:
    """anvil-serving's registry: `[recipe.serve]` after `[[recipe]]` is the latest recipe's
    table (what tomllib reads), and each vLLM recipe's start is the `docker run` its
    launcher builds (anvil_serving/serve_recipes.py `docker_run_argv`): the entrypoint,
    `model_flag` and the model, each `flags` entry split as `shlex.split` does, the `env`
    entries its environment; each word where the recipe writes it."""
    path = DATA / "anvil-serving" / "tp2-model-campaign-recipes.toml"
    text = path.read_text(encoding="utf-8")
    recipes = [r for r in tomllib.loads(text)["recipe"] if r["serve"]["engine"] == "vllm"]
    found = find_invocations(text)
    assert len(found) == len(recipes) == 3
    for invocation, recipe in zip(found, recipes, strict=True):
        serve = recipe["serve"]
        model = [serve["model_flag"]] if serve.get("model_flag") else []
        flags = [token for flag in serve["flags"] for token in shlex.split(flag)]
        assert [w.text for w in invocation.args] == [*model, recipe["model"], *flags]
        assert [f"{v.name.text}={v.value.text}" for v in invocation.environ] == serve["env"]
        for word in invocation.args:  # each word is written in the file
            assert word.text in text[word.start : word.end].replace('\\"', '"')
    assert text[found[0].start : found[0].end] == '"python3"'
    assert found[2].image is not None and found[2].image.startswith("vllm/vllm-openai@")
    nested = """\
[[a]]
[[a.b]]
c = "vllm serve m0"
[[a]]
[[a.b]]
c = "vllm serve m1"
[[a.b]]
c = ["vllm", "serve", "m2"]
[a.d]
c = "vllm serve m3"
"""
    assert [i.args[0].text for i in find_invocations(nested)] == ["m0", "m1", "m2", "m3"]


def test_an_entrypoint_array_and_command_strings_are_starts(tmp_path: Path) -> None:
    path = tmp_path / "cerebrium.toml"
    path.write_text(CEREBRIUM, encoding="utf-8")
    starts = json.loads(cli("argv", "--format", "json", str(path)).stdout)
    assert [(s["line"], s["source"], s["argv"][:3]) for s in starts] == [
        (10, "toml", ["Qwen/Qwen3-4B", "--host", "0.0.0.0"]),
        (19, "toml", ["Qwen/Qwen3-4B", "--tensor-parallel-size", "2"]),
        (21, "toml", ["--model", "m", "--enforce-eager"]),
    ]
    entrypoint, task, script = find_invocations(CEREBRIUM)
    words = {word.text: word for word in entrypoint.args}
    assert CEREBRIUM[words["--task"].start : words["--task"].end] == '"--task"'
    assert CEREBRIUM[words["8192"].start : words["8192"].end] == "'8192'"
    qwen = words["qwen"]  # the escape maps to the text that wrote it
    assert CEREBRIUM[qwen.starts[1] : qwen.ends[1]] == "\\u0077"
    dtype = next(word for word in task.args if word.text == "bfloat16")
    assert CEREBRIUM[dtype.start : dtype.end] == '\\"bfloat16\\"'
    assert [w.text for w in script.args] == ["--model", "m", "--enforce-eager"]


def test_a_toml_file_without_a_start_is_nothing() -> None:
    text = '[project]\nname = "x"\ndependencies = ["vllm>=0.10", "vllm serve-helper"]\n'
    assert find_invocations(text) == []
    assert check(Document(text, path=Path("/w/pyproject.toml"))).reason is None


def test_the_scanner_drops_what_tomllib_reads_otherwise_and_reads_broken_files() -> None:
    # a file tomllib refuses (a template's placeholder outside the quotes): the scanner's
    # reading, the placeholder one unresolved item that may be many arguments
    text = 'entrypoint = ["vllm", "serve", "m", "--port", "1"{extra_flags}]\n'
    [invocation] = find_invocations(text)
    assert [w.text for w in invocation.args] == ["m", "--port", "1", "{extra_flags}"]
    assert invocation.args[-1].splat and not invocation.args[-1].resolved
    # a half-typed string (tomllib refuses the file) is no string: nothing is guessed
    assert find_invocations('a = "vllm serve m --port 2\nb = 1\n') == []
    assert find_invocations('x = ["vllm", "serve", 3, "--port"]\n')[0].args == []


@pytest.mark.parametrize("fixed_code", ["VC101"])
def test_a_fix_applied_is_still_toml(fixed_code: str) -> None:
    checked = check(Document(CEREBRIUM, path=Path("/w/cerebrium.toml")))
    assert checked.host == "toml"
    fixes = [f for f in checked.findings if f.code == fixed_code and f.fixes]
    assert fixes
    fixed = apply_edits(CEREBRIUM, fixes[0].fixes[0].edits)
    entrypoint = tomllib.loads(fixed)["cerebrium"]["runtime"]["custom"]["entrypoint"]
    assert "--task" not in entrypoint and entrypoint[-2:] == ["--served-model-name", "qwen"]
    assert [w.text for w in find_invocations(fixed)[0].args] == entrypoint[2:]


@pytest.mark.parametrize(
    ("hardware", "claim"),
    [
        ('compute = "ADA_L4"\ngpu_count = 1', (1, "L4", '"ADA_L4"\ngpu_count = 1')),
        ('gpu_count = 2\ncompute = "HOPPER_H100"', (2, "H100", '2\ncompute = "HOPPER_H100"')),
        ('compute = "ADA_L40"\ngpu_count = 4', (4, None, '"ADA_L40"\ngpu_count = 4')),
        ('compute = "AMPERE_A100_80GB"', (None, "A100-80GB", '"AMPERE_A100_80GB"')),
        ('compute = ["HOPPER_H100", "AMPERE_A100_80GB"]\ngpu_count = 1', (1, None, None)),
        ('compute = "CPU"', None),
        ('compute = "INF2"\ngpu_count = 1', None),
        ('compute = "ADA_L4"\ngpu_count = "1"', (None, "L4", '"ADA_L4"\ngpu_count = "1"')),
        ('compute = "{gpu_compute}"\ngpu_count = 1', None),
        (
            '[cerebrium]\nhardware = { compute = "ADA_L4", gpu_count = 1 }',
            (1, "L4", '"ADA_L4", gpu_count = 1'),
        ),
        ('cerebrium.hardware.compute = "TURING_T4"', (None, "T4", '"TURING_T4"')),
    ],
)
def test_cerebrium_hardware_is_the_starts_gpu_claim(
    hardware: str, claim: tuple[int | None, str | None, str | None] | None
) -> None:
    """`[cerebrium.hardware]` as Cerebrium names its compute (docs.cerebrium.ai/docs/hardware/
    cpu-and-memory; a list is alternatives, tried in order), on the real cerebellum-qwen app
    with its entrypoint made a vLLM start; the claim spans the values written."""
    real = (DATA / "cerebellum-qwen" / "cerebrium.toml").read_text(encoding="utf-8")
    text = real.replace('compute = "ADA_L4"\ngpu_count = 1', hardware).replace(
        "[cerebrium.runtime.custom]\n",
        '[cerebrium.runtime.custom]\nentrypoint = ["vllm", "serve", "Qwen/Qwen3-8B"]\n',
    )
    if hardware.startswith(("[cerebrium]", "cerebrium.")):  # the table written another way
        start = '[cerebrium.runtime.custom]\nentrypoint = ["vllm", "serve", "Qwen/Qwen3-8B"]\n'
        text = f"{hardware}\n\n{start}"
    assert tomllib.loads(text)["cerebrium"]["runtime"]["custom"]["entrypoint"][0] == "vllm"
    [invocation] = find_invocations(text)
    got = [(c.origin, c.count, c.name, text[c.start : c.end]) for c in invocation.gpus]
    if claim is None:
        assert got == []
        return
    count, name, written = claim
    if written is None:  # alternatives: the span is the whole of what is written
        assert [g[:3] for g in got] == [("[cerebrium.hardware]", count, name)]
        return
    assert got == [("[cerebrium.hardware]", count, name, written)]


#: Real Markdown files whose ```toml blocks start vLLM: file → (line, argv) of each start.
MARKDOWN = {
    "anvil-serving-models.md": [(173, [])],
    "pylet-configuration.md": [
        (111, ["Qwen/Qwen2.5-1.5B-Instruct", "--port", "$PORT", "--host", "0.0.0.0"])
    ],
}


@pytest.mark.parametrize("name", sorted(MARKDOWN))
def test_toml_blocks_in_markdown_are_read_by_the_toml_host(name: str) -> None:
    path = DATA / "markdown" / name
    assert f"| markdown/{name} |" in (DATA / "SOURCES.md").read_text(encoding="utf-8")
    starts = json.loads(cli("argv", "--format", "json", str(path)).stdout)
    assert [(s["line"], s["source"], s["argv"]) for s in starts] == [
        (line, "markdown", argv) for line, argv in MARKDOWN[name]
    ]
    result = cli("check", str(path))
    assert (result.returncode, result.stdout) == (0, ""), result.stdout


def test_a_variable_in_an_argv_item_is_unresolved(tmp_path: Path) -> None:
    # PyLet's `command` array is run by the shell with `$PORT` set: no VC201 on `$PORT`;
    # a port that is no number (nothing fills it in) still is one
    path = tmp_path / "job.toml"
    for port, codes in (("$PORT", []), ("${PORT}", []), ("eighty", ["VC201"])):
        text = f'name = "x"\ncommand = ["vllm", "serve", "m", "--port", "{port}"]\n'
        path.write_text(text, encoding="utf-8")
        found = json.loads(cli("check", "--format", "json", str(path)).stdout)
        assert [f["code"] for f in found] == codes, found
        [invocation] = find_invocations(text)
        assert invocation.args[-1].resolved is (not port.startswith("$"))


BLENDERGYM = DATA / "blendergym" / "pyproject.toml"


def test_a_pixi_tasks_env_table_is_the_starts_environment() -> None:
    """`serve-qwen36-27b = { cmd = "vllm serve …", env = { CUDA_VISIBLE_DEVICES = "8,9" } }`
    in the real BlenderGym file: the task's `env` is the start's environment, each name and
    value where it is written; a plain-string task beside it has none."""
    text = BLENDERGYM.read_text(encoding="utf-8")
    first, second, *_ = find_invocations(text)
    [var] = first.environ
    assert (var.origin, text[var.name.start : var.name.end]) == ("env", "CUDA_VISIBLE_DEVICES")
    assert var.value is not None and text[var.value.start : var.value.end] == '"8,9"'
    assert var.value.text == "8,9" and second.environ == ()
    [start, *_] = json.loads(cli("argv", "--format", "json", str(BLENDERGYM)).stdout)
    visible = {"name": "CUDA_VISIBLE_DEVICES", "value": "8,9", "origin": "env"}
    assert start["environment"] == [visible]


def test_a_tasks_env_fills_its_command_and_is_checked(tmp_path: Path) -> None:
    """The real task with its `env` table given a `$TP` the command uses and a misspelt
    variable: `$TP` takes the task's value (pixi's task shell expands it), and the unknown
    variable is found on its key (VC240); the rename the fix offers is still TOML."""
    text = BLENDERGYM.read_text(encoding="utf-8")
    written = 'env = { CUDA_VISIBLE_DEVICES = "8,9" }'
    assert text.count(written) == 1 and text.count("--tensor-parallel-size 2 ") == 2
    text = text.replace("--tensor-parallel-size 2 --max-model-len 262144", "-tp $TP", 1)
    text = text.replace(written, 'env = { TP = "4", VLLM_LOGGING_LEVL = "DEBUG" }')
    tomllib.loads(text)
    first = find_invocations(text)[0]
    assert [w.text for w in first.args[:3]] == ["Qwen/Qwen3.6-27B-FP8", "-tp", "4"]
    assert text[first.args[2].start : first.args[2].end] == "$TP"
    path = tmp_path / "pyproject.toml"
    path.write_text(text, encoding="utf-8")
    found = json.loads(cli("check", "--format", "json", str(path)).stdout)
    assert [(f["code"], f["line"]) for f in found] == [("VC240", 259)], found
    checked = check(Document(text, path=path))
    [unknown] = [f for f in checked.findings if f.code == "VC240"]
    assert text[unknown.start : unknown.end] == "VLLM_LOGGING_LEVL"
    assert unknown.fixes
    for fix in unknown.fixes:
        fixed = apply_edits(text, fix.edits)
        tasks = tomllib.loads(fixed)["tool"]["pixi"]["feature"]["vllm"]["tasks"]
        assert tasks["serve-qwen36-27b"]["env"]["VLLM_LOGGING_LEVEL"] == "DEBUG"


def test_a_task_list_of_command_lines_is_read_line_by_line() -> None:
    """Runners whose task array is commands run one after another, not one argv: mise's
    `run = [...]`, a hatch script, a pdm `composite` (its items a command or a task's name);
    rye's array is one argv (rye.astral.sh/guide/pyproject: `devserver-alt = ["flask", …]`).
    The real BlenderGym task, written each way."""
    command = "vllm serve Qwen/Qwen3-VL-32B-Instruct --tensor-parallel-size 2"
    argv = json.dumps(command.split())
    texts = {
        "mise": f'[tasks.serve]\nrun = ["nvidia-smi", "{command}"]\nenv = {{ TP = "2" }}\n',
        "hatch": f'[tool.hatch.envs.vllm.scripts]\nserve = ["nvidia-smi", "{command}"]\n',
        "hatch.toml": f'[envs.vllm.scripts]\nserve = ["nvidia-smi", "{command}"]\n',
        "pdm": f'[tool.pdm.scripts]\nall = {{ composite = ["lint", "{command}"] }}\n',
        "rye": f"[tool.rye.scripts]\nserve = {argv}\n",
        "pixi": f"[tasks]\nserve = {{ cmd = {argv} }}\n",
    }
    for runner, text in texts.items():
        [invocation] = find_invocations(text)
        model = invocation.args[0]
        assert model.text == "Qwen/Qwen3-VL-32B-Instruct", runner
        assert text[model.start : model.end].strip('"') == model.text, runner
        assert [w.text for w in invocation.args[1:]] == ["--tensor-parallel-size", "2"]
    assert find_invocations('[tasks.x]\nrun = ["echo vllm", "nvidia-smi"]\n') == []
