"""Refusals the differential fuzzer found missed on fresh seeds (issue 33 item 3), through
the real CLI: each is an error where vLLM 0.33.0 refuses, and the near miss vLLM accepts gets
none. Oracle verdicts of every case: tests/fidelity/cases/refusals/ (recorded with
tools/record_vllm_verdicts.py; the fuzz cases were seed 7's s7-00183, s7-00281, s7-00483 and
s7-00508 of `tools/differential_fuzz.py --seed 7 --count 600`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support import REPO, check_file


def _errors(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    return [r for r in rows if r["severity"] == "error"]


@pytest.mark.parametrize("value", ["x", "", "'[1, 2]'", "'None'", "auto"])
def test_additional_config_text_is_not_a_dict(tmp_path: Path, value: str) -> None:
    """`VllmConfig.additional_config: dict | SupportsHash`: argparse keeps text that is not a
    JSON object as text, which is neither (vllm/config/vllm.py:429)."""
    rows = _errors(check_file(tmp_path, f"model: m\nadditional-config: {value}\n"))
    assert [(r["code"], r["line"]) for r in rows] == [("VC206", 2)], rows
    assert "Input should be a valid dictionary" in str(rows[0]["message"])


@pytest.mark.parametrize("value", ["{device_id: 0}", "'{\"a\": 1}'", "{}"])
def test_additional_config_object_is_accepted(tmp_path: Path, value: str) -> None:
    assert not _errors(check_file(tmp_path, f"model: m\nadditional-config: {value}\n"))


@pytest.mark.parametrize("value", ["auto", ".fn", "''"])
def test_inductor_pass_without_module(tmp_path: Path, value: str) -> None:
    text = f"model: m\ncompilation-config:\n  inductor_passes:\n    p: {value}\n"
    rows = _errors(check_file(tmp_path, text))
    assert [(r["code"], r["line"]) for r in rows] == [("VC483", 4)], rows
    assert "Empty module name" in str(rows[0]["message"])


def test_inductor_pass_repeated_key_keeps_the_last(tmp_path: Path) -> None:
    text = 'model: m\ncompilation-config: \'{"inductor_passes": {"p": "x", "p": "a.b"}}\'\n'
    assert not [r for r in check_file(tmp_path, text) if r["code"] == "VC483"]
    last = check_file(tmp_path, text.replace("a.b", "y"))
    assert [r["code"] for r in _errors(last)] == ["VC483"], last


def test_dotted_inductor_pass_is_not_judged(tmp_path: Path) -> None:
    """Whether `pkg.mod.fn` imports depends on the serving host's Python path."""
    text = "model: m\ncompilation-config:\n  inductor_passes:\n    p: my_pkg.passes.fuse\n"
    assert not _errors(check_file(tmp_path, text))


@pytest.mark.parametrize("value", ["[]", "false"])
def test_model_dropped_by_the_loader(tmp_path: Path, value: str) -> None:
    rows = check_file(tmp_path, f"model: {value}\nmax-num-seqs: 8\n")
    assert [(r["code"], r["line"]) for r in _errors(rows)] == [("VC124", 1)], rows
    assert "No model specified!" in str(rows[0]["message"])
    # `false` is not also said to leave the default model in use (VC115)
    assert not [r for r in rows if r["code"] == "VC115"], rows


def test_file_without_model_key_is_taken_to_run_with_a_positional_model(tmp_path: Path) -> None:
    assert not _errors(check_file(tmp_path, "model: Qwen/Qwen3-8B\nmax-num-seqs: 8\n"))
    assert not _errors(check_file(tmp_path, "max-num-seqs: 8\ntensor-parallel-size: 1\n"))


@pytest.mark.parametrize(
    ("file_text", "extra", "severity"),
    [
        ("fail_on_environ_validation: true\n", "", "error"),
        ("fail-on-environ-validation: true\n", " --no-fail-on-environ-validation", "warning"),
        ("fail-on-environ-validation: false\n", "", "warning"),
        ("max-num-seqs: 8\n", " --fail-on-environ-validation", "error"),
    ],
)
def test_fail_on_environ_validation_in_the_config_file(
    tmp_path: Path, file_text: str, extra: str, severity: str
) -> None:
    """Issue 33 item 5: the switch that turns VC240's warning into vLLM's refusal counts
    where vLLM reads it, the `--config` file included (the command line's words come after
    the file's). Oracle: tests/fidelity/environ/ cases `*-config-file*`."""
    (tmp_path / "serve.yaml").write_text("model: Qwen/Qwen3-8B\n" + file_text, encoding="utf-8")
    script = f"VLLM_LOGGING_LEVL=DEBUG vllm serve --config serve.yaml{extra}\n"
    rows = [r for r in check_file(tmp_path, script, "run.sh") if r["code"] == "VC240"]
    assert [r["severity"] for r in rows] == [severity], rows
    assert ("refuses to start" in str(rows[0]["message"])) == (severity == "error")


