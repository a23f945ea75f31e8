"""Numbers from outside are bounded: a version of 5,000 digits (past Python's int digit
limit) wherever a version is read, and hostile numbers in a model's config.json, give
findings or "unknown", never a traceback or an internal error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import cli

HUGE_VERSION = "0." + "1" * 5000
CONFIG = "model: m\nmax-num-seqs: x\n"


def _lay_out(root: Path, where: str) -> Path:
    """A config whose release comes from a 5,000-digit version in `where`."""
    config = root / "serve.vllm.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    if where == "comment":
        config.write_text(f"# vllm-config: version={HUGE_VERSION}\n" + CONFIG, encoding="utf-8")
    elif where == "image tag":
        (root / "Dockerfile").write_text(f"FROM vllm/vllm-openai:v{HUGE_VERSION}\n")
    elif where == "METADATA":
        dist = root / ".venv/lib/python3.11/site-packages/vllm-0.10.2.dist-info"
        dist.mkdir(parents=True)
        (dist / "METADATA").write_text(f"Name: vllm\nVersion: {HUGE_VERSION}\n\n")
    return config


@pytest.mark.parametrize("where", ["comment", "image tag", "METADATA"])
def test_a_5000_digit_version_names_no_release(tmp_path: Path, where: str) -> None:
    config = _lay_out(tmp_path, where)
    for target in (config, tmp_path):  # the file named, and the folder walked
        report = cli("check", "--format", "json", str(target))
        assert report.returncode == 1, report.stderr
        assert [row["code"] for row in json.loads(report.stdout)] == ["VC201"]


def test_a_5000_digit_vllm_version_option_is_refused(tmp_path: Path) -> None:
    config = _lay_out(tmp_path, "option")
    report = cli("check", "--vllm-version", HUGE_VERSION, str(config))
    assert report.returncode == 2
    assert "unknown vLLM version" in report.stderr
    assert "Traceback" not in report.stderr


LLAMA = (
    '{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "num_attention_heads": 32, '
    '"num_key_value_heads": 8, "num_hidden_layers": 32, "hidden_size": 4096, '
    '"vocab_size": 32000, "max_position_embeddings": 4096'
)
HOSTILE_CONFIGS = {
    "4000-digit ints": LLAMA.replace("4096", "9" * 4000) + "}",
    "5000-digit ints": LLAMA.replace("4096", "9" * 5000) + "}",
    "-1e999": LLAMA.replace('"max_position_embeddings": 4096', '"max_position_embeddings": -1e999')
    + "}",
    "NaN RoPE factor": LLAMA + ', "rope_scaling": {"type": "dynamic", "factor": NaN}}',
    "huge RoPE factor": LLAMA + ', "rope_scaling": {"type": "dynamic", "factor": 1e308}}',
    "nested 100,000 deep": LLAMA + ', "quantization_config": ' + "[" * 10**5 + "]" * 10**5 + "}",
    "nested 500 deep": LLAMA + ', "quantization_config": ' + '{"a": ' * 500 + "1" + "}" * 501,
}
#: Every model-aware family the bounded numbers feed: parallel sizes against heads and
#: layers, lengths against the derived maximum, quantization, a draft with the same files.
SERVE = (
    "model: ./m\ntensor-parallel-size: 8\npipeline-parallel-size: 3\nmax-model-len: 65536\n"
    "enable-lora: true\nquantization: awq\n"
    "speculative-config: {model: ./m, num_speculative_tokens: 3, max_model_len: 8192}\n"
)


def test_hostile_model_numbers_are_unknown(tmp_path: Path) -> None:
    """What cannot be computed with is unknown: the rules that need it stay silent (vLLM
    would compute NaN or overflow, so no refusal can be claimed), none crashes. One walk
    checks every case, each in a folder of its own, with and without `hf-overrides`."""
    cases = {}
    for number, hostile in enumerate(sorted(HOSTILE_CONFIGS)):
        for overrides in ("", "hf-overrides: {rope_scaling: {factor: .nan}}\n"):
            folder = tmp_path / f"case{number}{'o' if overrides else ''}"
            (folder / "m").mkdir(parents=True)
            (folder / "m" / "config.json").write_text(HOSTILE_CONFIGS[hostile])
            (folder / "m" / "tokenizer_config.json").write_text('{"model_max_length": 1e999}')
            (folder / "serve.vllm.yaml").write_text(SERVE + overrides, encoding="utf-8")
            cases[folder.name] = (hostile, overrides)
    report = cli("check", "--format", "json", str(tmp_path))
    assert "Traceback" not in report.stderr
    found: dict[str, set[str]] = {name: set() for name in cases}
    for row in json.loads(report.stdout):
        found[Path(row["file"]).parent.name].add(row["code"])
    for name, (hostile, overrides) in cases.items():
        codes = found[name]
        assert "VC000" not in codes, (hostile, overrides, codes)
        # a maximum length is only claimed from numbers that are numbers (the draft's
        # without the served model's `hf-overrides`): past the nesting bound only the deep
        # value is unknown, past the parser's own the whole file
        readable = hostile == "nested 500 deep"
        assert ("VC604" in codes) == (readable and not overrides), (hostile, overrides, codes)
        assert ("VC632" in codes) == readable, (hostile, overrides, codes)
        assert ("VC600" in codes) == (hostile == "nested 100,000 deep"), (hostile, codes)


def test_a_huge_integer_for_an_enum_flag_is_refused_not_a_crash(tmp_path: Path) -> None:
    """`optimization-level` takes member values: 400 digits is none of them (it overflowed
    `float()` before)."""
    config = tmp_path / "serve.vllm.yaml"
    config.write_text(f"model: m\noptimization-level: {'1' * 400}\n", encoding="utf-8")
    done = cli("check", "--vllm-version", "0.33.0", str(config))
    assert done.returncode == 1, done.stderr
    assert "error VC206 Input should be 0, 1, 2 or 3" in done.stdout
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("shape", ["-32", "0"])
def test_non_positive_model_shapes_are_unknown(tmp_path: Path, shape: str) -> None:
    """Heads, layers and hidden size of zero or below sized a KV cache of 0.0 GiB, which
    VC681 called "larger than the available 73.28 GiB": the memory budget is unknown."""
    model = tmp_path / "m"
    model.mkdir()
    config = json.loads(LLAMA + "}")
    for key in ("num_attention_heads", "num_key_value_heads", "num_hidden_layers"):
        config[key] = int(shape)
    config["hidden_size"] = int(shape) * 128
    (model / "config.json").write_text(json.dumps(config))
    serve = tmp_path / "serve.vllm.yaml"
    serve.write_text("# vllm-config: gpu=H100 count=1\nmodel: ./m\nmax-model-len: 4096\n")
    report = cli("check", "--format", "json", str(serve))
    assert report.returncode == 0, report.stdout[-2000:]
    assert json.loads(report.stdout) == []
