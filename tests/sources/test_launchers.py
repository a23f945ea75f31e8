"""The launcher-config source: each launcher's key → flag mapping, the positions of what
each word was written as, and the corpus's launcher configs (tests/corpus/deployments/)."""

from __future__ import annotations

from pathlib import Path

import pytest
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
from vllm_config_lsp.sources.hosts import host_of
from vllm_config_lsp.sources.invocation import Invocation
from vllm_config_lsp.sources.launchers import find_invocations


def only(text: str) -> Invocation:
    return single(find_invocations(text))


def at(text: str, offset: int) -> tuple[int, int]:
    return line_column(text, offset)


# -- vector-inference --------------------------------------------------------------------


def test_vec_inf_keys_are_flags_and_booleans_are_bare_even_when_false() -> None:
    text = (
        "models:\n"
        "  m:\n"
        "    model_family: x\n"
        "    vllm_args:\n"
        "      --max-model-len: 8192\n"
        "      --enforce-eager: false\n"
        "      --gpu-memory-utilization: 0.9\n"
        "    sglang_args:\n"
        "      --context-length: 8192\n"
        "  no-args:\n"
        "    model_family: y\n"
    )
    invocation = only(text)
    assert invocation.source == "launcher" and invocation.entrypoint == "serve"
    assert texts(invocation) == [
        "--max-model-len",
        "8192",
        "--enforce-eager",
        "--gpu-memory-utilization",
        "0.9",
    ]
    assert at(text, invocation.start) == (4, 5)  # the `vllm_args` key
    assert flags(text, invocation)[0] == ("--max-model-len", 5, 7)
    assert at(text, arg(invocation, "8192").starts[0]) == (5, 24)


# -- InferenceX -------------------------------------------------------------------------


def test_inferencex_flag_strings_are_word_split_with_offsets() -> None:
    text = (
        "model-a:\n"
        '  prefill_flags: "--tensor-parallel-size 8 --kv-cache-dtype fp8"\n'
        "  decode_flags: --max-num-batched-tokens 4K --x '{\"a\":1}'\n"
        '  env: "A=1 B=2"\n'
    )
    prefill, decode = find_invocations(text)
    assert texts(prefill) == ["--tensor-parallel-size", "8", "--kv-cache-dtype", "fp8"]
    assert flags(text, prefill) == [("--tensor-parallel-size", 2, 19), ("--kv-cache-dtype", 2, 44)]
    assert texts(decode) == ["--max-num-batched-tokens", "4K", "--x", '{"a":1}']
    assert at(text, arg(decode, '{"a":1}').starts[0]) == (3, 50)


# -- vllm-ascend -------------------------------------------------------------------------


def test_ascend_server_cmd_is_a_command_line_and_more_indented_lines_join() -> None:
    text = (
        'model: "org/m"\n'
        "deployment:\n"
        "  - server_cmd: >\n"
        "      vllm serve org/m\n"
        "        --port $SERVER_PORT\n"
        "        --tensor-parallel-size 8\n"
    )
    invocation = only(text)
    assert invocation.source == "launcher"
    assert texts(invocation) == [
        "org/m",
        "--port",
        "$SERVER_PORT",
        "--tensor-parallel-size",
        "8",
    ]
    assert not arg(invocation, "$SERVER_PORT").resolved
    assert flags(text, invocation) == [("--port", 5, 9), ("--tensor-parallel-size", 6, 9)]


def test_ascend_template_follows_vllm_serve_and_the_model() -> None:
    text = (
        "model: org/m\n"
        "templates:\n"
        "  - node_index: 0\n"
        "    server_cmd_template:\n"
        "      - --port\n"
        "      - ${PORT}\n"
        '      - "--seed"\n'
        '      - \'{"a":\n'
        "        1}'\n"
    )
    invocation = only(text)
    assert texts(invocation) == ["org/m", "--port", "${PORT}", "--seed", '{"a": 1}']
    assert at(text, invocation.start) == (5, 9)  # the first item
    assert arg(invocation, "${PORT}").unresolved == ("${PORT}",)
    assert flags(text, invocation) == [("--port", 5, 9), ("--seed", 7, 10)]


# -- ramalama ----------------------------------------------------------------------------