def test_config_file_outside_the_folder_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "serve.yaml").write_text("model: m\nfail-on-environ-validation: true\n")
    (tmp_path / "sub").mkdir()
    script = "VLLM_LOGGING_LEVL=DEBUG vllm serve --config ../serve.yaml\n"
    rows = [r for r in check_file(tmp_path / "sub", script, "run.sh") if r["code"] == "VC240"]
    assert [r["severity"] for r in rows] == ["warning"], rows


@pytest.mark.parametrize(
    ("lines", "refused"),
    [
        ("max-model-len: 4096\nmax-num-seqs: 9223372036854775808\n", True),
        ("max-model-len: 8192\nperformance-mode: throughput\nmax-num-seqs: 100000\n", True),
        ("max-model-len: 40000\nmax-num-seqs: 39000\n", False),  # no chunked prefill: 40000
        ("max-model-len: 4096\nmax-num-seqs: 16384\n", False),  # a 160 GB GPU's default
        ("max-model-len: 4096\nmax-num-seqs: 100000\nmax-num-batched-tokens: 100000\n", False),
        ("max-num-seqs: 9223372036854775808\n", True),  # no model's max_model_len is 2^63
        ("max-num-seqs: 9223372036854775807\n", False),  # the model's max_model_len decides
        ("enable-chunked-prefill: true\nmax-num-seqs: 65536\n", True),  # never raised
        ("enable-chunked-prefill: true\nmax-num-seqs: 16384\n", False),  # a 160 GB GPU's
    ],
)
def test_max_num_seqs_above_every_default_batch(tmp_path: Path, lines: str, refused: bool) -> None:
    """A limit that another limit must exceed (VC311): with `max-num-batched-tokens` left to
    vLLM, `max-num-seqs` above the largest platform default and `max-model-len` (which, left
    to the model, is below 2^63), or above the platform default alone with chunked prefill
    on (then the default is never raised to `max-model-len`)."""
    rows = _errors(check_file(tmp_path, "model: m\n" + lines))
    assert [r["code"] for r in rows] == (["VC311"] if refused else []), rows
    if refused:
        assert "must be greater than or equal to max_num_seqs" in str(rows[0]["message"])


def test_local_size_above_total_with_hybrid_lb(tmp_path: Path) -> None:
    text = (
        "model: m\ndata-parallel-size: 2\ndata-parallel-size-local: 3\n"
        "data-parallel-hybrid-lb: true\n"
    )
    rows = _errors(check_file(tmp_path, text))
    assert [(r["code"], r["line"]) for r in rows] == [("VC314", 3)], rows
    fitting = text.replace("local: 3", "local: 2")
    assert not _errors(check_file(tmp_path, fitting))


@pytest.mark.parametrize(
    ("config", "code"),
    [
        ("speculative-config: '{\"num_speculative_tokens\": 3}'", "VC348"),
        ('speculative-config: \'{"method": "medusa", "num_speculative_tokens": 3}\'', "VC348"),
        ('speculative-config: \'{"method": "deepseek_mtp", "num_speculative_tokens": 1}\'', None),
        ('speculative-config: \'{"method": "suffix", "num_speculative_tokens": 3}\'', None),
        ('compilation-config: \'{"custom_ops": ["all", "none"]}\'', "VC347"),
        ('compilation-config: \'{"custom_ops": ["all", "all"]}\'', "VC347"),
        ('compilation-config: \'{"custom_ops": ["all", "-rms_norm"]}\'', None),
    ],
)
def test_checks_of_0_11_2(tmp_path: Path, config: str, code: str | None) -> None:
    """0.11.2's own versions of the checks (oracle: tests/fidelity/cases/releases/0.11.2/)."""
    text = f"# vllm-config: version=0.11.2\nmodel: m\n{config}\n"
    rows = _errors(check_file(tmp_path, text))
    assert [r["code"] for r in rows] == ([code] if code else []), rows
    # the release the rules transcribe says nothing of the kind (its own rules speak)
    assert not [r for r in check_file(tmp_path, text.split("\n", 1)[1]) if r["code"] == code]


@pytest.mark.parametrize("code", ["VC529", "VC407"])
def test_fuzzer_counts_a_refusal_past_the_oracle_as_an_artefact(code: str) -> None:
    """`port: 2147483648` (fuzz seed 7, s7-00208): the oracle stops before setup_server
    binds the socket; `compile_sizes: [auto]` (seed 21, s21-01190): the CPU oracle never
    finalises CUDA graph sizes. Its acceptance is no proof that the error is false."""
    sys.path.insert(0, str(REPO / "tools"))
    import differential_fuzz

    verdict = {
        "vllm_ok": True,
        "vllm_message": None,
        "product_errors": [{"code": code, "line": 1, "message": "refused past the oracle"}],
        "model_substituted": True,
        "stage": "config",
        "oracle_notes": [],
    }
    assert differential_fuzz.classify(verdict)[0] == "artefact"
    verdict["product_errors"].append({"code": "VC311", "line": 2, "message": "x"})
    assert differential_fuzz.classify(verdict)[0] == "false-error"
