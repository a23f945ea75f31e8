"""A chart's values file read through the chart's templates: the argv vLLM receives from
`helm install`, the words the values wrote on the values' lines, the template's words
past the values file's end (the template reports them)."""

from __future__ import annotations

import json
from pathlib import Path

from source_support import CORPUS, line_column, single, texts
from support import CHART_VALUES_ROW, corpus_chart, small_chart
from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.sources.helm_chart import find_invocations
from vllm_config_lsp.sources.hosts import host_of
from vllm_config_lsp.sources.invocation import Invocation, elsewhere, own_findings

ROW = next(
    row
    for row in map(json.loads, (CORPUS / "invocations.jsonl").read_text().splitlines())
    if row["file"] == CHART_VALUES_ROW
)


def _read(path: Path) -> tuple[str, Invocation]:
    text = path.read_text()
    assert host_of(str(path), text) == "helm-values"
    return text, single(find_invocations(text, path))


def _deployment(container: str) -> str:
    return (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
        '  name: {{ include "c.fullname" . }}\nspec:\n  template:\n    spec:\n'
        "      containers:\n" + container
    )


def test_corpus_values_reach_vllm_through_the_template_on_their_own_lines(
    tmp_path: Path,
) -> None:
    text, invocation = _read(corpus_chart(tmp_path))
    # Kubernetes puts the env value behind `$(MODEL_ID)`, Helm the values behind `{{ }}`
    assert texts(invocation) == [word.replace("$(MODEL_ID)", ROW["model"]) for word in ROW["argv"]]
    assert line_column(text, invocation.start)[0] == ROW["line"] == 27
    assert invocation.source == "helm"
    assert invocation.image == "vllm/vllm-openai:v0.19.1"
    lines = {flag["flag"]: flag["line"] for flag in ROW["flags"]}
    assert lines == {"--model": 27, "--tensor-parallel-size": 46, "--max-model-len": 49}
    for word in invocation.args:
        flag = word.text.split("=", 1)[0]
        if flag in lines:
            assert line_column(text, word.start)[0] == lines[flag], word
            assert word.resolved and word.start <= word.end <= len(text)
            value = word.text.split("=", 1)[1]
            assert text[slice(*word.source_range(len(flag) + 1, len(word.text)))] == value
            # the whole word is the part written here; the option is the template's
            assert word.source_range(0, len(word.text)) == (word.start, word.end)
            assert word.source_range(0, len(flag))[0] > len(text)
        else:  # fixed in the template: known, but not this document's text
            assert word.resolved and word.start > len(text), word


def test_a_flat_values_file_or_a_folder_without_templates_is_no_chart(tmp_path: Path) -> None:
    flat = CORPUS / "files" / CHART_VALUES_ROW
    assert host_of(str(flat), flat.read_text()) is None
    values = corpus_chart(tmp_path)
    (values.parent / "templates" / "deployment.yaml").unlink()
    (values.parent / "templates").rmdir()
    assert host_of(str(values), values.read_text()) is None
    assert find_invocations(values.read_text(), values) == []