RAMALAMA = """\
commands:
  - name: serve
    inference_engine:
      name: "vllm server"
      binary: "{{ '' if host.is_container else 'python3 -m vllm.entrypoints.openai.api_server' }}"
      options: &opts
        - name: "--model"
          value: "{{ model.model_path }}"
        - name: "--max_model_len"
          value: "{{ args.ctx_size }}"
          if: "{{ args.ctx_size > 0 }}"
        - name: ""
          value: "{{ args.runtime_args }}"
  - name: run
    inference_engine:
      name: "vllm server with chat"
      binary: "{{ '' if host.is_container else 'python3 -m vllm.entrypoints.openai.api_server' }}"
      options: *opts
  - name: convert
    inference_engine:
      name: "convert"
      binary: "llama-convert-hf-to-gguf"
      options:
        - name: "--outfile"
"""


def test_ramalama_options_with_templates_and_an_alias() -> None:
    serve, run = find_invocations(RAMALAMA)
    assert serve.entrypoint == "api_server"
    assert texts(serve) == texts(run)
    assert texts(serve) == [
        "--model",
        "{{ model.model_path }}",
        "--max_model_len",
        "{{ args.ctx_size }}",
        "{{ args.runtime_args }}",
    ]
    assert arg(serve, "{{ args.ctx_size }}").unresolved == ("{{ args.ctx_size }}",)
    assert arg(serve, "{{ args.runtime_args }}").splat
    # the alias reuses the anchored list: both point at it
    assert (
        flags(RAMALAMA, run)
        == flags(RAMALAMA, serve)
        == [
            ("--model", 7, 18),
            ("--max_model_len", 9, 18),
        ]
    )
    assert at(RAMALAMA, run.start)[0] == 17


# -- vLLM recipes ------------------------------------------------------------------------


def test_recipe_guide_is_markdown_and_fragments_are_flags() -> None:
    text = (
        "model:\n"
        '  model_id: "org/m"\n'
        "variants:\n"
        "  awq:\n"
        "    extra_args:\n"
        '      - "--quantization"\n'
        '      - "awq"\n'
        "guide: |\n"
        "  ## Run\n"
        "  ```bash\n"
        "  export HF_TOKEN=<your HF token>\n"
        "  vllm serve org/m \\\n"
        "    --api-key=<your key> \\\n"
        "    --max-model-len 4096\n"
        "  ```\n"
    )
    fragment, guide = find_invocations(text)
    assert texts(fragment) == ["--quantization", "awq"]
    assert flags(text, fragment) == [("--quantization", 6, 10)]
    assert guide.source == "launcher"
    assert texts(guide) == ["org/m", "--api-key=<your key>", "--max-model-len", "4096"]
    assert arg(guide, "--api-key=<your key>").unresolved == ("<your key>",)
    assert at(text, guide.start) == (12, 3)
    assert flags(text, guide) == [("--api-key", 13, 5), ("--max-model-len", 14, 5)]


# -- srt-slurm ---------------------------------------------------------------------------


def test_srt_slurm_roles_map_names_to_flags() -> None:
    text = (
        "backend:\n"
        "  type: vllm\n"
        "  vllm_config:\n"
        "    prefill:\n"
        "      no-enable-prefix-caching: true\n"
        "      enforce-eager: false\n"
        '      kv-transfer-config: \'{"kv_connector":"NixlConnector"}\'\n'
        "      compilation-config: {level: 3}\n"
        "    decode:\n"
        "      tensor-parallel-size: 4\n"
    )
    prefill, decode = find_invocations(text)
    assert texts(prefill) == [
        "--no-enable-prefix-caching",
        "--kv-transfer-config",
        '{"kv_connector":"NixlConnector"}',
        "--compilation-config",
        '{"level": 3}',
    ]
    assert texts(decode) == ["--tensor-parallel-size", "4"]
    assert at(text, decode.start) == (9, 5)
    assert flags(text, decode) == [("--tensor-parallel-size", 10, 7)]
    assert find_invocations(text.replace("type: vllm", "type: sglang")) == []


# -- robustness and detection ------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["", "models: [", "models:\n  m:\n    vllm_args: 3\n", "- a\n- b\n", "guide: |\n  x\n"],
)
def test_malformed_or_foreign_yaml_finds_nothing(text: str) -> None:
    assert find_invocations(text) == []


