"""What `vllm-config-lsp check` loads to check files (a pre-commit hook starts it once per run,
or once per file): the engine, never the language server's stack (pygls, lsprotocol, cattrs,
`vllm_config_lsp.lsp`), and of the rules only those that can run for the checked release.
Measured in a fresh interpreter, as the hook starts it; no timing is asserted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from support import REPO

#: Runs the command with the arguments given (as `python -m vllm_config_lsp` does, but
#: returning: the process entry ends the process), then prints the modules it had loaded.
PROBE = """
import json, sys
from vllm_config_lsp.cli.main import main
main(sys.argv[1:])
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""
LSP_STACK = ("pygls", "lsprotocol", "cattrs", "vllm_config_lsp.lsp")


def _loaded(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=False
    )
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    assert "vllm_config_lsp.engine" in loaded, done.stderr
    return loaded


def test_check_loads_no_part_of_the_language_server() -> None:
    examples = sorted(str(path) for path in (REPO / "examples").iterdir())
    for args in (["check", *examples], ["check", "--format", "json", examples[0]]):
        loaded = _loaded(*args)
        stack = [name for name in loaded if name.startswith(LSP_STACK)]
        assert not stack, f"`vllm-config-lsp {' '.join(args[:2])}` imported {stack[:5]}"


def test_check_imports_only_the_rules_that_run(tmp_path: Path) -> None:
    """An older release has fewer of the imperative checks: their modules stay unread, as do
    those `--select` leaves out."""
    config = tmp_path / "old.vllm.yaml"
    config.write_text("# vllm-config: version=0.6.6.post1\nmodel: m\nmax-model-len: 4096\n")
    older = {name for name in _loaded("check", str(config)) if ".rules." in name}
    config.write_text("model: m\nmax-model-len: 4096\n")
    newest = {name for name in _loaded("check", str(config)) if ".rules." in name}
    selected = {
        name for name in _loaded("check", "--select", "VC2", str(config)) if ".rules." in name
    }
    assert len(older) < len(newest)
    assert len(selected) < len(newest)


def test_a_rule_whose_setting_the_file_leaves_out_is_not_imported(tmp_path: Path) -> None:
    """VC254 (tpu-kv-connector) needs the TPU plugin (`model.plugin`) and
    `kv-transfer-config.kv_connector` (its triggers in the generated index): a file without
    either never imports the rule, one with both does."""
    module = "vllm_config_lsp.rules.plugins.tpu_kv_connector"
    config = tmp_path / "plain.vllm.yaml"
    config.write_text("model: m\nmax-model-len: 4096\n")
    assert module not in _loaded("check", str(config))
    connector = 'model: m\nkv-transfer-config: {"kv_connector": "NixlConnector"}\n'
    config.write_text(connector)
    assert module not in _loaded("check", str(config))
    config.write_text("# vllm-config: plugin=tpu-inference@0.32.0\n" + connector)
    assert module in _loaded("check", str(config))


def test_a_serve_flag_rule_is_imported_when_its_switch_is_on_or_unread(tmp_path: Path) -> None:
    """VC501 (auto-tool-choice-without-parser) reads `args(…)["enable_auto_tool_choice"]`
    first (trigger `_frontend.arg_field`): off, the rule stays unread; on, it runs. VC516
    reads `enable-lora` among flags one of which argparse refuses here (`max-num-seqs:
    lots`): the trigger cannot tell, so the rule runs (its own `args(…) is None` returns)."""
    tool_choice = "vllm_config_lsp.rules.entrypoints.auto_tool_choice_without_parser"
    lora = "vllm_config_lsp.rules.engine.lora_spec_token_budget"
    plain = _loaded_for(tmp_path, "model: m\nmax-model-len: 4096\n")
    assert tool_choice not in plain and lora not in plain
    assert tool_choice not in _loaded_for(tmp_path, "model: m\nenable-auto-tool-choice: false\n")
    assert tool_choice in _loaded_for(tmp_path, "model: m\nenable-auto-tool-choice: true\n")
    assert lora in _loaded_for(tmp_path, "model: m\nmax-num-seqs: lots\n")


def test_a_speculative_rule_is_imported_only_with_a_speculative_config(tmp_path: Path) -> None:
    """VC460 (spec-ngram-lookup) returns when `spec(model)` is None (no SpeculativeConfig
    built): its trigger `_model_config.spec` keeps it unread for a file without one."""
    module = "vllm_config_lsp.rules.config.speculative.spec_ngram_lookup"
    assert module not in _loaded_for(tmp_path, "model: m\nmax-model-len: 4096\n")
    speculative = 'model: m\nspeculative-config: {"method": "ngram", "num_speculative_tokens": 3}\n'
    assert module in _loaded_for(tmp_path, speculative)


def _loaded_for(folder: Path, text: str) -> list[str]:
    """The modules `check` loads for one file with this text."""
    config = folder / "probe.vllm.yaml"
    config.write_text(text, encoding="utf-8")
    return _loaded("check", str(config))


def test_a_loader_rule_is_imported_only_when_the_file_has_its_problem(tmp_path: Path) -> None:
    """VC001 (yaml-syntax) loops over the parse's problems as its last statement (trigger
    `model origin.parsed.problems`), VC241 returns for a `--config` file (`false` trigger on
    `model.is_config_file`): a clean config file imports neither; broken YAML imports VC001."""
    syntax = "vllm_config_lsp.rules.loader.yaml_syntax"
    environ = "vllm_config_lsp.rules.envs.invalid_value"
    clean = _loaded_for(tmp_path, "model: m\nmax-model-len: 4096\n")
    assert syntax not in clean and environ not in clean
    assert syntax in _loaded_for(tmp_path, "model: m\nmax-model-len: [4096\n")


def test_no_settings_file_reads_no_toml(tmp_path: Path) -> None:
    """`tomllib` is imported when a settings file is found, not on every start (nor
    `fractions`, which only a float `multiple_of` bound needs)."""
    plain = _loaded_for(tmp_path, "model: m\nmax-model-len: 4096\n")
    assert "tomllib" not in plain and "fractions" not in plain
    (tmp_path / "vllm-config.toml").write_text('select = ["VC2"]\n', encoding="utf-8")
    assert "tomllib" in _loaded_for(tmp_path, "model: m\nmax-model-len: 4096\n")
