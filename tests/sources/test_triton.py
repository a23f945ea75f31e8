"""The Triton source: a vLLM backend `model.json` (engine-argument field names → values) as
the command line that means the same, which files are one, where findings on it land, and
the corpus's model.json (tests/corpus/deployments/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from source_support import (
    CORPUS,
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
from support import apply_fix, cli
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.sources.hosts import host_of
from vllm_config_lsp.sources.invocation import Invocation
from vllm_config_lsp.sources.triton import find_invocations
from vllm_config_lsp.vllm.catalogue import detection_flag_names

FLAGS = detection_flag_names()
MODEL_JSON = """{
    "model": "facebook/opt-125m",
    "gpu_memory_utilisation": 0.5,
    "max_model_len": 2048,
    "enforce_eager": true,
    "disable_log_stats": false
}
"""


def only(text: str) -> Invocation:
    return single(find_invocations(text))


def errors(text: str) -> list[Finding]:
    result = lint(text, version="0.33.0", host="triton")
    return [found for found in result.findings if found.severity == Severity.ERROR]


# -- which files are model.json ----------------------------------------------------------


def test_a_model_json_of_engine_arguments_is_a_triton_host() -> None:
    assert host_of("/repo/vllm_model/1/model.json", MODEL_JSON, flag_names=FLAGS) == "triton"
    # tab-indented JSON is JSON
    tabbed = MODEL_JSON.replace("    ", "\t")
    assert host_of("model.json", tabbed, flag_names=FLAGS) == "triton"
    assert texts(only(tabbed))[:2] == ["--model", "facebook/opt-125m"]


@pytest.mark.parametrize(
    ("name", "text"),
    [
        # TensorFlow.js, an OpenAI request body, package metadata: no engine arguments
        ("model.json", '{"format": "layers-model", "modelTopology": {}, "weightsManifest": []}'),
        ("model.json", '{"model": "gpt-4o", "messages": [], "temperature": 0.2}'),
        ("model.json", '{"model": "resnet50", "epochs": 10, "batch_size": 32}'),
        ("model.json", '[{"model": "m", "max_model_len": 8}]'),
        ("model.json", '{"max_model_len": 8, "enforce_eager": true}'),  # no model
        ("config.json", '{"model": "m", "max_model_len": 8, "enforce_eager": true}'),
        ("model.json.bak", '{"model": "m", "max_model_len": 8, "enforce_eager": true}'),
    ],
)
def test_other_json_files_are_no_host(name: str, text: str) -> None:
    assert host_of(f"/repo/{name}", text, flag_names=FLAGS) is None


def test_without_flag_names_no_model_json_is_recognised() -> None:
    assert host_of("model.json", MODEL_JSON) is None


def test_check_walks_a_model_repository_and_stays_silent_on_other_json(tmp_path: Path) -> None:
    version = tmp_path / "repo" / "vllm_model" / "1"
    version.mkdir(parents=True)
    (version / "model.json").write_text(MODEL_JSON, encoding="utf-8")
    (tmp_path / "repo" / "model.json").write_text('{"model": "gpt-4o", "messages": []}\n')
    (tmp_path / "package.json").write_text('{"name": "x", "version": "1.0.0"}\n')
    done = cli("check", "--format", "json", str(tmp_path))
    rows = json.loads(done.stdout)
    assert {Path(row["file"]).relative_to(tmp_path).as_posix() for row in rows} == {
        "repo/vllm_model/1/model.json"
    }
    assert done.returncode == 1
    shown = json.loads(cli("argv", "--format", "json", str(tmp_path)).stdout)
    assert [(row["source"], row["line"], row["argv"][:2]) for row in shown] == [
        ("triton", 1, ["--model", "facebook/opt-125m"])
    ]


# -- the command line it means -----------------------------------------------------------


def test_fields_become_flags_and_false_keeps_the_default() -> None:
    text = (
        '{"model": "m", "tensor_parallel_size": 2, "enable_lora": "true",\n'
        ' "enforce_eager": "false", "quantization": null, "disable_log_stats": false,\n'
        ' "allowed_local_media_path": "", "lora_modules": ["a=/x", "b=/y"]}'
    )
    invocation = only(text)
    assert invocation.source == "triton" and invocation.entrypoint == "serve"
    assert line_column(text, invocation.start) == (1, 1)  # the object's `{`
    assert texts(invocation) == [
        "--model",
        "m",
        "--tensor-parallel-size",
        "2",
        "--enable-lora",  # Triton's own tutorial writes "true" as a string
        "--allowed-local-media-path",
        "",
        "--lora-modules",
        "a=/x",
        "b=/y",
    ]
    assert_words_inside([invocation], text)


def speculative(tokens: str) -> str:
    """A model.json with an n-gram `speculative_config` of `tokens` speculative tokens."""
    config = f'{{"method": "ngram", "num_speculative_tokens": {tokens}}}'
    return f'{{"model": "m", "speculative_config": {config}}}'


def test_a_nested_object_is_its_own_json_character_for_character() -> None:
    text = speculative("2")
    value = only(text).args[-1]
    assert value.text == '{"method": "ngram", "num_speculative_tokens": 2}'
    assert [text[start] for start in value.starts[:3]] == ["{", '"', "m"]
    assert value.starts[-1] == text.rindex("}") - 1


# -- findings on keys and values ---------------------------------------------------------


def test_an_unknown_field_is_reported_on_its_key_and_renamed_as_a_field() -> None:
    [found] = errors(MODEL_JSON)
    assert found.code == "VC101"
    assert MODEL_JSON[found.start : found.end] == '"gpu_memory_utilisation"'
    # no argparse runs: `AsyncEngineArgs(**config)` refuses the keyword (Python's own words)
    assert found.message.startswith(
        "AsyncEngineArgs.__init__() got an unexpected keyword argument 'gpu_memory_utilisation'"
    )
    assert "`gpu_memory_utilization`" in found.message
    rename, removal = found.fixes
    renamed = apply_fix(MODEL_JSON, rename)
    assert '"gpu_memory_utilization": 0.5,' in renamed and errors(renamed) == []
    removed = json.loads(apply_fix(MODEL_JSON, removal))  # still JSON, the entry gone
    assert "gpu_memory_utilisation" not in removed and removed["max_model_len"] == 2048


def test_removing_the_last_entry_keeps_the_json_valid() -> None:
    text = '{\n  "model": "m",\n  "enforce_eager": true,\n  "enforce_eagr": true\n}\n'
    [found] = errors(text)
    assert text[found.start : found.end] == '"enforce_eagr"'
    removal = next(fix for fix in found.fixes if fix.title.startswith("Remove"))
    assert json.loads(apply_fix(text, removal)) == {"model": "m", "enforce_eager": True}


def test_a_bad_value_is_reported_on_the_value() -> None:
    text = MODEL_JSON.replace('"gpu_memory_utilisation": 0.5', '"gpu_memory_utilization": 1.5')
    [found] = errors(text)
    assert text[found.start : found.end] == "1.5"
    assert "less than or equal to 1" in found.message


def test_an_error_inside_a_nested_object_lands_on_the_member() -> None:
    text = speculative('"x"')
    [found] = errors(text)
    assert text[found.start : found.end] == '"x"'


# -- robustness --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{\n  "model": "m",\n  "gpu_memory_utilization": ',
        '{\n  "model": "m",\n  "gpu_memory_utilization": 0.9,\n',
        '{"model": "m", "max_model_len": }',
        '{"model": "m" "x": 1}',
        "",
        "{",
        "[[[[[[",
        '{"model": "m", "a": {"b": ' * 200,
    ],
)
def test_broken_json_being_typed_never_raises(text: str) -> None:
    assert_words_inside(find_invocations(text), text)
    host = host_of("model.json", text, flag_names=FLAGS)
    assert host in (None, "triton")
    lint(text, version="0.33.0", host="triton")


@given(st.text(alphabet='{}[]":,tfn0123456789.e- \t\nabmodel_', max_size=80))
def test_never_raises_on_json_like_noise(text: str) -> None:
    assert_words_inside(find_invocations(text), text)
    host_of("model.json", text, flag_names=FLAGS)


# -- the corpus --------------------------------------------------------------------------


@pytest.mark.parametrize("row", row_params("other"))
def test_corpus_model_json_is_found_with_its_argv_and_flags_on_its_keys(
    row: dict[str, object],
) -> None:
    path = CORPUS / "files" / str(row["file"])
    assert host_of(str(path), path.read_text(), flag_names=FLAGS) == "triton"
    assert_row_found(find_invocations, row)


@pytest.mark.parametrize("file", file_params("other"))
def test_corpus_file_has_no_extra_invocations(file: str) -> None:
    assert_no_extra_starts(find_invocations, file, ground_truth("other"))
    text = (CORPUS / "files" / file).read_text()
    assert errors(text) == []