def test_detection_is_by_the_launcher_keys_only() -> None:
    assert host_of("models.yaml", "models:\n  m:\n    vllm_args:\n      --x: 1\n") == "launcher"
    assert host_of("m.yaml", "a:\n  prefill_flags: --x 1\n") == "launcher"
    assert host_of("c.yaml", "deployment:\n  - server_cmd: >\n      vllm serve m\n") == "launcher"
    assert host_of("r.yaml", "model:\n  model_id: m\nguide: |\n  text\n") == "launcher"
    assert host_of("s.yaml", "backend:\n  type: vllm\n  vllm_config:\n    prefill: {}\n")
    # `--config` files stay configs
    assert host_of("serve.yaml", "model: org/m\ntensor-parallel-size: 2\n") is None
    assert host_of("serve.yaml", "models: a\nmax-model-len: 8\n") is None
    assert host_of("serve.yaml", "model: m\nguide: plain\n") is None


# -- the corpus --------------------------------------------------------------------------

#: Rows of invocations.jsonl that disagree with the file (the corpus is not edited): the
#: ramalama rows put each flag's column on the opening quote of `"--model"` (column 17),
# -- Baseten Truss -----------------------------------------------------------------------

TRUSS = (
    Path(__file__).parent
    / "data"
    / "real"
    / "basetenlabs__truss-examples__cogito__cogito-v2-preview-llama-70B-vllm__config.yaml"
)


def test_truss_start_command_in_its_image_on_its_accelerators() -> None:
    """A real Truss config (tests/sources/data/real/SOURCES.md): the `sh -c` start command
    is read as shell, in `base_image.image`, on the two H100s `resources.accelerator` names."""
    text = TRUSS.read_text(encoding="utf-8")
    assert host_of(str(TRUSS), text) == "launcher"
    invocation = only(text)
    assert invocation.source == "launcher" and invocation.image == "vllm/vllm-openai:v0.10.0"
    assert texts(invocation)[:3] == [
        "deepcogito/cogito-v2-preview-llama-70B",
        "--served-model-name",
        "llama",
    ]
    assert at(text, arg(invocation, "--tensor-parallel-size").start) == (20, 164)
    (claim,) = invocation.gpus
    assert (claim.origin, claim.count, claim.name) == ("resources.accelerator", 2, "H100-80GB")
    assert text[claim.start : claim.end] == "H100:2"


@pytest.mark.parametrize(
    ("written", "count", "name"),
    [
        ("A10G", 1, "A10G"),
        ("A100", 1, "A100-80GB"),
        ("H100_40GB:4", 4, None),
        ("H100:x", None, None),
    ],
)
def test_truss_accelerators(written: str, count: int | None, name: str | None) -> None:
    text = f"docker_server:\n  start_command: vllm serve m\nresources:\n  accelerator: {written}\n"
    claims = only(text).gpus
    assert [(c.count, c.name) for c in claims] == ([(count, name)] if count else [])


#: where every other row (vllm-ascend's `- "--profiler-config"`, column 10) counts the `-`.
COLUMN_FIXES = {
    "launcher-config/containers__ramalama__test__unit__command__data__engines__vllm.yaml": 1
}
ROWS = ground_truth("launcher-config")


def _expected(row: dict[str, object]) -> list[tuple[str, int, int]]:
    shift = COLUMN_FIXES.get(str(row["file"]), 0)
    return [
        (entry["flag"], entry["line"], entry["column"] + shift)
        for entry in row["flags"]  # type: ignore[attr-defined]
    ]


@pytest.mark.parametrize(
    "row", ROWS, ids=[f"{str(r['file']).split('/')[-1]}:{r['line']}" for r in ROWS]
)
def test_corpus_invocation_is_found_with_its_flags_at_their_positions(
    row: dict[str, object],
) -> None:
    path = CORPUS / "files" / str(row["file"])
    text = path.read_text(encoding="utf-8")
    assert host_of(str(path), text) == "launcher"
    found = [inv for inv in find_invocations(text) if at(text, inv.start)[0] == row["line"]]
    assert found, f"no invocation at line {row['line']}"
    assert any(flags(text, inv) == _expected(row) for inv in found), [
        flags(text, inv) for inv in found
    ]
    # every argv element has text in the file here (vec-inf's generated prefix is not
    # in the rows either): the argv itself must agree
    assert any(as_written(inv, text) == row["argv"] for inv in found)


def test_corpus_every_launcher_file_is_read() -> None:
    files = sorted({str(row["file"]) for row in ROWS})
    for file in files:
        text = (CORPUS / "files" / file).read_text(encoding="utf-8")
        lines = {at(text, inv.start)[0] for inv in find_invocations(text)}
        assert {int(str(r["line"])) for r in ROWS if r["file"] == file} <= lines, file
