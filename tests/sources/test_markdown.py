"""The Markdown source: only code blocks are commands, and every word lands where it is
written in the document (list items, quotes, mkdocs tabs and prompts included)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from source_support import (
    CORPUS,
    arg,
    as_written,
    flags,
    generated_texts,
    ground_truth,
    line_column,
    single,
    texts,
    written_texts,
)
from vllm_config_lsp.sources.invocation import Invocation, Word
from vllm_config_lsp.sources.markdown import YAML_LANGUAGES, code_blocks, find_invocations
from vllm_config_lsp.sources.shell import command_words


def only(text: str) -> Invocation:
    return single(find_invocations(text))


def assert_written(text: str, word: Word) -> None:
    """Every character of a plain word maps to that very character of the document."""
    for char, start, end in zip(word.text, word.starts, word.ends, strict=True):
        assert text[start:end] == char


# -- which text is a command -----------------------------------------------------------


def test_bash_fence_is_a_command_with_document_positions() -> None:
    text = "# Run\n\n```bash\nvllm serve Qwen/Qwen3-8B \\\n  --max-model-len 4096\n```\n"
    invocation = only(text)
    assert invocation.source == "markdown"
    assert invocation.entrypoint == "serve"
    assert text[invocation.start : invocation.end] == "vllm"
    assert texts(invocation) == ["Qwen/Qwen3-8B", "--max-model-len", "4096"]
    assert line_column(text, arg(invocation, "--max-model-len").start) == (5, 3)
    assert invocation.insert_at == text.index("4096") + 4
    for word in invocation.args:
        assert_written(text, word)


def test_prose_and_inline_code_are_not_commands() -> None:
    text = (
        "Add `--compilation_config.cudagraph_mode=PIECEWISE` to the startup parameters,\n"
        "or run `vllm serve Qwen/Qwen3-8B --enforce-eager` yourself.\n\n"
        "vllm serve Qwen/Qwen3-8B --port 8000\n"
    )
    assert find_invocations(text) == []


@pytest.mark.parametrize("info", ["", "sh", "shell", "console", "zsh", "text", "Bash", "{.bash}"])
def test_shell_like_and_untagged_fences_hold_commands(info: str) -> None:
    text = f"```{info}\nvllm serve m --port 1\n```\n"
    assert texts(only(text)) == ["m", "--port", "1"]


@pytest.mark.parametrize("info", ["python", "json", "dockerfile", "bibtex", "yaml", "yml"])
def test_other_languages_are_not_shell(info: str) -> None:
    text = f"```{info}\nvllm serve m --port 1\n```\n"
    assert find_invocations(text) == []


def test_indented_code_block_is_untagged_code() -> None:
    text = "Run:\n\n    vllm serve m \\\n      --port 8000\n\nDone.\n"
    invocation = only(text)
    assert line_column(text, arg(invocation, "--port").start) == (4, 7)


def test_tilde_fence_and_unclosed_fence() -> None:
    assert texts(only("~~~bash\nvllm serve m\n~~~\n")) == ["m"]
    text = "text\n\n```bash\nvllm serve m --port 1\n"
    assert line_column(text, arg(only(text), "--port").start) == (4, 14)


def test_doc_placeholders_are_still_invocations() -> None:
    text = "```bash\nvllm serve ... --tool-call-parser hermes --enable-auto-tool-choice\n```\n"
    assert texts(only(text))[0] == "..."


# -- where the block's text sits -----------------------------------------------------------


def test_fence_in_a_list_item_maps_columns_past_the_item_indentation() -> None:
    text = (
        "1. Start the server:\n\n"
        "    ```shell\n"
        "    vllm serve m \\\n"
        "      --port 8000 \\\n"
        "      --kv-transfer-config \\\n"
        '      \'{"kv_role": "kv_producer",\n'
        '      "kv_port": "30000"}\'\n'
        "    ```\n"
    )
    invocation = only(text)
    assert line_column(text, invocation.start) == (4, 5)
    assert line_column(text, arg(invocation, "--port").start) == (5, 7)
    assert line_column(text, arg(invocation, "--kv-transfer-config").start) == (6, 7)
    value = invocation.args[-1]
    # The list indentation is not part of what the reader copies; the rest is kept.
    assert value.text == '{"kv_role": "kv_producer",\n  "kv_port": "30000"}'
    assert line_column(text, value.starts[value.text.index('"kv_port"')]) == (8, 7)


def test_fence_in_a_block_quote() -> None:
    text = "> Note:\n>\n> ```bash\n> vllm serve m --port 1\n> ```\n"
    invocation = only(text)
    assert line_column(text, arg(invocation, "--port").start) == (4, 16)
    assert_written(text, arg(invocation, "--port"))


def test_mkdocs_tabs_with_nested_tabs_and_eight_space_fences() -> None:
    text = (
        '=== "Atlas A3"\n'
        "\n"
        "    The examples need `--quantization ascend`.\n"
        "\n"
        '    === "w8a8"\n'
        "\n"
        "        ```bash\n"
        "        export MODEL_PATH=x\n"
        "        vllm serve $MODEL_PATH \\\n"
        "            --host 0.0.0.0 \\\n"
        '            --speculative-config \'{"method": "mtp"}\'\n'
        "        ```\n"
        "\n"
        "    - `--max-model-len` is the context length.\n"
        "\n"
        '=== "Atlas 300I"\n'
        "\n"
        "    ```bash\n"
        "    vllm serve y --port 1\n"
        "    ```\n"
    )
    first, second = find_invocations(text)
    assert line_column(text, first.start) == (9, 9)
    assert line_column(text, arg(first, "--host").start) == (10, 13)
    spec = arg(first, '{"method": "mtp"}')
    assert line_column(text, spec.starts[0]) == (11, 35)
    assert_written(text, spec)
    assert texts(second) == ["y", "--port", "1"]
    assert line_column(text, arg(second, "--port").start) == (19, 18)


def test_admonition_prose_is_not_a_command() -> None:
    text = "!!! note\n\n    vllm serve is not supported on Atlas 300I DUO.\n"
    assert find_invocations(text) == []
    # Without the marker the same indentation is an indented code block.
    assert len(find_invocations("Text.\n\n    vllm serve m\n")) == 1


def test_myst_code_block_and_admonition_directives() -> None:
    text = (
        "```{code-block} bash\nvllm serve a --port 1\n```\n\n"
        "````{note}\nRun:\n\n```bash\nvllm serve b --port 2\n```\n````\n\n"
        "```{eval-rst}\nvllm serve c\n```\n"
    )
    found = find_invocations(text)
    assert [texts(inv)[0] for inv in found] == ["a", "b"]
    assert line_column(text, arg(found[1], "--port").start) == (9, 14)


def test_tab_indentation_in_a_list_item_maps_to_the_tab() -> None:
    text = "- item\n\n  ```bash\n  vllm serve m \\\n  \t--port 1\n  ```\n"
    invocation = only(text)
    port = arg(invocation, "--port")
    assert line_column(text, port.start) == (5, 4)
    assert_written(text, port)


def test_crlf_documents_keep_offsets() -> None:
    text = "Intro\r\n\r\n```bash\r\nvllm serve m \\\r\n  --port 8000\r\n```\r\n"
    invocation = only(text)
    port = arg(invocation, "--port")
    assert text[port.start : port.end] == "--port"
    assert text[invocation.start : invocation.end] == "vllm"


def test_non_ascii_text_before_the_block() -> None:
    text = "# 部署 ≤ 16 GPUs 🚀\n\n```bash\nvllm serve m --port 1\n```\n"
    port = arg(only(text), "--port")
    assert text[port.start : port.end] == "--port"


# -- transcripts -------------------------------------------------------------------------


def test_console_prompts_are_removed_and_output_is_not_a_command() -> None:
    text = (
        "```console\n"
        "$ vllm serve m \\\n"
        ">   --port 8000\n"
        "INFO: vllm serve started with --port 8000\n"
        "$ curl localhost:8000/v1/models\n"
        "```\n"
    )
    invocation = only(text)
    assert texts(invocation) == ["m", "--port", "8000"]
    assert line_column(text, invocation.start) == (2, 3)
    assert line_column(text, arg(invocation, "--port").start) == (3, 5)


def test_dollar_prompts_in_a_shell_block() -> None:
    text = "```shell\n$ dstack apply -f service.yml\n$ vllm serve m --port 1\n```\n"
    invocation = only(text)
    assert line_column(text, arg(invocation, "--port").start) == (3, 16)


def test_unprompted_continuation_lines_belong_to_the_command() -> None:
    text = "```console\n$ vllm serve m \\\n  --port 1\nstarting...\n```\n"
    assert texts(only(text)) == ["m", "--port", "1"]


# -- YAML blocks -------------------------------------------------------------------------


def test_yaml_block_mapping_is_exposed_for_the_yaml_hosts() -> None:
    text = (
        '=== "NVIDIA"\n\n'
        "    ```yaml\n"
        "    commands:\n"
        "      - |\n"
        "        vllm serve Qwen/Qwen3.6-27B \\\n"
        "          --host 0.0.0.0\n"
        "    ```\n"
    )
    # `commands:` without a dstack run `type:` is no host's: nothing is read from it.
    assert find_invocations(text) == []
    (block,) = [block for block in code_blocks(text) if block.language in YAML_LANGUAGES]
    assert block.line == 3
    offset = block.text.index("--host")
    assert line_column(text, block.to_document(offset)) == (7, 11)
    assert text[block.to_document(offset) : block.end_to_document(offset + 6)] == "--host"
    # A YAML host finds words in `block.text` and moves them with `relocate`.
    host = command_words(block.text[offset:])[0]
    moved = block.relocate(host.shifted(lambda position: position + offset))
    assert text[moved.start : moved.end] == "--host"


def test_dstack_service_in_an_mkdocs_tab_is_read_as_shell_commands() -> None:
    text = (
        '=== "NVIDIA"\n\n'
        "    ```yaml\n"
        "    type: service\n"
        "    image: vllm/vllm-openai:v0.19.1\n"
        "    commands:\n"
        "      - pip install vllm==0.9.2\n"
        "      - |\n"
        "        vllm serve Qwen/Qwen3.6-27B \\\n"
        "          --host 0.0.0.0 \\\n"
        "          --tensor-parallel-size $DSTACK_GPUS_NUM\n"
        "    port: 8000\n"
        "    ```\n"
    )
    invocation = only(text)
    assert invocation.source == "markdown"
    assert line_column(text, invocation.start) == (9, 9)
    assert text[invocation.start : invocation.end] == "vllm"
    assert texts(invocation) == [
        "Qwen/Qwen3.6-27B",
        "--host",
        "0.0.0.0",
        "--tensor-parallel-size",
        "$DSTACK_GPUS_NUM",
    ]
    assert line_column(text, arg(invocation, "--host").start) == (10, 11)
    assert not arg(invocation, "$DSTACK_GPUS_NUM").resolved
    for word in invocation.args:
        assert_written(text, word)
    assert invocation.image == "vllm/vllm-openai:v0.19.1"
    # The items run in one session: the earlier `pip install` pins the release.
    assert invocation.pinned_version == "0.9.2"
    assert invocation.insert_at == text.index("$DSTACK_GPUS_NUM") + len("$DSTACK_GPUS_NUM")


def test_kubernetes_manifest_in_a_list_item_maps_through_the_item_indentation() -> None:
    text = (
        "1. Apply:\n\n"
        "   ```yaml\n"
        "   apiVersion: apps/v1\n"
        "   kind: Deployment\n"
        "   spec:\n"
        "     template:\n"
        "       spec:\n"
        "         containers:\n"
        "           - name: vllm\n"
        "             image: vllm/vllm-openai:v0.8.5\n"
        "             args:\n"
        '               - "--model=m"\n'
        "               - --max-model-len\n"
        "               - '4096'\n"
        "   ```\n"
    )
    invocation = only(text)
    assert invocation.source == "markdown"
    assert invocation.image == "vllm/vllm-openai:v0.8.5"
    assert texts(invocation) == ["--model=m", "--max-model-len", "4096"]
    model = arg(invocation, "--model=m")
    assert text[model.start : model.end] == '"--model=m"'
    assert_written(text, model)
    assert line_column(text, arg(invocation, "--max-model-len").start) == (14, 18)
    assert text[arg(invocation, "4096").start : arg(invocation, "4096").end] == "'4096'"


def test_kubeai_model_snippet_generated_flags_have_no_text() -> None:
    text = (
        "```yaml\n"
        "kind: Model\n"
        "spec:\n"
        "  url: hf://org/model\n"
        "  engine: VLLM\n"
        "  args:\n"
        "  - --chat-template=/config/t.jinja\n"
        "```\n"
    )
    invocation = only(text)
    assert written_texts(invocation) == ["--chat-template=/config/t.jinja"]
    # what the controller writes: the snippet names no Model, so its name is unknown
    assert generated_texts(invocation) == ["--model=org/model", "--served-model-name=$(NAME)"]
    assert not invocation.args[1].resolved
    assert line_column(text, invocation.start) == (7, 5)
    # without a `url` (an elided snippet) there is nothing to say of the model
    assert generated_texts(only(text.replace("  url: hf://org/model\n", ""))) == []


def test_compose_and_workflow_blocks() -> None:
    text = (
        "```yml\n"
        "services:\n"
        "  vllm:\n"
        "    image: vllm/vllm-openai:latest\n"
        "    command: --model m --port 8000\n"
        "```\n\n"
        "```yaml\n"
        "on: push\n"
        "jobs:\n"
        "  serve:\n"
        "    runs-on: gpu\n"
        "    steps:\n"
        "      - run: vllm serve m2 --port ${{ inputs.port }}\n"
        "```\n"
    )
    compose_start, workflow_start = find_invocations(text)
    assert texts(compose_start) == ["--model", "m", "--port", "8000"]
    assert line_column(text, arg(compose_start, "--port").start) == (5, 24)
    assert texts(workflow_start) == ["m2", "--port", "${{ inputs.port }}"]
    assert line_column(text, workflow_start.start) == (14, 14)
    assert not workflow_start.args[-1].resolved
    assert {compose_start.source, workflow_start.source} == {"markdown"}


def test_untagged_fence_holding_a_manifest_is_yaml_not_shell() -> None:
    text = (
        "```\n"
        "kind: Pod\n"
        "spec:\n"
        "  containers:\n"
        "  - image: vllm/vllm-openai:v0.8.5\n"
        '    command: ["vllm", "serve", "m", "--port", "1"]\n'
        "```\n"
    )
    invocation = only(text)
    assert texts(invocation) == ["m", "--port", "1"]
    assert line_column(text, invocation.start) == (6, 15)
    # A shell block that merely mentions such a key stays shell.
    shell_text = "```\nkind: not yaml [\nvllm serve m --port 1\n```\n"
    assert texts(only(shell_text)) == ["m", "--port", "1"]


def test_yaml_block_with_tab_and_crlf_line_breaks() -> None:
    text = (
        "- item\r\n\r\n"
        "\t```yaml\r\n"
        "\ttype: task\r\n"
        "\tcommands:\r\n"
        "\t- vllm serve m \\\r\n"
        "\t    --port 1\r\n"
        "\t```\r\n"
    )
    invocation = only(text)
    port = arg(invocation, "--port")
    assert text[port.start : port.end] == "--port"
    assert_written(text, port)
    assert text[invocation.start : invocation.end] == "vllm"


def test_yaml_blocks_of_other_data_hold_no_commands() -> None:
    text = "```yaml\nmodel: m\nmax-model-len: 4096\nnote: vllm serve m --port 1\n```\n"
    assert find_invocations(text) == []


# -- robustness --------------------------------------------------------------------------

_MARKDOWNISH = st.text(
    alphabet=st.sampled_from(list("`~ \t\n\r>-=*!?$#{}[]()'\"\\|&;:.0123456789abvlmsrevxyz\0é")),
    max_size=300,
)


@given(_MARKDOWNISH)
def test_any_text_yields_positions_inside_the_text(body: str) -> None:
    for text in (body, "```bash\nvllm serve " + body, "- x\n\n  ```\n  vllm serve " + body):
        for invocation in find_invocations(text):
            assert 0 <= invocation.start <= invocation.end <= len(text)
            for word in invocation.args:
                assert len(word.starts) == len(word.ends) == len(word.text)
                assert 0 <= word.start <= word.end <= len(text)
                for start, end in zip(word.starts, word.ends, strict=True):
                    assert 0 <= start < end <= len(text)


@pytest.mark.parametrize(
    "text",
    [
        "> " * 5000 + "```bash\nvllm serve m\n```\n",
        "- " * 5000 + "\n    vllm serve m\n",
        '=== "a"\n\n' + "".join("    " * depth + '=== "a"\n\n' for depth in range(1, 40)),
        "```" * 10000,
        "\0" * 1000,
        "",
    ],
)
def test_pathological_documents_do_not_raise(text: str) -> None:
    find_invocations(text)


def test_time_grows_linearly() -> None:
    block = "Text `--x`.\n\n```bash\nvllm serve m \\\n  --port 8000\n```\n\n"

    def timed(count: int) -> float:
        start = time.perf_counter()
        assert len(find_invocations(block * count)) == count
        return time.perf_counter() - start

    small, large = timed(200), timed(1600)
    assert large < 30 * small + 1.0


# -- the corpus --------------------------------------------------------------------------


def _in_yaml_block(row: dict[str, Any]) -> bool:
    """The invocation sits in a ```yaml block (a dstack service, a KubeAI Model CR): a YAML
    host reads it, through the block's line map."""
    text = (CORPUS / "files" / row["file"]).read_text(encoding="utf-8")
    return any(
        block.language in YAML_LANGUAGES
        and block.line + 1 <= row["line"] <= block.line + block.text.count("\n")
        for block in code_blocks(text)
    )


#: The ground truth puts these KubeAI Model invocations on their `args:` key; the Kubernetes
#: source starts a KubeAI Model at its first argument (its command is not in the file), as
#: the rows of the same CRs in cr/ and helm-values/ record it.
_START_LINE = {
    ("markdown/substratusai__kubeai__docs__how-to__configure-text-generation-models.md", 59): 60,
    ("markdown/substratusai__kubeai__docs__how-to__configure-text-generation-models.md", 75): 76,
}


def _start_line(row: dict[str, Any]) -> int:
    line = row["line"]
    assert isinstance(line, int)
    return _START_LINE.get((row["file"], line), line)


def _written_argv(row: dict[str, Any]) -> list[str]:
    """The argv without the flags an operator generates (KubeAI's `--model=<url>` and
    `--served-model-name=<name>`): they have no text in the file, so no words."""
    generated = {flag["flag"] for flag in row["flags"] if flag.get("generated")}
    return [word for word in row["argv"] if word.split("=", 1)[0] not in generated]


def _same_value(found: str, expected: str) -> bool:
    """Argv values compare as text, JSON values as JSON: a fence inside a list item loses
    the item's indentation in the reader's copy, which JSON does not see."""
    if found == expected:
        return True
    try:
        return bool(json.loads(found) == json.loads(expected))
    except ValueError:
        return False


@pytest.mark.parametrize(
    "row", ground_truth("markdown"), ids=lambda row: f"{row['file']}:{row['line']}"
)
def test_corpus_invocation_is_found_with_its_argv_and_flag_positions(
    row: dict[str, Any],
) -> None:
    text = (CORPUS / "files" / row["file"]).read_text(encoding="utf-8")
    found = [
        inv for inv in find_invocations(text) if line_column(text, inv.start)[0] == _start_line(row)
    ]
    assert len(found) == 1
    (invocation,) = found
    assert invocation.source == "markdown"
    got = as_written(invocation, text)
    argv = _written_argv(row)
    if any(flag.get("generated") for flag in row["flags"]):  # and what the operator writes
        assert texts(invocation) == row["argv"]
    assert len(got) == len(argv)
    assert all(_same_value(a, b) for a, b in zip(got, argv, strict=True)), got
    expected = [(f["flag"], f["line"], f["column"]) for f in row["flags"] if f["line"] is not None]
    assert flags(text, invocation) == expected


@pytest.mark.parametrize(
    "path", sorted((CORPUS / "files" / "markdown").iterdir()), ids=lambda path: path.name
)
def test_corpus_file_has_no_extra_invocations(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    relative = f"markdown/{path.name}"
    expected = sorted(
        _start_line(row) for row in ground_truth("markdown") if row["file"] == relative
    )
    found = sorted(line_column(text, inv.start)[0] for inv in find_invocations(text))
    assert found == expected


def test_corpus_yaml_cases_are_read_by_the_yaml_hosts() -> None:
    rows = [row for row in ground_truth("markdown") if _in_yaml_block(row)]
    assert {(row["file"].split("__")[1], row["line"]) for row in rows} == {
        ("dstack", 28),
        ("dstack", 62),
        ("kubeai", 59),
        ("kubeai", 75),
    }
    for row in rows:
        text = (CORPUS / "files" / row["file"]).read_text(encoding="utf-8")
        (invocation,) = [
            inv
            for inv in find_invocations(text)
            if line_column(text, inv.start)[0] == _start_line(row)
        ]
        for word in invocation.args:
            if word.generated is None:
                assert_written(text, word)
    dstack = next(row for row in rows if row["file"].split("__")[1] == "dstack")
    text = (CORPUS / "files" / dstack["file"]).read_text(encoding="utf-8")
    images = [inv.image for inv in find_invocations(text)]
    assert images == ["vllm/vllm-openai:v0.19.1", "vllm/vllm-openai-rocm:v0.19.1"]


def test_corpus_prose_flags_are_not_found() -> None:
    text = (CORPUS / "files" / "markdown" / "vllm-project__recipes__Qwen__Qwen3-Next.md").read_text(
        encoding="utf-8"
    )
    lines = {line_column(text, inv.start)[0] for inv in find_invocations(text)}
    assert 31 not in lines  # `--compilation_config.cudagraph_mode=PIECEWISE` in prose
    assert 80 not in lines  # `vllm bench serve` is not the server
