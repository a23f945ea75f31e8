"""The Dockerfile source: ENTRYPOINT and CMD combined as Docker combines them, per stage,
with every word at the characters that wrote it (JSON escapes and continuations included)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from source_support import CORPUS, arg, ground_truth, line_column, single, texts
from vllm_config_lsp.findings import apply_edits
from vllm_config_lsp.sources.dockerfile import built_image, find_invocations
from vllm_config_lsp.sources.invocation import Invocation


def only(text: str) -> Invocation:
    return single(find_invocations(text))


# -- exec form ---------------------------------------------------------------------------


def test_exec_entrypoint_takes_exec_cmd_as_arguments() -> None:
    text = 'FROM python:3.12\nENTRYPOINT ["vllm", "serve"]\nCMD ["--model", "Qwen/Qwen3-8B"]\n'
    invocation = only(text)
    assert invocation.source == "dockerfile"
    assert invocation.entrypoint == "serve"
    assert invocation.image == "python:3.12"
    assert text[invocation.start : invocation.end] == '"vllm"'
    assert texts(invocation) == ["--model", "Qwen/Qwen3-8B"]
    model = arg(invocation, "--model")
    assert line_column(text, model.starts[0]) == (3, 7)  # inside the JSON string
    assert text[model.start : model.end] == '"--model"'
    assert invocation.insert_at == text.index('"Qwen/Qwen3-8B"') + len('"Qwen/Qwen3-8B"')


def test_exec_entrypoint_python_module_is_the_api_server() -> None:
    text = 'FROM x\nENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]\n'
    invocation = only(text)
    assert invocation.entrypoint == "api_server"
    assert invocation.args == []
    assert text[invocation.start : invocation.end] == '"python3"'


def test_init_wrapper_and_cli_main_module() -> None:
    text = (
        'FROM x\nENTRYPOINT ["/usr/bin/tini", "--", "python", "-m", '
        '"vllm.entrypoints.cli.main", "serve", "m"]\n'
    )
    invocation = only(text)
    assert invocation.entrypoint == "serve"
    assert texts(invocation) == ["m"]


def test_json_escapes_map_to_the_text_that_wrote_them() -> None:
    text = 'FROM x\nCMD ["vllm", "serve", "m", "--chat-template", "a\\"b\\u00e9c", "--x"]\n'
    invocation = only(text)
    value = invocation.args[2]
    assert value.text == 'a"béc'
    assert text[value.starts[1] : value.ends[1]] == '\\"'
    assert text[value.starts[3] : value.ends[3]] == "\\u00e9"
    assert text[value.starts[4] : value.ends[4]] == "c"


def test_exec_cmd_continued_over_lines() -> None:
    text = 'FROM vllm/vllm-openai:v0.9.1\nCMD ["--model", "m", \\\n     "--port", "8000"]\n'
    invocation = only(text)
    assert texts(invocation) == ["--model", "m", "--port", "8000"]
    assert line_column(text, arg(invocation, "--port").starts[0]) == (3, 7)


@pytest.mark.parametrize(
    ("written", "fixed"),
    [
        ("CMD ['vllm', 'serve', 'm']", 'CMD ["vllm", "serve", "m"]'),
        ('CMD ["vllm", "serve", "m",]', 'CMD ["vllm", "serve", "m"]'),
        ('CMD ["vllm", "serve". "m"]', 'CMD ["vllm", "serve", "m"]'),
        ('CMD ["vllm" "serve", "m"]', 'CMD ["vllm", "serve", "m"]'),
    ],
)
def test_invalid_json_is_shell_form_as_docker_reads_it(written: str, fixed: str) -> None:
    """Docker runs `/bin/sh -c '[…]'`: vLLM never starts. The start its author meant is
    read with the break (issue 28 item 9), whose repair is the JSON Docker runs as exec
    form."""
    text = f"FROM x\n{written}\n"
    invocation = only(text)
    assert texts(invocation) == ["m"]
    (broken,) = invocation.breaks
    assert broken.fatal and "/bin/sh -c" in broken.runs and "command `[vllm" in broken.runs
    repaired = apply_edits(text, broken.edits)
    assert repaired == f"FROM x\n{fixed}\n"
    assert only(repaired).breaks == ()


def test_a_bracketed_text_that_is_no_list_of_strings_stays_shell_form() -> None:
    assert find_invocations("FROM x\nCMD [[[\n") == []
    assert find_invocations('FROM x\nCMD ["vllm", serve, "m"]\n') == []


def test_exec_shell_c_runs_its_string_as_a_script() -> None:
    text = (
        'FROM x\nENTRYPOINT ["/bin/bash", "-lc", "ray start --head && vllm serve m --port 8000"]\n'
    )
    invocation = only(text)
    assert texts(invocation) == ["m", "--port", "8000"]
    port = arg(invocation, "--port")
    assert text[port.start : port.end] == "--port"
    assert text[invocation.start : invocation.end] == "vllm"


# -- the vllm-openai image ------------------------------------------------------------------


def test_vllm_image_with_only_cmd_serves_with_those_arguments() -> None:
    text = 'FROM vllm/vllm-openai:v0.8.5\nCMD ["--model", "m", "--max-model-len", "8192"]\n'
    invocation = only(text)
    assert invocation.entrypoint == "serve"
    assert invocation.image == "vllm/vllm-openai:v0.8.5"
    # the flags' home is the CMD: the start spans its first item, not the FROM line
    assert text[invocation.start : invocation.end] == '"--model"'
    assert texts(invocation) == ["--model", "m", "--max-model-len", "8192"]


def test_vllm_image_alone_is_a_start_without_arguments_in_the_final_stage() -> None:
    invocation = only("FROM vllm/vllm-openai:latest\nRUN pip install foo\n")
    assert invocation.args == []
    assert find_invocations("FROM vllm/vllm-openai:latest AS a\nFROM python:3.12\n") == []


def test_vllm_image_with_shell_cmd_takes_its_words() -> None:
    text = "FROM docker.io/vllm/vllm-openai:v0.10.0\nCMD --model m --port 8000\n"
    invocation = only(text)
    assert texts(invocation) == ["--model", "m", "--port", "8000"]
    assert line_column(text, arg(invocation, "--port").start) == (2, 15)


def test_vllm_entrypoint_with_shell_cmd_takes_its_words() -> None:
    text = 'FROM x\nENTRYPOINT ["vllm", "serve"]\nCMD --model m \\\n    --port 8000\n'
    invocation = only(text)
    assert texts(invocation) == ["--model", "m", "--port", "8000"]
    assert line_column(text, arg(invocation, "--port").start) == (4, 5)


def test_global_arg_defaults_fill_the_image() -> None:
    text = 'ARG TAG=v0.9.0\nARG REPO="vllm/vllm-openai"\nFROM ${REPO}:$TAG\nCMD ["--model", "m"]\n'
    assert only(text).image == "vllm/vllm-openai:v0.9.0"
    unknown = 'FROM vllm/vllm-openai:${TAG}\nCMD ["--model", "m"]\n'
    assert only(unknown).image == "vllm/vllm-openai:${TAG}"


def test_one_arg_line_declares_several_defaults() -> None:
    text = 'ARG REPO=vllm/vllm-openai TAG="v0.9.0"\nFROM $REPO:${TAG}\nCMD ["--model", "m"]\n'
    assert only(text).image == "vllm/vllm-openai:v0.9.0"


# -- shell form ----------------------------------------------------------------------------


def test_shell_entrypoint_with_continuations_and_comment_lines() -> None:
    text = (
        "FROM vllm/vllm-openai:latest\n"
        "ENTRYPOINT python3 -m vllm.entrypoints.openai.api_server \\\n"
        "# the model\n"
        "    --model ${MODEL_NAME:-m} \\\n"
        '    ${REVISION:+--revision "$REVISION"}\n'
        'CMD ["--ignored"]\n'
    )
    invocation = only(text)
    assert invocation.entrypoint == "api_server"
    assert invocation.image == "vllm/vllm-openai:latest"
    assert texts(invocation) == [
        "--model",
        "${MODEL_NAME:-m}",
        '${REVISION:+--revision "$REVISION"}',
    ]
    assert line_column(text, arg(invocation, "--model").start) == (4, 5)
    conditional = invocation.args[2]
    assert conditional.splat
    assert line_column(text, conditional.starts[conditional.text.index("--revision")]) == (5, 17)


def test_continued_quoted_value_is_joined_as_docker_joins_it() -> None:
    text = "FROM x\nENTRYPOINT vllm serve m --kv-transfer-config '{\"a\": \\\n1}'\n"
    value = only(text).args[-1]
    assert value.text == '{"a": 1}'
    assert text[value.starts[-1]] == "}"


def test_last_entrypoint_and_cmd_of_a_stage_win() -> None:
    text = (
        "FROM x\n"
        'ENTRYPOINT ["vllm", "serve", "old"]\n'
        'CMD ["--port", "1"]\n'
        'ENTRYPOINT ["vllm", "serve", "new"]\n'
        'CMD ["--port", "2"]\n'
    )
    assert texts(only(text)) == ["new", "--port", "2"]


def test_stages_inherit_and_entrypoint_drops_the_inherited_cmd() -> None:
    text = (
        "FROM vllm/vllm-openai:v0.9.0 AS base\n"
        'CMD ["--model", "a"]\n'
        "FROM base AS child\n"
        'CMD ["--model", "b"]\n'
        "FROM base\n"
        'ENTRYPOINT ["vllm", "serve", "c"]\n'
    )
    found = find_invocations(text)
    assert sorted(texts(inv)[-1] for inv in found) == ["a", "b", "c"]
    assert {inv.image for inv in found} == {"vllm/vllm-openai:v0.9.0"}
    (child,) = [inv for inv in found if texts(inv) == ["c"]]
    assert child.args[0].text == "c"  # no "--model a" inherited after ENTRYPOINT


def test_onbuild_and_healthcheck_commands_are_not_the_container_command() -> None:
    text = 'FROM x\nONBUILD CMD ["vllm", "serve", "m"]\nHEALTHCHECK CMD vllm serve m\n'
    assert find_invocations(text) == []


def test_comment_lines_after_a_trailing_continuation_are_not_words() -> None:
    text = "FROM x\nENTRYPOINT vllm serve m \\\n    --port 8000 \\\n# done\n# really\n"
    invocation = only(text)
    assert texts(invocation) == ["m", "--port", "8000"]
    assert text[: invocation.args[-1].end].endswith("--port 8000")


def test_continuation_between_unquoted_flags_keeps_the_instruction() -> None:
    text = (
        "FROM vllm/vllm-openai:latest\n"
        "ENTRYPOINT vllm serve m \\\n--max-model-len 4096 \\\n--port 8000\n"
    )
    invocation = only(text)
    assert texts(invocation) == ["m", "--max-model-len", "4096", "--port", "8000"]
    assert line_column(text, arg(invocation, "--port").start) == (4, 1)


def test_trailing_continuation_at_the_end_of_the_file_is_recovered() -> None:
    text = "FROM vllm/vllm-openai:latest\nENTRYPOINT vllm serve m \\\n    --port 8000 \\\n\n"
    assert texts(only(text)) == ["m", "--port", "8000"]


def test_non_ascii_offsets_are_characters() -> None:
    text = '# é 部署\nFROM x\nLABEL a="é"\nENTRYPOINT ["vllm", "serve", "é", "--port", "1"]\n'
    invocation = only(text)
    port = arg(invocation, "--port")
    assert text[port.starts[0] : port.ends[-1]] == "--port"
    assert arg(invocation, "é").starts == (text.index('"é", "--') + 1,)


# -- robustness --------------------------------------------------------------------------

_DOCKERISH = st.text(
    alphabet=st.sampled_from(list("FROMCDENTRYPIAGS []\",\\\n\t#${}:-='abvlmsre0é\0")),
    max_size=300,
)


@given(_DOCKERISH)
def test_any_text_yields_positions_inside_the_text(body: str) -> None:
    for text in (body, "FROM vllm/vllm-openai\nCMD " + body, 'ENTRYPOINT ["vllm", "serve"' + body):
        for invocation in find_invocations(text):
            assert 0 <= invocation.start <= invocation.end <= len(text)
            for word in invocation.args:
                assert len(word.starts) == len(word.ends) == len(word.text)
                assert 0 <= word.start <= word.end <= len(text)
                for start, end in zip(word.starts, word.ends, strict=True):
                    assert 0 <= start <= end <= len(text)


def test_time_grows_linearly() -> None:
    stage = 'FROM vllm/vllm-openai:latest AS s\nCMD ["--model", "m", \\\n  "--port", "1"]\n'

    def timed(count: int) -> float:
        start = time.perf_counter()
        find_invocations(stage * count + "FROM s\n")
        return time.perf_counter() - start

    small, large = timed(100), timed(800)
    assert large < 30 * small + 1.0


# -- the corpus --------------------------------------------------------------------------


_FLAG = re.compile(r"(?<![\w-])--?[A-Za-z][\w.-]*")


def _flags(text: str, invocation: Invocation) -> list[tuple[str, int, int]]:
    """Flags as the ground truth lists them (name, 1-based line/column of the first `-`),
    including those inside `${VAR:+--flag ...}`, which the ground truth marks conditional."""
    flags: list[tuple[str, int, int]] = []
    for word in invocation.args:
        if word.text.startswith("-") and len(word.text) > 1 and not word.splat:
            flags.append((word.text.split("=", 1)[0], *line_column(text, word.starts[0])))
        elif word.splat and ":+" in word.text:
            for match in _FLAG.finditer(word.text):
                flags.append((match.group(0), *line_column(text, word.starts[match.start()])))
    return flags


@pytest.mark.parametrize(
    "row", ground_truth("dockerfile"), ids=lambda row: f"{row['file']}:{row['line']}"
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
    assert texts(invocation) == row["argv"]
    expected = [(f["flag"], f["line"], f["column"]) for f in row["flags"] if f["line"] is not None]
    assert _flags(text, invocation) == expected


@pytest.mark.parametrize(
    "path", sorted((CORPUS / "files" / "dockerfile").iterdir()), ids=lambda path: path.name
)
def test_corpus_file_has_no_extra_invocations(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    relative = f"dockerfile/{path.name}"
    expected = sorted(row["line"] for row in ground_truth("dockerfile") if row["file"] == relative)
    found = sorted(line_column(text, inv.start)[0] for inv in find_invocations(text))
    assert found == expected


def test_corpus_images() -> None:
    files = CORPUS / "files" / "dockerfile"
    koyeb = (files / "koyeb__example-vllm__Dockerfile").read_text(encoding="utf-8")
    assert only(koyeb).image == "vllm/vllm-openai:latest"
    llm_d = (files / "llm-d__llm-d__Dockerfile").read_text(encoding="utf-8")
    assert only(llm_d).image == "nvcr.io/nvidia/cuda:12.8.1-devel-ubuntu24.04"


def test_interpreter_options_before_the_module() -> None:
    text = (
        "FROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n"
        'CMD ["python3", "-u", "-m", "vllm.entrypoints.openai.api_server", "--model", "m"]\n'
    )
    invocation = only(text)
    assert invocation.entrypoint == "api_server"
    assert text[invocation.start : invocation.end] == '"python3"'
    assert texts(invocation) == ["--model", "m"]


def test_the_older_api_server_module_takes_engine_arguments() -> None:
    text = (
        'FROM x\nENTRYPOINT ["python", "-u", "-m", "vllm.entrypoints.api_server"]\n'
        'CMD ["--model", "m"]\n'
    )
    invocation = only(text)
    assert invocation.entrypoint == "api_server"
    assert texts(invocation) == ["--model", "m"]


def test_exec_cmd_one_item_per_continued_line_starts_at_its_first_item() -> None:
    text = (
        "FROM vllm/vllm-openai:latest\n"
        "CMD [ \\\n"
        '  "--model", \\\n'
        '  "Qwen/Qwen3-8B", \\\n'
        '  "--port", \\\n'
        '  "8000" \\\n'
        "]\n"
    )
    invocation = only(text)
    assert line_column(text, invocation.start) == (3, 3)
    assert texts(invocation) == ["--model", "Qwen/Qwen3-8B", "--port", "8000"]
    assert line_column(text, arg(invocation, "8000").start) == (6, 3)


def test_an_old_image_tag_runs_the_api_server() -> None:
    invocation = only('FROM vllm/vllm-openai:v0.6.3\nCMD ["--model", "m"]\n')
    assert invocation.entrypoint == "api_server"


def test_a_third_party_vllm_base_image_runs_its_entrypoint() -> None:
    invocation = only('FROM rocm/vllm:latest\nCMD ["--model", "m"]\n')
    assert texts(invocation) == ["--model", "m"]
    assert find_invocations('FROM vllm/vllm-router:latest\nCMD ["--port", "1"]\n') == []


def test_built_image_says_what_a_container_of_it_runs() -> None:
    assert built_image("FROM vllm/vllm-openai:v0.9.0\nRUN pip install x\n") == (
        "vllm/vllm-openai:v0.9.0",
        "serve",
    )
    exec_form = 'FROM x\nENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"]\n'
    assert built_image(exec_form) == ("x", "api_server")
    assert built_image("FROM vllm/vllm-openai\nENTRYPOINT vllm serve m\n") is None
    assert built_image('FROM python:3.12\nCMD ["vllm", "serve", "m"]\n') is None
    assert built_image("") is None