def test_quote_default_and_trim_render_as_helm_does(tmp_path: Path) -> None:
    values = "model: Qwen/Qwen3-8B\nport: 8000\nseqs: 8\nlength: 1048576\nlen0: 0\n"
    template = _deployment(
        "      - name: vllm\n"
        '        image: "vllm/vllm-openai:v0.10.0"\n'
        "        args:\n"
        "        - {{ .Values.model | quote }}\n"
        "        - --max-model-len={{ .Values.missing | default 4096 }}\n"
        '        - --dtype={{ default "auto" .Values.dtype }}\n'
        "        - --port= {{- $.Values.port }}\n"
        "        - --max-num-seqs={{ .Values.seqs | quote }}\n"
        "        - --max-num-batched-tokens={{ .Values.length }}\n"
        "        - --swap-space={{ .Values.len0 | default 4 }}\n"
        '        - --served-model-name={{ include "c.name" . }}\n'
    )
    text, invocation = _read(small_chart(tmp_path, values, template))
    assert texts(invocation) == [
        "Qwen/Qwen3-8B",  # the whole item: YAML reads Helm's quotes away
        "--max-model-len=4096",
        "--dtype=auto",
        "--port=8000",
        '--max-num-seqs="8"',  # inside a word, the quotes reach vLLM
        "--max-num-batched-tokens=1.048576e+06",  # a float64, as Go prints it
        "--swap-space=4",  # 0 is empty: the default
        '--served-model-name={{ include "c.name" . }}',
    ]
    model, length, port, seqs, number, swap, name = (
        invocation.args[i] for i in (0, 1, 3, 4, 5, 6, 7)
    )
    assert text[model.start : model.end] == "Qwen/Qwen3-8B"
    assert text[port.start : port.end] == "8000"
    assert text[seqs.start : seqs.end] == "8"
    assert text[number.start : number.end] == "1048576"  # reprinted: the whole scalar
    assert length.start > len(text) and swap.start > len(text)  # the template's defaults
    assert name.unresolved == ('{{ include "c.name" . }}',)


def test_an_image_from_values_starts_with_its_entrypoint_and_names_the_release(
    tmp_path: Path,
) -> None:
    values = "image:\n  repository: vllm/vllm-openai\n  tag: v0.8.5\nmodel: Qwen/Qwen3-8B\n"
    template = _deployment(
        "      - name: server\n"
        '        image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"\n'
        '        args: ["--model", "{{ .Values.model }}", "--swap-space", "4"]\n'
    )
    text, invocation = _read(small_chart(tmp_path, values, template))
    assert invocation.image == "vllm/vllm-openai:v0.8.5"
    assert invocation.entrypoint == "serve"
    assert texts(invocation) == ["--model", "Qwen/Qwen3-8B", "--swap-space", "4"]
    assert line_column(text, invocation.start)[0] == 4


def test_only_the_charts_own_template_files_are_read(tmp_path: Path) -> None:
    values = "model: Qwen/Qwen3-8B\n"
    container = (
        "      - name: vllm\n        image: vllm/vllm-openai:v0.10.0\n"
        "        args: [--model, '{{ .Values.model }}']\n"
    )
    path = small_chart(tmp_path, values, "")
    outside = tmp_path / "outside.yaml"
    outside.write_text(_deployment(container))
    (path.parent / "templates" / "linked.yaml").symlink_to(outside)
    (path.parent / "templates" / "NOTES.txt").write_text(_deployment(container))
    assert find_invocations(values, path) == []
    (path.parent / "templates" / "sub").mkdir()
    (path.parent / "templates" / "sub" / "_pod.tpl").write_text(_deployment(container))
    assert texts(single(find_invocations(values, path))) == ["--model", "Qwen/Qwen3-8B"]


def test_a_template_without_values_in_its_command_line_is_not_the_values_files(
    tmp_path: Path,
) -> None:
    container = (
        "      - name: vllm\n        image: vllm/vllm-openai:v0.10.0\n"
        "        args: [--model, Qwen/Qwen3-8B]\n"
    )
    path = small_chart(tmp_path, "replicas: 1\n", _deployment(container))
    assert find_invocations(path.read_text(), path) == []


def test_a_document_reports_the_findings_on_its_own_text_once_without_foreign_edits() -> None:
    text = "maxModelLen: abc\n"
    here = TextEdit(13, 16, "8k")
    there = TextEdit(13, elsewhere(text, 40), "")
    mine = Finding(
        "VC201", Severity.ERROR, 13, 16, "bad", fixes=(Fix("a", (here,)), Fix("b", (there,)))
    )
    theirs = Finding("VC101", Severity.ERROR, elsewhere(text, 30), elsewhere(text, 40), "gone")
    kept = own_findings([mine, theirs, mine], text)
    assert [(f.code, [fix.title for fix in f.fixes]) for f in kept] == [("VC201", ["a"])]
