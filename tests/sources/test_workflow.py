"""The GitHub Actions source: vLLM starts in `run:` scripts, Docker steps and services,
with `${{ }}` expressions as unresolved parts of their words."""

from __future__ import annotations

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
from vllm_config_lsp.sources.invocation import Invocation, Word
from vllm_config_lsp.sources.workflow import find_invocations


def only(text: str) -> Invocation:
    return single(find_invocations(text))


def at(text: str, word: Word) -> tuple[int, int]:
    return line_column(text, word.starts[0] if word.starts else word.start)


def written(text: str, word: Word) -> str:
    return text[word.start : word.end]


def job(steps: str, extra: str = "") -> str:
    return "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n" + extra + "    steps:\n" + steps


def test_run_block_with_wrappers_and_an_expression_as_the_model() -> None:
    text = job(
        "      - name: Start\n"
        "        run: |\n"
        "          nohup hatch run -- vllm serve ${{ env.VLLM_MODEL }} \\\n"
        "            --port 8000 \\\n"
        "            --max-model-len 1024 &\n"
        '          pkill -f "vllm serve" || true\n'
    )
    invocation = only(text)
    assert invocation.source == "workflow"
    assert texts(invocation) == [
        "${{ env.VLLM_MODEL }}",
        "--port",
        "8000",
        "--max-model-len",
        "1024",
    ]
    model = invocation.args[0]
    assert model.unresolved == ("${{ env.VLLM_MODEL }}",)
    assert written(text, model) == "${{ env.VLLM_MODEL }}"
    assert line_column(text, invocation.start) == (8, 30)
    assert at(text, arg(invocation, "--max-model-len")) == (10, 13)


def test_expression_inside_a_word_and_quotes_inside_expressions() -> None:
    text = job(
        "      - run: >-\n"
        "          echo '${{ github.event_name == 'push' && 'a' || 'b' }}';\n"
        "          vllm serve m --port=${{ matrix.port }}"
        " --dtype \"${{ inputs.dtype || 'auto' }}\"\n"
    )
    invocation = only(text)
    port, dtype = invocation.args[1], invocation.args[3]
    assert port.text == "--port=${{ matrix.port }}"
    assert port.unresolved == ("${{ matrix.port }}",)
    assert dtype.text == "${{ inputs.dtype || 'auto' }}"
    assert written(text, dtype) == "\"${{ inputs.dtype || 'auto' }}\""


def test_several_servers_in_one_step_and_env_prefixes() -> None:
    text = job(
        "      - run: |\n"
        "          CUDA_VISIBLE_DEVICES=0 vllm serve a --port 8001 > a.log 2>&1 &\n"
        "          CUDA_VISIBLE_DEVICES=1 vllm serve b --port 8002 > b.log 2>&1 &\n"
    )
    found = find_invocations(text)
    assert [texts(inv) for inv in found] == [["a", "--port", "8001"], ["b", "--port", "8002"]]
    assert [line_column(text, inv.start)[0] for inv in found] == [7, 8]


def test_non_shell_steps_are_not_scripts() -> None:
    text = job(
        "      - shell: python\n        run: print('vllm serve m')\n"
        "      - shell: pwsh\n        run: vllm serve m\n"
    )
    assert find_invocations(text) == []


def test_default_shell_of_the_job_applies() -> None:
    text = job(
        "      - run: vllm serve m\n", extra="    defaults:\n      run:\n        shell: python\n"
    )
    assert find_invocations(text) == []
    text = job(
        "      - run: vllm serve m\n",
        extra="    defaults:\n      run:\n        shell: bash -el {0}\n",
    )
    assert texts(only(text)) == ["m"]


def test_job_container_is_the_image_of_its_steps() -> None:
    text = job(
        "      - run: vllm serve m\n",
        extra="    container:\n      image: vllm/vllm-openai:v0.9.2\n",
    )
    assert only(text).image == "vllm/vllm-openai:v0.9.2"
    text = job("      - run: vllm serve m\n", extra="    container: vllm/vllm-openai:v0.8.0\n")
    assert only(text).image == "vllm/vllm-openai:v0.8.0"


def test_a_vllm_service_starts_its_image_entrypoint() -> None:
    text = job(
        "      - run: curl localhost:8000/health\n",
        extra="    services:\n      llm:\n        image: vllm/vllm-openai:v0.9.1\n"
        "      db:\n        image: postgres\n",
    )
    invocation = only(text)
    assert invocation.args == []
    assert invocation.image == "vllm/vllm-openai:v0.9.1"
    assert text[invocation.start : invocation.end] == "vllm/vllm-openai:v0.9.1"


def test_docker_step_args_follow_the_image_entrypoint() -> None:
    text = job(
        "      - uses: docker://vllm/vllm-openai:v0.9.1\n"
        "        with:\n"
        '          args: "--model m --kv-transfer-config \'{\\"a\\": 1}\'"\n'
    )
    invocation = only(text)
    assert texts(invocation) == ["--model", "m", "--kv-transfer-config", '{"a": 1}']
    assert invocation.image == "vllm/vllm-openai:v0.9.1"
    assert at(text, arg(invocation, "--kv-transfer-config")) == (8, 28)


def test_docker_step_entrypoint_replaces_the_image_one() -> None:
    text = job(
        "      - uses: docker://vllm/vllm-openai:v0.9.1\n"
        "        with:\n"
        "          entrypoint: python3\n"
        "          args: -m vllm.entrypoints.openai.api_server --port 1\n"
    )
    invocation = only(text)
    assert invocation.entrypoint == "api_server"
    assert texts(invocation) == ["--port", "1"]


def test_composite_action_steps() -> None:
    text = (
        "name: serve\nruns:\n  using: composite\n  steps:\n"
        "    - shell: bash\n"
        "      run: |\n"
        "        docker run --gpus all vllm/vllm-openai:v0.9.0 --model m\n"
    )
    invocation = only(text)
    assert texts(invocation) == ["--model", "m"]
    assert invocation.image == "vllm/vllm-openai:v0.9.0"


def test_docker_action() -> None:
    text = (
        "runs:\n  using: docker\n  image: docker://vllm/vllm-openai:v0.9.0\n  args: [--model, m]\n"
    )
    invocation = only(text)
    assert texts(invocation) == ["--model", "m"]


_PIECES = st.sampled_from(
    [
        "jobs:\n",
        "  a:\n",
        "    steps:\n",
        "      - run: |\n          vllm serve ${{ env.X }} \\\n",
        "      - run: vllm serve '${{ a }}\n",
        "    services:\n      s:\n        image: vllm/vllm-openai\n",
        '      - uses: docker://vllm/vllm-openai\n        with:\n          args: "--x\n',
        "runs:\n  using: composite\n  steps:\n",
        "${{",
        "}}",
        "'",
        "[",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=10), st.text(max_size=20))
def test_never_raises_on_fragments(pieces: list[str], noise: str) -> None:
    text = "".join(pieces) + noise
    assert_words_inside(find_invocations(text), text)


# -- the corpus --------------------------------------------------------------------------


@pytest.mark.parametrize("row", row_params("github-workflow"))
def test_corpus_invocation_is_found_with_its_argv_and_flag_positions(
    row: dict[str, object],
) -> None:
    assert_row_found(find_invocations, row)


@pytest.mark.parametrize("file", file_params("github-workflow"))
def test_corpus_file_has_no_extra_invocations(file: str) -> None:
    assert_no_extra_starts(find_invocations, file, ground_truth("github-workflow"))
