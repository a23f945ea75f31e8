"""The Python source: argv lists and command strings found with `ast`, every character
placed inside the literal that wrote it."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from source_support import CORPUS, arg, flags, ground_truth, line_column, single, texts
from vllm_config_lsp.sources.invocation import Invocation
from vllm_config_lsp.sources.python_argv import find_invocations


def only(text: str) -> Invocation:
    return single(find_invocations(text))


# -- argv lists --------------------------------------------------------------------------


def test_popen_list_with_names_and_calls() -> None:
    text = (
        "import subprocess\n"
        "def start(model, port):\n"
        '    return subprocess.Popen(["vllm", "serve", model, "--port", str(port)])\n'
    )
    invocation = only(text)
    assert invocation.source == "python"
    assert invocation.entrypoint == "serve"
    assert text[invocation.start : invocation.end] == '"vllm"'
    assert texts(invocation) == ["{model}", "--port", "{str(port)}"]
    port = arg(invocation, "--port")
    assert line_column(text, port.starts[0]) == (3, 55)  # after the opening quote
    assert text[port.start : port.end] == '"--port"'
    assert port.quoting == "python"
    assert port.resolved
    assert arg(invocation, "{str(port)}").unresolved == ("str(port)",)
    assert not arg(invocation, "{model}").splat
    assert invocation.insert_at == text.index("str(port)") + len("str(port)")


def test_sys_executable_module_api_server_with_starred_args() -> None:
    text = (
        "import sys\n"
        'cmd = [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", m, *extra]\n'
    )
    invocation = only(text)
    assert invocation.entrypoint == "api_server"
    assert text[invocation.start : invocation.end] == "sys.executable"
    assert texts(invocation) == ["--model", "{m}", "{*extra}"]
    assert invocation.args[-1].splat


def test_list_grown_in_the_same_function_in_source_order() -> None:
    text = (
        "def build(args):\n"
        "    cmd: list[str] = []\n"
        "    if args.container:\n"
        "        cmd.append(entrypoint())\n"
        "    else:\n"
        '        cmd += ["python3", "-m", "vllm.entrypoints.openai.api_server"]\n'
        "    if args.model:\n"
        '        cmd += ["--model", args.model]\n'
        '    cmd.extend(["--port", str(args.port)])\n'
        '    cmd = cmd + ["--seed", "0"]\n'
        "    cmd.append('--enforce-eager')\n"
        "    cmd.extend(args.runtime_args)\n"
        "    # --host: use :: in a container\n"
        "    return cmd\n"
    )
    invocation = only(text)
    assert line_column(text, invocation.start) == (6, 17)
    assert texts(invocation) == [
        "--model",
        "{args.model}",
        "--port",
        "{str(args.port)}",
        "--seed",
        "0",
        "--enforce-eager",
        "{args.runtime_args}",
    ]
    assert invocation.args[-1].splat
    assert line_column(text, arg(invocation, "--enforce-eager").starts[0]) == (11, 17)


def test_a_new_assignment_ends_the_list() -> None:
    text = 'cmd = ["vllm", "serve", "a"]\ncmd = ["echo"]\ncmd += ["--port", "1"]\n'
    assert texts(only(text)) == ["a"]


def test_lists_in_other_functions_are_separate() -> None:
    text = (
        "def one():\n"
        '    cmd = ["vllm", "serve", "a"]\n'
        "def two():\n"
        '    cmd = ["echo"]\n'
        '    cmd += ["--port", "1"]\n'
    )
    assert texts(only(text)) == ["a"]


def test_concatenated_lists_and_cli_main() -> None:
    text = 'run(["python", "-m", "vllm.entrypoints.cli.main", "serve"] + base + ["--port", "1"])\n'
    invocation = only(text)
    assert texts(invocation) == ["{base}", "--port", "1"]
    assert invocation.args[0].splat


def test_constants_are_decoded_with_escapes_mapped() -> None:
    text = 'cmd = ["vllm", "serve", "m", "--chat-template", "a\\tb\\\\c", "--x" "y"]\n'
    invocation = only(text)
    value = invocation.args[2]
    assert value.text == "a\tb\\c"
    assert text[value.starts[1] : value.ends[1]] == "\\t"
    assert text[value.starts[3] : value.ends[3]] == "\\\\"
    joined = invocation.args[3]
    assert joined.text == "--xy"
    assert text[joined.starts[3]] == "y"


def test_str_format_placeholders_are_unresolved() -> None:
    invocation = only('CMD = ["vllm", "serve", "{model}", "--port", "{port}"]\n')
    assert invocation.args[0].unresolved == ("{model}",)
    assert not invocation.args[1].unresolved


# -- command strings ---------------------------------------------------------------------


def test_fstring_run_with_shell_true() -> None:
    text = (
        "def main(args, extra):\n"
        "    cmd = (\n"
        '        f"python3 -m vllm.entrypoints.openai.api_server "\n'
        "        f'    --model=\"{args.model}\" '\n"
        '        f"    --port={args.port} "  # a comment with --host\n'
        '        f"    {extra} " + (" | grep -v OK" if args.quiet else "")\n'
        "    )\n"
        "    subprocess.run(cmd, shell=True)\n"
    )
    invocation = only(text)
    assert invocation.entrypoint == "api_server"
    assert line_column(text, invocation.start) == (3, 11)
    assert texts(invocation)[:3] == ["--model={args.model}", "--port={args.port}", "{extra}"]
    model = invocation.args[0]
    assert line_column(text, model.starts[0]) == (4, 15)
    assert model.unresolved == ("{args.model}",)
    assert not model.splat
    assert text[model.starts[-1]] == "}"
    extra = invocation.args[2]
    assert extra.splat  # an unquoted field: the shell splits what Python put there
    assert "--host" not in " ".join(texts(invocation))


def test_plain_command_string_and_shell_quoting_inside() -> None:
    text = 'os.system(\'vllm serve m --speculative-config "{\\\\"method\\\\": 1}" --port 1\')\n'
    invocation = only(text)
    assert invocation.args[2].text == '{\\"method\\": 1}'.replace("\\", "")
    port = arg(invocation, "--port")
    assert text[port.start : port.end] == "--port"


def test_concatenated_command_string_with_a_name_operand() -> None:
    text = 'subprocess.run("vllm serve " + model + " --port 8000", shell=True)\n'
    invocation = only(text)
    model = invocation.args[0]
    assert (model.text, model.unresolved, model.splat) == ("{model}", ("model",), True)
    assert text[model.start : model.end] == "model"
    port = arg(invocation, "--port")
    assert text[port.start : port.end] == "--port"


def test_list_of_script_lines_is_one_script() -> None:
    text = (
        "LAUNCH = {\n"
        '    "vllm": [\n'
        '        "vllm serve {model_weights_path} \\\\",\n'
        '        "    --served-model-name {model_name} \\\\",\n'
        "        '    --host \"0.0.0.0\" \\\\',\n"
        '        "    --port $server_port_number \\\\",\n'
        "    ],\n"
        "}\n"
    )
    invocation = only(text)
    assert texts(invocation) == [
        "{model_weights_path}",
        "--served-model-name",
        "{model_name}",
        "--host",
        "0.0.0.0",
        "--port",
        "$server_port_number",
    ]
    assert line_column(text, arg(invocation, "--host").start) == (5, 14)
    assert line_column(text, arg(invocation, "--port").start) == (6, 14)
    assert invocation.args[0].unresolved == ("{model_weights_path}",)


def test_messages_docstrings_and_comments_are_not_commands() -> None:
    text = (
        '"""Run vllm serve m --port 1 to start."""\n'
        "# vllm serve m --port 1\n"
        'print("vllm serve m --port 1")\n'
        'logger.info(f"vllm serve {m} --port 1")\n'
        'parser.add_argument("--x", help="vllm serve m")\n'
        'raise RuntimeError("vllm serve m failed")\n'
        'pkill = ["pkill", "-f", "vllm serve"]\n'
    )
    assert find_invocations(text) == []


def test_non_ascii_before_the_literal() -> None:
    text = '# 部署 🚀\nname = "é"; cmd = ["vllm", "serve", "m", "--port", "1"]\n'
    port = arg(only(text), "--port")
    assert text[port.starts[0] : port.ends[-1]] == "--port"
    assert port.starts[0] == text.index('"--port"') + 1


def test_triple_quoted_script() -> None:
    text = 'SCRIPT = """\nset -e\nvllm serve m \\\n  --port 8000\n"""\n'
    invocation = only(text)
    assert line_column(text, arg(invocation, "--port").start) == (4, 3)


# -- robustness --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["def (:\n", "x = '''unclosed", "\0", "(" * 500 + ")" * 500, "[" * 2000, ""]
)
def test_invalid_or_pathological_source_does_not_raise(text: str) -> None:
    assert find_invocations(text) == []


_PYTHONISH = st.text(
    alphabet=st.sampled_from(list("[](),=+*'\"\\fr{} \nvllmserv-0.\tx#é")), max_size=200
)


@given(_PYTHONISH)
def test_any_text_yields_positions_inside_the_text(body: str) -> None:
    for text in (body, f'cmd = ["vllm", "serve", {body}]', f'os.system("vllm serve {body}")'):
        for invocation in find_invocations(text):
            assert 0 <= invocation.start <= invocation.end <= len(text)
            for word in invocation.args:
                assert len(word.starts) == len(word.ends) == len(word.text)
                assert 0 <= word.start <= word.end <= len(text)
                for start, end in zip(word.starts, word.ends, strict=True):
                    assert 0 <= start <= end <= len(text)


def test_time_grows_linearly() -> None:
    unit = (
        "def f{n}(a):\n"
        '    cmd = ["vllm", "serve", a]\n'
        '    cmd += ["--port", str(a.port)]\n'
        '    os.system(f"vllm serve {{a}} --port 1")\n'
    )

    def timed(count: int) -> float:
        text = "".join(unit.format(n=n) for n in range(count))
        start = time.perf_counter()
        assert len(find_invocations(text)) == 2 * count
        return time.perf_counter() - start

    small, large = timed(100), timed(800)
    assert large < 30 * small + 1.0


# -- the corpus --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "row", ground_truth("python"), ids=lambda row: f"{row['file']}:{row['line']}"
)
def test_corpus_invocation_is_found_with_its_argv_and_flag_positions(
    row: dict[str, Any],
) -> None:
    text = (CORPUS / "files" / row["file"]).read_text(encoding="utf-8")
    found = [
        inv for inv in find_invocations(text) if line_column(text, inv.start)[0] == row["line"]
    ]
    assert len(found) == 1
    (invocation,) = found
    # Splats this source adds past the ground truth (`cmd.extend(runtime_args)`, the
    # optional `| grep` operand) expand to unknown words; every other word must agree.
    splats = {word.text for word in invocation.args if word.splat}
    assert [word.text for word in invocation.args if not word.splat] == [
        value for value in row["argv"] if value not in splats
    ]
    expected = [(f["flag"], f["line"], f["column"]) for f in row["flags"] if f["line"] is not None]
    assert flags(text, invocation) == expected


@pytest.mark.parametrize(
    "path", sorted((CORPUS / "files" / "python").iterdir()), ids=lambda path: path.name
)
def test_corpus_file_has_no_extra_invocations(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    relative = f"python/{path.name}"
    expected = sorted(row["line"] for row in ground_truth("python") if row["file"] == relative)
    found = sorted(line_column(text, inv.start)[0] for inv in find_invocations(text))
    assert found == expected
