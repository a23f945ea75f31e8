"""Issue 34 items 4 and 7 over a real LSP session: a fix leaves no litter (the last key of a
JSON value goes with its flag, never `- "--compilation-config"` / `- '{}'`), and each fix
names the setting the way its host writes it. Every fix is applied: the finding goes, the
file still parses as its host, and the rest stays as written."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from lsp_support import Doc, apply_workspace_edit, code_actions, encoding, hover_text
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

MANIFEST = """\
apiVersion: v1
kind: Pod
metadata: {name: vllm}
spec:
  containers:
    - name: server
      image: vllm/vllm-openai:v0.33.0
      args:
        - "Qwen/Qwen3-8B"
        - "--compilation-config"
        - '{"not_a_field": 1}'
        - "--port"
        - "8000"
"""
SCRIPT = "vllm serve Qwen/Qwen3-8B --compilation-config '{\"not_a_field\": 1}' --port 8000\n"
CONFIG = 'model: Qwen/Qwen3-8B\ncompilation-config: {"not_a_field": 1}\nport: 8000\n'


async def _apply(
    client: LanguageClient, doc: Doc, code: str, title_start: str
) -> tuple[str, types.CodeAction]:
    diagnostics = await doc.diagnostics()
    [diagnostic] = [d for d in diagnostics if d.code == code]
    actions = await code_actions(client, doc.uri, diagnostic.range, [diagnostic])
    # the editor's title: the fix's words with its Markdown backticks as quotes, the code
    [action] = [a for a in actions if a.title.replace("'", "").startswith(title_start)]
    assert action.edit is not None
    return apply_workspace_edit(doc.text, action.edit, doc.uri, encoding(client)), action


@pytest.mark.parametrize(
    ("name", "text", "after", "named"),
    [
        (
            "deploy.yaml",
            MANIFEST,
            MANIFEST.replace(
                '        - "--compilation-config"\n        - \'{"not_a_field": 1}\'\n', ""
            ),
            "--compilation-config",
        ),
        ("serve.sh", SCRIPT, "vllm serve Qwen/Qwen3-8B --port 8000\n", "--compilation-config"),
        ("serve.vllm.yaml", CONFIG, "model: Qwen/Qwen3-8B\nport: 8000\n", "compilation-config"),
    ],
)
async def test_the_last_key_of_a_json_value_goes_with_its_flag(
    client: LanguageClient, tmp_path: Path, name: str, text: str, after: str, named: str
) -> None:
    doc = Doc(client, (tmp_path / name).as_uri(), text)
    fixed, action = await _apply(client, doc, "VC204", "Remove not_a_field")
    assert fixed == after
    assert f"'{named}' goes too" in action.title
    if name.endswith("yaml"):
        yaml.safe_load(fixed)
    assert [d.code for d in await doc.replace(fixed) if d.code == "VC204"] == []
    doc.close()


async def test_a_key_with_siblings_leaves_them(client: LanguageClient, tmp_path: Path) -> None:
    text = SCRIPT.replace('{"not_a_field": 1}', '{"not_a_field": 1, "mode": 3}')
    doc = Doc(client, (tmp_path / "serve.sh").as_uri(), text)
    fixed, action = await _apply(client, doc, "VC204", "Remove not_a_field")
    assert fixed == SCRIPT.replace('{"not_a_field": 1}', '{"mode": 3}')
    assert "goes too" not in action.title
    doc.close()


COMPOSE = """\
services:
  vllm:
    image: vllm/vllm-openai:v0.33.0
    command: ["Qwen/Qwen3-8B", "--tensor-parallel-size", "2"]
    deploy: {resources: {reservations: {devices: [{driver: nvidia, count: 1}]}}}
"""


async def test_a_compose_fix_names_the_flag_as_the_command_line_writes_it(
    client: LanguageClient, tmp_path: Path
) -> None:
    """It was titled "Set 'tensor-parallel-size: 1'", a `--config` key in a command line."""
    doc = Doc(client, (tmp_path / "compose.yaml").as_uri(), COMPOSE)
    fixed, _action = await _apply(client, doc, "VC703", "Set --tensor-parallel-size 1")
    assert fixed == COMPOSE.replace(
        '"--tensor-parallel-size", "2"', '"--tensor-parallel-size", "1"'
    )
    yaml.safe_load(fixed)
    assert [d.code for d in await doc.replace(fixed) if d.code == "VC703"] == []
    doc.close()


async def test_a_config_files_suggestion_is_a_key(client: LanguageClient, tmp_path: Path) -> None:
    """vLLM's words first (`--tp`), then the suggestion as the file writes keys."""
    text = "model: Qwen/Qwen3-8B\ntp: 2\n"
    doc = Doc(client, (tmp_path / "serve.vllm.yaml").as_uri(), text)
    [diagnostic] = [d for d in await doc.diagnostics() if d.code == "VC101"]
    assert diagnostic.message.startswith("unrecognized arguments: --tp: did you mean")
    assert "tensor-parallel-size:" in diagnostic.message
    fixed, _action = await _apply(client, doc, "VC101", "Rename tp to tensor-parallel-size")
    assert fixed == "model: Qwen/Qwen3-8B\ntensor-parallel-size: 2\n"
    assert [d.code for d in await doc.replace(fixed) if d.code == "VC101"] == []
    doc.close()


async def test_hover_in_a_bash_fence_says_the_flag_form(
    client: LanguageClient, tmp_path: Path
) -> None:
    """It said "Turn off with `no-enable-prefix-caching: true`" on a command line."""
    text = "# Serve\n\n```bash\nvllm serve Qwen/Qwen3-8B --enable-prefix-caching\n```\n"
    doc = Doc(client, (tmp_path / "README.md").as_uri(), text)
    await doc.diagnostics()
    shown = await hover_text(client, doc, "--enable-prefix-caching")
    assert shown is not None
    assert "Turn off with `--no-enable-prefix-caching`" in shown
    assert ": true`" not in shown
    doc.close()
    config = Doc(client, (tmp_path / "c.vllm.yaml").as_uri(), "enable-prefix-caching: true\n")
    await config.diagnostics()
    shown = await hover_text(client, config, "enable-prefix-caching")
    assert shown is not None and "`no-enable-prefix-caching: true`" in shown
    config.close()


@pytest.mark.parametrize(
    ("name", "text", "named"),
    [
        (
            "serve.sh",
            "vllm serve Qwen/Qwen3-8B --max-model-len 4096 --max-num-seqs 2 "
            "--max-num-batched-tokens 16384\n",
            "'--max-num-seqs' is set here",
        ),
        (
            "serve.vllm.yaml",
            "model: Qwen/Qwen3-8B\nmax-model-len: 4096\nmax-num-seqs: 2\n"
            "max-num-batched-tokens: 16384\n",
            "'max-num-seqs' is set here",
        ),
    ],
)
async def test_related_settings_are_named_as_the_host_writes_them(
    client: LanguageClient, tmp_path: Path, name: str, text: str, named: str
) -> None:
    """A warning's related information ("… is set here") names the other setting in the
    host's syntax: the flag on a command line, the key in a `--config` file."""
    doc = Doc(client, (tmp_path / name).as_uri(), text)
    [diagnostic] = [d for d in await doc.diagnostics() if d.code == "VC387"]
    assert named in [r.message for r in diagnostic.related_information or []]
    doc.close()
