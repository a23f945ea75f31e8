"""Parser names are checked against the registry of the release a file targets, through the
console command: each catalogue carries its own release's tool and reasoning parsers (read
from a lazy registry dict or, before 0.11, from each parser module's registering
decorator), in the words that release prints where it refuses them."""

from __future__ import annotations

import json
from pathlib import Path

from support import cli

TOOL = "model: m\nenable-auto-tool-choice: true\ntool-call-parser: {}\n"
REASONING = "model: m\nreasoning-parser: {}\n"


def _errors(tmp_path: Path, version: str, body: str) -> list[tuple[str, str]]:
    """(code, message) of each error `check` reports on `body` for `version`."""
    path = tmp_path / f"{version}.vllm.yaml"
    path.write_text(f"# vllm-config: version={version}\n{body}")
    rows = json.loads(cli("check", str(path), "--format", "json").stdout)
    return [(row["code"], row["message"]) for row in rows if row["severity"] == "error"]


def test_a_tool_parser_the_release_lacks_is_refused(tmp_path: Path) -> None:
    ((code, message),) = _errors(tmp_path, "0.11.2", TOOL.format("glm47"))
    assert code == "VC505"
    assert message.startswith("invalid tool call parser: glm47 (chose from { deepseek_v3,")
    assert ",glm45," in message and "Did you mean `glm45`?" in message
    assert _errors(tmp_path, "0.28.0", TOOL.format("glm47")) == []  # registered by then
    assert _errors(tmp_path, "0.11.2", TOOL.format("glm45")) == []
    plugin = TOOL.format("glm47") + "tool-parser-plugin: /opt/plugins/glm47_parser.py\n"
    assert _errors(tmp_path, "0.11.2", plugin) == []  # it may register the name


def test_tool_parsers_registered_by_decorators(tmp_path: Path) -> None:
    """0.10.2 registers each parser with `@ToolParserManager.register_module(...)`."""
    ((code, message),) = _errors(tmp_path, "0.10.2", TOOL.format("glm47"))
    assert code == "VC505" and "invalid tool call parser: glm47" in message
    for known in ("hermes", "internlm", "llama4_json", "glm45"):
        assert _errors(tmp_path, "0.10.2", TOOL.format(known)) == [], known


def test_older_structured_outputs_config_refuses_a_reasoning_parser(tmp_path: Path) -> None:
    """0.11.2's StructuredOutputsConfig refuses the name itself, headless too, and knows no
    `none`; 0.33.0 looks it up in the registry and reads `none` as no parser."""
    ((code, message),) = _errors(tmp_path, "0.11.2", REASONING.format("nemotron_v3"))
    assert code == "VC385"
    assert message.startswith("invalid reasoning parser: nemotron_v3 (chose from { deepseek_r1,")
    headless = "headless: true\n" + REASONING.format("nemotron_v3")
    assert [c for c, _ in _errors(tmp_path, "0.11.2", headless)] == ["VC385"]
    assert [c for c, _ in _errors(tmp_path, "0.11.2", REASONING.format("none"))] == ["VC385"]
    assert _errors(tmp_path, "0.11.2", REASONING.format("glm45")) == []
    plugin = REASONING.format("nemotron_v3") + "reasoning-parser-plugin: /opt/p/nemotron.py\n"
    assert _errors(tmp_path, "0.11.2", plugin) == []
    assert _errors(tmp_path, "0.33.0", REASONING.format("none")) == []
    ((code, message),) = _errors(tmp_path, "0.33.0", REASONING.format("nemotron_v9"))
    assert code == "VC506" and message.startswith("Reasoning parser 'nemotron_v9' not found.")


def test_the_structured_outputs_check_applies_to_the_releases_that_have_it() -> None:
    shown = cli("rules", "VC385")
    assert shown.returncode == 0
    (line,) = [line for line in shown.stdout.splitlines() if line.startswith("vLLM releases: ")]
    assert line == "vLLM releases: 0.11.2\N{EN DASH}0.12.0"
