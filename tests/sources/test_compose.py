"""The compose source: which services start vLLM, compose's interpolation and argv
splitting, and the positions of what each word was written as."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from source_support import (
    arg,
    assert_no_extra_starts,
    assert_row_found,
    assert_words_inside,
    file_params,
    ground_truth,
    line_column,
    row_params,
    single,
    texts,
)
from vllm_config_lsp.sources.compose import find_invocations, interpolate, shellwords
from vllm_config_lsp.sources.invocation import Invocation, Word


def only(text: str) -> Invocation:
    return single(find_invocations(text))


def at(text: str, word: Word) -> tuple[int, int]:
    return line_column(text, word.starts[0] if word.starts else word.start)


def written(text: str, word: Word) -> str:
    return text[word.start : word.end]


def service(body: str) -> str:
    return (
        "services:\n  tei:\n    image: ghcr.io/huggingface/tei:1.7\n    command: --model-id m\n"
        + ("  llm:\n" + body)
    )


# -- which services ----------------------------------------------------------------------


def test_plain_command_is_appended_to_the_vllm_image_entrypoint() -> None:
    text = service(
        "    image: vllm/vllm-openai:v0.9.1\n    command: --model m --max-model-len 4096\n"
    )
    invocation = only(text)  # the TEI service's `--model-id` is not vLLM
    assert invocation.source == "compose"
    assert invocation.entrypoint == "serve"
    assert texts(invocation) == ["--model", "m", "--max-model-len", "4096"]
    assert text[invocation.start : invocation.end] == "--model"
    assert at(text, arg(invocation, "--max-model-len")) == (7, 24)
    assert invocation.image == "vllm/vllm-openai:v0.9.1"
    assert invocation.insert_at == text.index("4096") + 4


@pytest.mark.parametrize(
    ("image", "entrypoint"),
    [
        ("vllm/vllm-openai:v0.6.4", "api_server"),
        ("vllm/vllm-openai:latest", "serve"),
        ("${REGISTRY:-opea}/vllm-rocm:${TAG:-latest}", "api_server"),
        ("opea/vllm-gaudi:1.22.0", "api_server"),
    ],
)
def test_image_entrypoint_depends_on_the_image(image: str, entrypoint: str) -> None:
    invocation = only(service(f"    image: {image}\n    command: --port 80\n"))
    assert invocation.entrypoint == entrypoint


def test_image_variables_take_their_defaults() -> None:
    invocation = only(
        service("    image: ${REGISTRY:-opea}/vllm-rocm:${TAG:-latest}\n    command: --port 1\n")
    )
    assert invocation.image == "opea/vllm-rocm:latest"


def test_vllm_image_without_command_is_a_start_at_the_image() -> None:
    text = service("    image: vllm/vllm-openai:v0.9.0\n")
    invocation = only(text)
    assert invocation.args == []
    assert text[invocation.start : invocation.end] == "vllm/vllm-openai:v0.9.0"


def test_command_that_starts_vllm_itself_in_another_image() -> None:
    text = service('    image: python:3.12\n    command: ["vllm", "serve", "m", "--port", "1"]\n')
    invocation = only(text)
    assert texts(invocation) == ["m", "--port", "1"]
    assert text[invocation.start : invocation.end] == '"vllm"'


def test_entrypoint_list_with_a_command_string() -> None:
    text = service(
        "    image: vllm/vllm-openai\n"
        '    entrypoint: ["python3", "-m", "vllm.entrypoints.openai.api_server"]\n'
        '    command: "--model m --port 8000"\n'
    )
    invocation = only(text)
    assert invocation.entrypoint == "api_server"
    assert texts(invocation) == ["--model", "m", "--port", "8000"]


def test_entrypoint_replaces_the_image_entrypoint() -> None:
    text = service(
        "    image: vllm/vllm-openai\n"
        '    entrypoint: ["/bin/bash", "-c", "sleep 1"]\n'
        "    command: --port 1\n"
    )
    assert find_invocations(text) == []


def test_non_vllm_services_with_model_flags_are_ignored() -> None:
    text = service(
        "    image: ghcr.io/huggingface/text-generation-inference:2\n    command: --model-id m\n"
    )
    assert find_invocations(text) == []


# -- quoting layers ----------------------------------------------------------------------


def test_double_quoted_yaml_with_escaped_quotes() -> None:
    text = service(
        "    image: opea/vllm-rocm:latest\n"
        '    command: "--model ${MODEL} --distributed-executor-backend \\"mp\\""\n'
    )
    invocation = only(text)
    assert texts(invocation) == ["--model", "${MODEL}", "--distributed-executor-backend", "mp"]
    assert arg(invocation, "${MODEL}").unresolved == ("${MODEL}",)
    assert written(text, arg(invocation, "mp")) == '\\"mp\\"'
    assert at(text, arg(invocation, "--model")) == (7, 15)


def test_interpolation_keeps_variables_and_dollar_dollar_is_a_literal_dollar() -> None:
    text = service(
        "    image: vllm/vllm-openai\n"
        '    command: ["--max-model-len", "${MAX_LEN:-8k}", "--x", "$${HOME}/a"]\n'
    )
    invocation = only(text)
    assert texts(invocation) == ["--max-model-len", "${MAX_LEN:-8k}", "--x", "${HOME}/a"]
    assert arg(invocation, "${MAX_LEN:-8k}").unresolved == ("${MAX_LEN:-8k}",)
    home = arg(invocation, "${HOME}/a")
    assert home.resolved
    assert text[home.starts[0] : home.ends[0]] == "$$"


def test_folded_plain_entrypoint_script_with_backslashes() -> None:
    """A multi-line plain scalar folds `\\`+newline into `\\ `; compose's splitter turns
    that into a space inside the double quotes, so bash sees one command line."""
    text = service(
        "    image: intel/llm-scaler-vllm:1.1\n"
        "    entrypoint:\n"
        '      /bin/bash -c "\n'
        "      cd /w &&\n"
        "      VLLM_USE_V1=1 \\\n"
        "      python3 -m vllm.entrypoints.openai.api_server \\\n"
        "      --model $${LLM_MODEL} \\\n"
        '      -tp=$${TP}"\n'
    )
    invocation = only(text)
    assert texts(invocation) == ["--model", "${LLM_MODEL}", "-tp=${TP}"]
    assert line_column(text, invocation.start) == (11, 7)
    assert at(text, arg(invocation, "--model")) == (12, 7)
    assert at(text, arg(invocation, "-tp=${TP}")) == (13, 7)
    assert arg(invocation, "${LLM_MODEL}").unresolved == ("${LLM_MODEL}",)


def _split(text: str) -> list[str]:
    n = len(text)
    word = Word(text, 0, n, tuple(range(n)), tuple(range(1, n + 1)))
    return [word.text for word in shellwords(interpolate(word))]


@pytest.mark.parametrize(
    ("line", "argv"),
    [
        ("a b  c", ["a", "b", "c"]),
        ("'a b' \"c d\"", ["a b", "c d"]),
        ('"a\\ b" a\\"b', ["a b", 'a"b']),  # a backslash escapes anything but in '…'
        ("'a\\ b'", ["a\\ b"]),
        ('"" x', ["", "x"]),
        ("a;b c", ["a"]),
        ("a | b", ["a"]),
        ("a 2>x", ["a"]),
        ("$(a b) c", ["$(a b)", "c"]),
        ("a\\tb", ["a\tb"]),
        ("$$x ${Y:-a b}", ["$x", "${Y:-a", "b}"]),
    ],
)
def test_compose_splitting_is_go_shellwords(line: str, argv: list[str]) -> None:
    assert _split(line) == argv


def test_split_words_map_every_character() -> None:
    text = service('    image: vllm/vllm-openai\n    command: "--a \'x y\' --b=\\"1\\""\n')
    invocation = only(text)
    assert texts(invocation) == ["--a", "x y", "--b=1"]  # the splitter removes the quotes
    quoted = arg(invocation, "x y")
    assert written(text, quoted) == "'x y'"
    assert text[quoted.starts[0]] == "x"
    assert quoted.quoting == "compose"
    one = arg(invocation, "--b=1")
    assert text[one.starts[-1] : one.ends[-1]] == "1"
    assert written(text, one) == '--b=\\"1\\"'


# -- robustness --------------------------------------------------------------------------

_PIECES = st.sampled_from(
    [
        "services:\n",
        "  a:\n",
        "    image: vllm/vllm-openai\n",
        '    command: --x ${A:-b} "q\\"" \'r\' $$ \\\n',
        "    command: [--x, '$${Y}']\n",
        '    entrypoint: /bin/sh -c "vllm serve m"\n',
        "    entrypoint: [sh, -c]\n",
        '    command: "("\n',
        "x-a: &a\n  image: vllm/vllm-openai\n",
        "  b:\n    <<: *a\n",
        "'",
        "${",
        "[",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=10), st.text(max_size=20))
def test_never_raises_on_fragments(pieces: list[str], noise: str) -> None:
    text = "".join(pieces) + noise
    assert_words_inside(find_invocations(text), text)


# -- the corpus --------------------------------------------------------------------------


@pytest.mark.parametrize("row", row_params("compose"))
def test_corpus_invocation_is_found_with_its_argv_and_flag_positions(
    row: dict[str, object],
) -> None:
    assert_row_found(find_invocations, row)


@pytest.mark.parametrize("file", file_params("compose"))
def test_corpus_file_has_no_extra_invocations(file: str) -> None:
    assert_no_extra_starts(find_invocations, file, ground_truth("compose"))


# -- a service built from a Dockerfile beside the file --------------------------------------


def _laid_out(tmp_path: Path, dockerfile: str, build: str, command: str) -> list[Invocation]:
    (tmp_path / "srv").mkdir(exist_ok=True)
    (tmp_path / "srv" / "Dockerfile.gpu").write_text(dockerfile, encoding="utf-8")
    text = f"services:\n  llm:\n    build: {build}\n{command}"
    (tmp_path / "compose.yaml").write_text(text, encoding="utf-8")
    return find_invocations(text, tmp_path / "compose.yaml")


def test_a_build_from_a_vllm_image_runs_the_command_after_its_entrypoint(tmp_path: Path) -> None:
    found = _laid_out(
        tmp_path,
        "FROM vllm/vllm-openai:v0.9.0\nRUN pip install x\n",
        "{context: ./srv, dockerfile: Dockerfile.gpu}",
        "    command: --model m --port 1\n",
    )
    invocation = single(found)
    assert invocation.entrypoint == "serve"
    assert invocation.image == "vllm/vllm-openai:v0.9.0"
    assert texts(invocation) == ["--model", "m", "--port", "1"]


def test_a_build_needs_a_vllm_dockerfile_and_a_command(tmp_path: Path) -> None:
    vllm = "FROM vllm/vllm-openai:v0.9.0\n"
    spec = "{context: ./srv, dockerfile: Dockerfile.gpu}"
    assert _laid_out(tmp_path, "FROM python:3.12\n", spec, "    command: --model m\n") == []
    assert _laid_out(tmp_path, vllm, spec, "") == []  # the Dockerfile's own CMD runs
    assert _laid_out(tmp_path, vllm, "./elsewhere", "    command: --model m\n") == []
    assert _laid_out(tmp_path, vllm, "https://github.com/a/b.git", "    command: --m\n") == []
    # without the file's path nothing beside it is read
    text = f"services:\n  llm:\n    build: {spec}\n    command: --model m\n"
    assert find_invocations(text) == []
