"""The shell source: which commands start vLLM, and what argv (with positions) each gets."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from source_support import (
    CORPUS,
    arg,
    as_written,
    flags,
    ground_truth,
    line_column,
    single,
    texts,
)
from vllm_config_lsp.sources.invocation import Invocation, Word
from vllm_config_lsp.sources.shell import command_words, find_invocations


def only(script: str) -> Invocation:
    return single(find_invocations(script))


def written(script: str, word: Word) -> str:
    return script[word.start : word.end]


# -- finding the command ---------------------------------------------------------------


def test_plain_serve_spans_the_executable_and_lists_args_after_serve() -> None:
    script = "vllm serve Qwen/Qwen3-8B --max-model-len 4096\n"
    invocation = only(script)
    assert invocation.entrypoint == "serve"
    assert script[invocation.start : invocation.end] == "vllm"
    assert texts(invocation) == ["Qwen/Qwen3-8B", "--max-model-len", "4096"]
    assert invocation.insert_at == script.index("4096") + 4
    assert invocation.source == "shell"
    assert find_invocations(script, source="markdown")[0].source == "markdown"


def test_continuations_may_start_at_column_one() -> None:
    script = "vllm serve m \\\n--port 8000 \\\n    --tensor-parallel-size 2 \\\n--enforce-eager\n"
    invocation = only(script)
    assert texts(invocation) == [
        "m",
        "--port",
        "8000",
        "--tensor-parallel-size",
        "2",
        "--enforce-eager",
    ]
    assert line_column(script, arg(invocation, "--port").start) == (2, 1)
    assert line_column(script, arg(invocation, "--tensor-parallel-size").start) == (3, 5)
    assert line_column(script, arg(invocation, "--enforce-eager").start) == (4, 1)


@pytest.mark.parametrize(
    ("script", "exe"),
    [
        ("exec vllm serve m --port 1", "vllm"),
        ("nohup vllm serve m --port 1 &", "vllm"),
        ("env A=B C=D vllm serve m --port 1", "vllm"),
        ("time vllm serve m --port 1", "vllm"),
        ("CUDA_VISIBLE_DEVICES=0 VLLM_USE_V1=1 vllm serve m --port 1", "vllm"),
        ("exec nohup env -u X vllm serve m --port 1", "vllm"),
        ("srun -N1 -n1 --gpus=8 vllm serve m --port 1", "vllm"),
        ("srun -N1 -n1 -c56 -G8  $APPTAINER_CMD vllm serve m --port 1 &", "vllm"),
        ("singularity exec --nv img.sif vllm serve m --port 1", "vllm"),
        ("ray job submit --working-dir src --no-wait -- vllm serve m --port 1", "vllm"),
        ("hatch run -- vllm serve m --port 1", "vllm"),
        ("uv run vllm serve m --port 1", "vllm"),
        ("uv run --with vllm vllm serve m --port 1", "vllm"),
        ('"${SERVE_OFFLINE[@]}" vllm serve m --port 1', "vllm"),
        ("sudo -E timeout 600 /usr/bin/vllm serve m --port 1", "/usr/bin/vllm"),
        (".venv/bin/vllm serve m --port 1", ".venv/bin/vllm"),
        ('"$VENV/bin/vllm" serve m --port 1', '"$VENV/bin/vllm"'),
        ("! vllm serve m --port 1", "vllm"),
    ],
)
def test_wrappers_before_the_executable(script: str, exe: str) -> None:
    invocation = only(script)
    assert script[invocation.start : invocation.end] == exe
    assert texts(invocation) == ["m", "--port", "1"]
    assert invocation.entrypoint == "serve"


@pytest.mark.parametrize(
    ("script", "entrypoint"),
    [
        ("python3 -m vllm.entrypoints.openai.api_server --model m --port 1", "api_server"),
        ("python -u -m vllm.entrypoints.openai.api_server --model m --port 1", "api_server"),
        ("python3.11 -mvllm.entrypoints.openai.api_server --model m --port 1", "api_server"),
        ("python3 -m vllm.entrypoints.cli.main serve --model m --port 1", "serve"),
        ("uv run python -m vllm.entrypoints.openai.api_server --model m --port 1", "api_server"),
    ],
)
def test_python_module_entrypoints(script: str, entrypoint: str) -> None:
    invocation = only(script)
    assert invocation.entrypoint == entrypoint
    assert script[invocation.start : invocation.end].startswith("python")
    assert texts(invocation) == ["--model", "m", "--port", "1"]


@pytest.mark.parametrize(
    "tail",
    [
        "> log",
        "2>&1",
        ">log 2>&1 &",
        # the grammar splits this destination in two (`…prefill_$` and `i.txt`); one word
        "> $LOG_DIR/prefill_$i.txt 2>&1 &",
        "| tee log",
        "&",
        "; echo done",
        "&& echo ok",
        "|| exit 1",
    ],
)
def test_the_command_ends_at_redirections_and_operators(tail: str) -> None:
    invocation = only(f"vllm serve m --port 1 {tail}\n")
    assert texts(invocation) == ["m", "--port", "1"]


def test_words_after_a_redirection_are_still_arguments() -> None:
    # bash passes `--port 1` to vllm; the grammar files it as redirect destinations.
    invocation = only("vllm serve m > log --port 1 2>&1\n")
    assert texts(invocation) == ["m", "--port", "1"]


def test_a_word_the_grammar_splits_after_a_redirection_is_one_word() -> None:
    # the grammar files `$D/p_$i.txt` as two destinations, `$D/p_$` and `i.txt`
    invocation = only("vllm serve m > log --served-model-name $D/p_$i.txt --port 1\n")
    assert texts(invocation) == ["m", "--served-model-name", "$D/p_$i.txt", "--port", "1"]


@pytest.mark.parametrize(
    "script",
    [
        "X=$(vllm serve m --port 1)",
        "( cd /x && vllm serve m --port 1 )",
        "start() {\n  vllm serve m --port 1\n}\n",
        'if [ -n "$A" ]; then\n  vllm serve m --port 1\nfi\n',
        "for i in 1 2; do\n  vllm serve m --port 1 &\ndone\n",
        "while true; do vllm serve m --port 1; done",
        "yes | vllm serve m --port 1 | tee log",
        "case $1 in\n  a) vllm serve m --port 1 ;;\nesac\n",
        "echo `vllm serve m --port 1`",
    ],
)
def test_commands_nested_in_compound_statements(script: str) -> None:
    assert texts(only(script)) == ["m", "--port", "1"]


def test_several_invocations_in_document_order() -> None:
    script = "vllm serve a --port 1 &\nvllm serve b --port 2 &\nwait\n"
    assert [texts(inv)[0] for inv in find_invocations(script)] == ["a", "b"]


@pytest.mark.parametrize(
    "script",
    [
        'printf "vllm serve $MODEL --port 1\\n"',
        "echo vllm serve m --port 1",
        "# vllm serve m --port 1",
        "  # exec vllm serve m",
        'pkill -f "vllm serve"',
        "pkill -f vllm serve",
        "pgrep -f vllm serve",
        "ps aux | grep vllm serve",
        "which vllm",
        "vllm --version",
        "vllm bench serve --model m",
        "vllm chat --url x",
        "cat <<EOF\nvllm serve m --port 1\nEOF\n",
        "cat > run.sh <<'EOF'\nexec vllm serve m --port 1\nEOF\n",
        "srun echo vllm serve m",
        "$APPTAINER_CMD python3 ./testprompt.py vllm serve",
        "python3 -m vllm.entrypoints.openai.run_batch -i x",
        "docker run --rm ubuntu:22.04 ls",
        "docker pull vllm/vllm-openai:latest",
        "MSG='vllm serve m'",
        "bash run_vllm_serve.sh",
        "",
        "\n\n",
    ],
)
def test_text_that_only_mentions_vllm_is_not_an_invocation(script: str) -> None:
    assert find_invocations(script) == []


# -- arrays ---------------------------------------------------------------------------


def test_a_bash_array_literal_is_the_invocation_and_its_expansion_is_not() -> None:
    script = (
        "VLLM_CMD=(\n"
        '    vllm serve "$MODEL_PATH" --served-model-name "$MODEL"\n'
        '    "${EP_ARGS[@]}"\n'
        '    --kv-cache-dtype "fp8"\n'
        ")\n"
        "printf '%q ' \"${VLLM_CMD[@]}\"\n"
        '"${VLLM_CMD[@]}" > "$SERVER_LOG" 2>&1 &\n'
    )
    invocation = only(script)
    assert line_column(script, invocation.start) == (2, 5)
    assert texts(invocation) == [
        "$MODEL_PATH",
        "--served-model-name",
        "$MODEL",
        "${EP_ARGS[@]}",
        "--kv-cache-dtype",
        "fp8",
    ]
    assert arg(invocation, "${EP_ARGS[@]}").splat
    assert invocation.insert_at == script.index('"fp8"') + 5


def test_an_array_of_options_is_not_an_invocation() -> None:
    assert find_invocations("EP_ARGS=(--enable-expert-parallel)\nX=(vllm bench)\n") == []


# -- nested scripts ------------------------------------------------------------------


def test_sh_c_string_is_parsed_and_offsets_map_through_the_double_quotes() -> None:
    script = 'sh -c "vllm serve \\"my model\\" --kv \\"{\\\\\\"a\\\\\\": 1}\\" --p \\$Y" 2>&1\n'
    invocation = only(script)
    assert script[invocation.start : invocation.end] == "vllm"
    model = invocation.args[0]
    assert model.text == "my model"
    assert written(script, model) == '\\"my model\\"'
    assert script[model.starts[0]] == "m"
    kv = invocation.args[2]
    assert kv.text == '{"a": 1}'
    assert script[kv.starts[0]] == "{"
    # The inner `\"` was written as `\\\"` in the outer string: four characters.
    assert script[kv.starts[1] : kv.ends[1]] == '\\\\\\"'
    port = invocation.args[4]
    assert port.text == "$Y"
    assert port.unresolved == ("$Y",)
    assert script[port.starts[0] : port.ends[0]] == "\\$"


def test_bash_lc_single_quoted_script_with_several_commands() -> None:
    script = 'bash -lc \'ray start --head; vllm serve m --kv-transfer-config "{\\"a\\": 1}"\''
    invocation = only(script)
    assert texts(invocation) == ["m", "--kv-transfer-config", '{"a": 1}']
    kv = invocation.args[2]
    assert script[kv.starts[0]] == "{"
    assert script[kv.starts[1] : kv.ends[1]] == '\\"'
    assert written(script, kv) == '"{\\"a\\": 1}"'
    assert line_column(script, arg(invocation, "--kv-transfer-config").start) == (1, 42)


def test_nested_shell_after_wrappers_and_in_docker() -> None:
    script = "srun -N1 bash -c 'exec vllm serve m --port 1'\n"
    assert texts(only(script)) == ["m", "--port", "1"]
    script = 'docker run --rm --entrypoint bash vllm/vllm-openai:v0.9.1 -c "vllm serve m --port 1"'
    invocation = only(script)
    assert texts(invocation) == ["m", "--port", "1"]
    assert invocation.image == "vllm/vllm-openai:v0.9.1"
    assert script[invocation.start : invocation.end] == "vllm"


def test_eval_string_is_parsed_and_mapped_back() -> None:
    script = 'eval "exec vllm serve /mnt/models --port 8000 ${VLLM_ADDITIONAL_ARGS} $@"\n'
    invocation = only(script)
    assert script[invocation.start : invocation.end] == "vllm"
    assert texts(invocation) == ["/mnt/models", "--port", "8000", "${VLLM_ADDITIONAL_ARGS}", "$@"]
    extra = invocation.args[3]
    assert extra.splat and written(script, extra) == "${VLLM_ADDITIONAL_ARGS}"
    assert invocation.args[4].splat
    assert script[arg(invocation, "--port").start] == "-"


def test_eval_with_several_arguments_joins_them() -> None:
    script = "eval exec vllm serve m '--port 1'"
    invocation = only(script)
    assert texts(invocation) == ["m", "--port", "1"]
    assert script[arg(invocation, "--port").start] == "-"


def test_deep_nesting_stops_without_error() -> None:
    script = "vllm serve m"
    for _ in range(12):
        script = "bash -c " + _single_quote(script)
    assert find_invocations(script) == []


def _single_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def test_bash_c_quoted_with_the_single_quote_idiom() -> None:
    script = "bash -c " + _single_quote("vllm serve 'my model' --port 1")
    invocation = only(script)
    assert texts(invocation) == ["my model", "--port", "1"]
    assert script[invocation.args[0].starts[0]] == "m"


# -- docker ---------------------------------------------------------------------------


def test_docker_run_vllm_image_passes_args_to_the_entrypoint() -> None:
    script = (
        "docker run --runtime nvidia --gpus all -it -p8000:8000 \\\n"
        "    -v ~/.cache/vllm/:/root/.cache/huggingface --env HF_TOKEN=x --ipc=host \\\n"
        "    vllm/vllm-openai:v0.9.1 \\\n"
        "    --model m --port 8000\n"
    )
    invocation = only(script)
    assert invocation.entrypoint == "serve"
    assert invocation.image == "vllm/vllm-openai:v0.9.1"
    assert script[invocation.start : invocation.end] == "vllm/vllm-openai:v0.9.1"
    assert line_column(script, invocation.start) == (3, 5)
    assert texts(invocation) == ["--model", "m", "--port", "8000"]


def test_docker_image_variable_resolves_to_its_one_literal_assignment() -> None:
    script = "IMAGE=lmcache/vllm-openai:2025-05-27-v1\ndocker run --gpus all $IMAGE m --port 1\n"
    invocation = only(script)
    assert invocation.image == "lmcache/vllm-openai:2025-05-27-v1"
    assert script[invocation.start : invocation.end] == "$IMAGE"
    assert texts(invocation) == ["m", "--port", "1"]
    defaulted = 'IMAGE="${IMAGE:-vllm/vllm-openai:latest}"\npodman run "${IMAGE}" --port 1\n'
    assert only(defaulted).image == "vllm/vllm-openai:latest"


def test_docker_image_variable_assigned_twice_is_not_guessed() -> None:
    script = "IMAGE=vllm/vllm-openai:v1\nIMAGE=ubuntu\ndocker run $IMAGE --port 1\n"
    assert find_invocations(script) == []


def test_docker_run_other_image_running_vllm_as_its_command() -> None:
    script = "sudo docker run --rm -e A=1 nvcr.io/nvidia/pytorch:24.05 vllm serve m --port 1"
    invocation = only(script)
    assert invocation.image == "nvcr.io/nvidia/pytorch:24.05"
    assert script[invocation.start : invocation.end] == "vllm"
    assert texts(invocation) == ["m", "--port", "1"]


def test_docker_entrypoint_override_and_unknown_option_variables() -> None:
    script = (
        "docker run $DOCKER_OPTS --entrypoint python3 vllm/vllm-openai:v0.6.6 "
        "-m vllm.entrypoints.openai.api_server --model m"
    )
    invocation = only(script)
    assert invocation.entrypoint == "api_server"
    assert invocation.image == "vllm/vllm-openai:v0.6.6"
    assert script[invocation.start : invocation.end] == "python3"
    assert texts(invocation) == ["--model", "m"]
    script = "docker run --entrypoint=vllm -d vllm/vllm-openai:latest serve m --port 1"
    assert texts(only(script)) == ["m", "--port", "1"]


def test_docker_exec_runs_a_command() -> None:
    script = "docker exec -it -e A=1 vllm-container vllm serve m --port 1"
    assert texts(only(script)) == ["m", "--port", "1"]


# -- pinned version -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("install", "version"),
    [
        ("pip install vllm==0.8.5", "0.8.5"),
        ('pip install -U "vllm==0.9.2" --extra-index-url x', "0.9.2"),
        ("uv pip install --system vllm[audio]==0.10.1.1", "0.10.1.1"),
        ("bash -c 'python3 -m pip install vllm==0.7.3'", "0.7.3"),
    ],
)
def test_pip_install_pins_every_invocation(install: str, version: str) -> None:
    found = find_invocations(f"{install}\nvllm serve a\nvllm serve b\n")
    assert [inv.pinned_version for inv in found] == [version, version]


def test_unpinned_install_states_no_version() -> None:
    found = find_invocations("pip install vllm\npip install 'vllm>=0.8'\nvllm serve a\n")
    assert only_version(found) is None


def only_version(found: list[Invocation]) -> str | None:
    assert len(found) == 1
    return found[0].pinned_version


# -- words ----------------------------------------------------------------------------


def test_single_quoted_json_maps_each_character() -> None:
    script = "vllm serve m --kv-transfer-config '{\"a\": 1}'"
    kv = only(script).args[2]
    assert kv.text == '{"a": 1}'
    assert written(script, kv) == "'{\"a\": 1}'"
    assert kv.starts[0] == script.index("{")
    assert [script[s:e] for s, e in zip(kv.starts, kv.ends, strict=True)] == list(kv.text)
    assert kv.resolved


def test_double_quoted_json_with_escapes_and_variables() -> None:
    script = 'vllm serve m --kv "{\\"port\\":$PORT,\\"x\\":\\\\1}"'
    kv = only(script).args[2]
    assert kv.text == '{"port":$PORT,"x":\\1}'
    assert kv.unresolved == ("$PORT",)
    assert not kv.splat
    assert script[kv.starts[1] : kv.ends[1]] == '\\"'
    dollar = kv.text.index("$")
    assert script[kv.starts[dollar] : kv.ends[dollar + 4]] == "$PORT"
    backslash = kv.text.index("\\")
    assert script[kv.starts[backslash] : kv.ends[backslash]] == "\\\\"


def test_concatenated_quotes_and_unquoted_escapes() -> None:
    script = 'vllm serve m --a="x"y --b=a\\ b\\"c --c=$\'t\\tq\' --d=""'
    args = only(script).args
    assert [w.text for w in args] == ["m", "--a=xy", '--b=a b"c', "--c=t\tq", "--d="]
    a = args[1]
    assert written(script, a) == '--a="x"y'
    assert script[a.starts[4]] == "x" and script[a.starts[5]] == "y"
    b = args[2]
    space = b.text.index(" ")
    assert script[b.starts[space] : b.ends[space]] == "\\ "
    c = args[3]
    tab = c.text.index("\t")
    assert script[c.starts[tab] : c.ends[tab]] == "\\t"


def test_backslash_newline_inside_a_word_or_string_vanishes() -> None:
    script = 'vllm serve m --max-model\\\n-len 4096 --x "a\\\nb" --y=1\\\n2\n'
    args = only(script).args
    assert [w.text for w in args] == ["m", "--max-model-len", "4096", "--x", "ab", "--y=12"]
    joined = args[1]
    assert written(script, joined) == "--max-model\\\n-len"
    assert script[joined.starts[11]] == "-" and joined.starts[11] == joined.ends[10] + 2
    assert script[args[4].starts[1]] == "b"
    array = only("CMD=(vllm serve --max-model\\\n-len 1)")
    assert texts(array) == ["--max-model-len", "1"]


def test_empty_quoted_word_is_an_empty_argument() -> None:
    script = "vllm serve m --chat-template '' --x \"\""
    args = only(script).args
    assert [w.text for w in args] == ["m", "--chat-template", "", "--x", ""]
    assert written(script, args[2]) == "''"


@pytest.mark.parametrize(
    ("word", "text", "unresolved", "splat"),
    [
        ('"$TP"', "$TP", ("$TP",), False),
        ("$EXTRA_ARGS", "$EXTRA_ARGS", ("$EXTRA_ARGS",), True),
        ("${ARGS}", "${ARGS}", ("${ARGS}",), True),
        ('"$@"', "$@", ("$@",), True),
        ("$@", "$@", ("$@",), True),
        ('"${ARR[@]}"', "${ARR[@]}", ("${ARR[@]}",), True),
        ('"${@:2}"', "${@:2}", ("${@:2}",), True),
        ("$*", "$*", ("$*",), True),
        ('"$*"', "$*", ("$*",), False),
        ('"${#ARR[@]}"', "${#ARR[@]}", ("${#ARR[@]}",), False),
        ('${VAR:+--flag "$VAR"}', '${VAR:+--flag "$VAR"}', ('${VAR:+--flag "$VAR"}',), True),
        ('"${MAX_LEN:-8k}"', "${MAX_LEN:-8k}", ("${MAX_LEN:-8k}",), False),
        ("$((SLURM_NNODES * 8))", "$((SLURM_NNODES * 8))", ("$((SLURM_NNODES * 8))",), False),
        ("$(nproc)", "$(nproc)", ("$(nproc)",), True),
        ("`nproc`", "`nproc`", ("`nproc`",), True),
        ("--port=$PORT", "--port=$PORT", ("$PORT",), False),
        ('"/mnt/bb/$USER/m"', "/mnt/bb/$USER/m", ("$USER",), False),
        ('"a $A b ${B}"', "a $A b ${B}", ("$A", "${B}"), False),
        ("x", "x", (), False),
    ],
)
def test_expansions_are_kept_as_written(
    word: str, text: str, unresolved: tuple[str, ...], splat: bool
) -> None:
    script = f"vllm serve {word}\n"
    (found,) = only(script).args
    assert found.text == text
    assert found.unresolved == unresolved
    assert found.splat is splat
    assert written(script, found) == word
    for part in unresolved:
        index = found.text.index(part)
        assert script[found.starts[index] : found.ends[index + len(part) - 1]] == part


def test_offsets_count_characters_not_bytes() -> None:
    script = '# modèle 日本語 🚀\nvllm serve "modèle-🚀" --port 1\n'
    invocation = only(script)
    assert script[invocation.start : invocation.end] == "vllm"
    model = invocation.args[0]
    assert model.text == "modèle-🚀"
    assert [script[s] for s in model.starts] == list(model.text)
    assert script[arg(invocation, "--port").start :].startswith("--port")


# -- command_words --------------------------------------------------------------------


def test_command_words_splits_one_command_line() -> None:
    text = '--model $${LLM_MODEL} --kv \'{"a": 1}\' --x="y z" 2>&1 | tee log; other --flag'
    words = command_words(text)
    assert [w.text for w in words] == ["--model", "$${LLM_MODEL}", "--kv", '{"a": 1}', "--x=y z"]
    assert text[words[3].starts[0]] == "{"
    assert written(text, words[4]) == '--x="y z"'


def test_command_words_skips_a_leading_comment_and_keeps_the_quoting_name() -> None:
    text = "# the server\npython3 -m vllm.entrypoints.openai.api_server --port 1\n"
    words = command_words(text, quoting="compose")
    assert [w.text for w in words] == ["python3", "-m", _API, "--port", "1"]
    assert {w.quoting for w in words} == {"compose"}
    assert line_column(text, words[0].start) == (2, 1)


_API = "vllm.entrypoints.openai.api_server"


def test_command_words_of_conditionalflags() -> None:
    text = '--model ${MODEL_NAME:-m} ${REVISION:+--revision "$REVISION"} \\\n  --port 1'
    words = command_words(text)
    assert [w.text for w in words] == [
        "--model",
        "${MODEL_NAME:-m}",
        '${REVISION:+--revision "$REVISION"}',
        "--port",
        "1",
    ]
    assert words[2].splat
    assert line_column(text, words[3].start) == (2, 3)


def test_command_words_of_nothing() -> None:
    assert command_words("") == []
    assert command_words("# only a comment\n") == []


# -- robustness -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "script",
    [
        'vllm serve m --x "unterminated',
        "vllm serve m --x 'unterminated\n--y 1",
        "vllm serve m --x $(",
        "vllm serve m --x ${",
        "vllm serve m \\",
        'sh -c "vllm serve m --x \\"',
        "docker run",
        "docker run --entrypoint",
        "python3 -m",
        "eval",
        "bash -c",
        "X=(vllm serve",
        "$'\\x",
        "vllm serve $'\\u{41}\\777\\xZZ\\q'",
    ],
)
def test_half_typed_input_does_not_raise(script: str) -> None:
    for invocation in find_invocations(script):
        for word in invocation.args:
            assert 0 <= word.start <= word.end <= len(script)
    command_words(script)


def test_half_typed_double_quote_still_finds_the_command() -> None:
    invocation = only('vllm serve m --port 1 --x "unterminated')
    assert texts(invocation)[:3] == ["m", "--port", "1"]


@pytest.mark.parametrize("probe", ["{", "{12", "{1..", "x {..3"])
def test_brace_before_a_high_code_point_does_not_crash_the_parser(probe: str) -> None:
    # tree-sitter-bash 0.25 calls C isdigit() on the code point after these (issue 337):
    # out-of-table reads crash about every other process, so parse it many times.
    for _ in range(50):
        assert find_invocations(probe + "\U000d1b3f") == []
        assert [w.text for w in command_words("a " + probe + "\U000d1b3f b")][-1] == "b"


def test_characters_standing_in_for_the_parser_keep_their_offsets() -> None:
    script = "vllm serve {é}/{🚀 --port 1"
    invocation = only(script)
    assert texts(invocation) == ["{é}/{🚀", "--port", "1"]
    assert [script[s] for s in invocation.args[0].starts] == list("{é}/{🚀")
    assert script[arg(invocation, "--port").start :] == "--port 1"


_SHELLISH = st.text(
    alphabet=st.sampled_from(list("vllm serve-m\"'\\$(){}[]@*;|&<>\n#=`x\t日🚀")) | st.characters(),
    max_size=80,
)


@given(_SHELLISH)
def test_any_text_yields_words_inside_the_text(script: str) -> None:
    for text in (
        script,
        "vllm serve " + script,
        "bash -c " + _single_quote("vllm serve " + script),
    ):
        for invocation in find_invocations(text):
            assert 0 <= invocation.start <= invocation.end <= len(text)
            for word in invocation.args:
                _assert_inside(word, text)
        for word in command_words(text):
            _assert_inside(word, text)


def _assert_inside(word: Word, text: str) -> None:
    assert len(word.starts) == len(word.ends) == len(word.text)
    assert 0 <= word.start <= word.end <= len(text)
    for start, end in zip(word.starts, word.ends, strict=True):
        assert 0 <= start < end <= len(text)


# -- the corpus -----------------------------------------------------------------------

_SHELL_FORMATS = ("shell", "slurm")


def _corpus_files() -> list[Path]:
    return sorted(path for fmt in _SHELL_FORMATS for path in (CORPUS / "files" / fmt).iterdir())


@pytest.mark.parametrize(
    "row", ground_truth("shell", "slurm"), ids=lambda row: f"{row['file']}:{row['line']}"
)
def test_corpus_invocation_is_found_with_its_argv_and_flag_positions(
    row: dict[str, object],
) -> None:
    text = (CORPUS / "files" / str(row["file"])).read_text(encoding="utf-8")
    found = [
        inv for inv in find_invocations(text) if line_column(text, inv.start)[0] == row["line"]
    ]
    assert len(found) == 1
    (invocation,) = found
    assert as_written(invocation, text) == row["argv"]
    written = row["flags"]
    assert isinstance(written, list)
    wanted = [(f["flag"], f["line"], f["column"]) for f in written if f["line"] is not None]
    assert flags(text, invocation) == wanted


@pytest.mark.parametrize("path", _corpus_files(), ids=lambda path: path.name)
def test_corpus_file_has_no_extra_invocations(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    relative = f"{path.parent.name}/{path.name}"
    expected = sorted(
        int(str(row["line"])) for row in ground_truth("shell", "slurm") if row["file"] == relative
    )
    found = sorted(line_column(text, inv.start)[0] for inv in find_invocations(text))
    assert found == expected


def test_corpus_docker_image_is_resolved() -> None:
    name = "vllm-project__production-stack__examples__disaggregated_prefill__start_prefill.sh"
    text = (CORPUS / "files" / "shell" / name).read_text(encoding="utf-8")
    invocation = only(text)
    assert invocation.image == "lmcache/vllm-openai:2025-05-27-v1"
    assert text[invocation.start : invocation.end] == "$IMAGE"


def test_corpus_covers_both_formats() -> None:
    assert {row["format"] for row in ground_truth("shell", "slurm")} == set(_SHELL_FORMATS)
    assert len(_corpus_files()) >= len({row["file"] for row in ground_truth("shell", "slurm")})


# -- long scripts: read chunk by chunk ----------------------------------------------------

_PAD = "# a long script\n" * 600  # past the length from which scripts are read in chunks


def _both_ways(script: str, monkeypatch: pytest.MonkeyPatch) -> tuple[object, object]:
    from vllm_config_lsp.sources import shell

    whole = shell._find_invocations.__wrapped__  # type: ignore[attr-defined]
    monkeypatch.setattr(shell, "_CHUNKED_FROM", len(script) + 1)
    at_once = whole(script, "shell")
    monkeypatch.setattr(shell, "_CHUNKED_FROM", 0)
    return at_once, whole(script, "shell")


@pytest.mark.parametrize(
    "path",
    sorted((CORPUS / "files" / "shell").iterdir()) + sorted((CORPUS / "files" / "slurm").iterdir()),
    ids=lambda path: path.name[:60],
)
def test_chunks_read_a_script_as_one_parse_does(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = _PAD + "\n" + path.read_text(encoding="utf-8")
    at_once, chunked = _both_ways(script, monkeypatch)
    assert chunked == at_once
    assert at_once  # every corpus script starts vLLM
    twice = _both_ways(script + "\n" + script, monkeypatch)  # assignments across chunks
    assert twice[1] == twice[0]


@pytest.mark.parametrize(
    "middle",
    [
        "cat <<EOF\nline\n\nvllm serve x --max-num-seqs 2\nEOF\n",  # a heredoc over a blank line
        "cat <<'EOF' | tee f\nline\n\nvllm serve x\nEOF\n",
        "cat <<-EOF\n\tline\n\nvllm serve x\n\tEOF\n",
        "x=$(cat <<EOF\nline\n\nvllm serve x\nEOF\n)\n",
        "echo 'a quoted\n\nvllm serve x'\n",  # a string over a blank line
        "if true; then\n  echo\n\nvllm serve inside --port 1\nfi\n",  # a block over one
        "start() {\n  echo\n\nvllm serve in-a-function\n}\n",
    ],
)
def test_a_construct_over_a_blank_line_is_one_chunk(
    middle: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = f"{_PAD}\n{middle}\nvllm serve after --port 2\n"
    at_once, chunked = _both_ways(script, monkeypatch)
    assert chunked == at_once
    models = [inv.args[0].text for inv in find_invocations(script)]
    assert "x" not in models  # heredoc bodies and strings are data
    assert models[-1] == "after"


# -- starts the shared matcher (sources.argv) adds to the shell ------------------------------


@pytest.mark.parametrize(
    ("script", "exe", "args"),
    [
        (
            'IMAGE="public.ecr.aws/q9t5s3a7/vllm-cpu-release-repo:v0.9.2"\n'
            "docker run --ipc=host $IMAGE --model m --max-model-len 32768\n",
            "$IMAGE",
            ["--model", "m", "--max-model-len", "32768"],
        ),
        ("$PYTHON -u -m vllm.entrypoints.openai.api_server --port 1\n", "$PYTHON", ["--port", "1"]),
        ("uvx vllm@0.9.1 serve m --port 1\n", "vllm@0.9.1", ["m", "--port", "1"]),
        (
            "apptainer run --nv docker://vllm/vllm-openai:v0.9.0 --model m\n",
            "docker://vllm/vllm-openai:v0.9.0",
            ["--model", "m"],
        ),
        (
            "tini -- python3 -X dev -m vllm.entrypoints.api_server --model m\n",
            "python3",
            ["--model", "m"],
        ),
    ],
)
def test_starts_of_the_shared_matcher(script: str, exe: str, args: list[str]) -> None:
    invocation = only(script)
    assert script[invocation.start : invocation.end] == exe
    assert texts(invocation) == args


def test_a_pinned_tool_pins_the_release() -> None:
    assert only("uvx vllm@0.9.1 serve m\n").pinned_version == "0.9.1"


@pytest.mark.parametrize(
    ("script", "version"),
    [
        ("uvx --with setuptools --with 'vllm==0.8.4' vllm serve m", "0.8.4"),
        ("uv run --with=vllm==0.9.1 vllm serve m", "0.9.1"),
        ("uvx --from 'vllm[audio]==0.10.0' vllm serve m", "0.10.0"),
        ("uvx --with vllm vllm serve m", None),
        ("uvx --with 'vllm>=0.8' vllm serve m", None),
        ("uvx --with $VLLM vllm serve m", None),
    ],
)
def test_uvs_requirement_pins_the_command_it_runs(script: str, version: str | None) -> None:
    """`uvx`/`uv run` build the command's environment from `--with`/`--from`: `vllm==X`
    there is the release it runs (only that command: the environment does not outlive it)."""
    assert only(script).pinned_version == version
    assert find_invocations(f"{script}\nvllm serve other\n")[1].pinned_version is None


def test_an_interactive_shell_in_a_vllm_image_is_no_start() -> None:
    assert find_invocations("docker run -it quay.io/ascend/vllm-ascend:v0.9.0 bash\n") == []
