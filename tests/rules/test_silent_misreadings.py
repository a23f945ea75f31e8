"""Silent misreadings (issue 33 item 2), through the real CLI: vLLM starts, but not as the
file or the command line says. Each finding is a warning on the setting, and each fix,
applied, leaves a file the rule no longer flags.

What vLLM does was read from vLLM 0.33.0's own parser (FlexibleArgumentParser with the
serve sub-parser, VLLM_API_KEY=secret in the environment): `api-key:` and `api-key: ''`
give `api_key=[None]` and the middleware's key list
`[key for key in (args.api_key or [envs.VLLM_API_KEY]) if key]` is `[]`; `--api-key ""`
and `--api-key=None` the same; `hf-token:` gives the text 'None' and `--hf-token false`
the text 'false'; `hf-token: false` and `allowed-media-domains: []` give no argument;
`compilation-config.mode: 3` then `compilation_config.mode: 0` give mode 0 and the log line
`Found duplicate keys --compilation-config.mode`. Oracle verdicts: tests/fidelity/cases/
misread/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import check_file
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import apply_edits


def _only(rows: list[dict[str, object]], code: str) -> list[dict[str, object]]:
    assert not [r for r in rows if r["severity"] == "error"], rows
    return [r for r in rows if r["code"] == code]


def _fixed(tmp_path: Path, text: str, code: str, name: str = "serve.yaml") -> list[str]:
    """Each fix of `code` applied on its own; the texts it gives, each re-checked by the
    CLI without `code`."""
    path = tmp_path / name
    result = lint(text, path=path, host="shell" if name.endswith(".sh") else None)
    found = [f for f in result.findings if f.code == code]
    assert found and all(f.fixes for f in found), found
    texts = []
    for fix in found[0].fixes:
        new = apply_edits(text, fix.edits)
        rows = check_file(tmp_path, new, name)
        assert not [r for r in rows if r["code"] == code], (fix.title, new, rows)
        assert not [r for r in rows if r["severity"] == "error"], (fix.title, new, rows)
        texts.append(new)
    return texts


@pytest.mark.parametrize(
    "value", ["api-key:", "api-key: ''", "api-key: None", "api_key: ~", "api-key: [null, '']"]
)
def test_api_key_without_a_value_turns_authentication_off(tmp_path: Path, value: str) -> None:
    text = f"model: Qwen/Qwen3-8B\n{value}\nport: 8000\n"
    (row,) = _only(check_file(tmp_path, text), "VC114")
    assert row["severity"] == "warning" and row["line"] == 2
    assert "authentication off" in str(row["message"]) and "security" in str(row["message"])
    assert "VLLM_API_KEY" in str(row["message"])
    fixed = _fixed(tmp_path, text, "VC114")
    assert "api" not in fixed[0]  # removed: VLLM_API_KEY applies
    if "[" not in value:  # one value to write in place (a list of two has no place)
        assert len(fixed) == 2 and "<your API key>" in fixed[1]


def test_api_key_with_a_key_is_silent(tmp_path: Path) -> None:
    text = "model: Qwen/Qwen3-8B\napi-key: [k1, null]\n"
    assert not _only(check_file(tmp_path, text), "VC114")


@pytest.mark.parametrize("words", ['--api-key ""', "--api-key=None", "--api-key None"])
def test_api_key_without_a_value_on_a_command_line(tmp_path: Path, words: str) -> None:
    text = f"#!/bin/sh\nvllm serve Qwen/Qwen3-8B {words} --port 8000\n"
    (row,) = _only(check_file(tmp_path, text, "serve.sh"), "VC114")
    assert row["line"] == 2
    (fixed,) = _fixed(tmp_path, text, "VC114", "serve.sh")
    assert "--api-key" not in fixed and "--port 8000" in fixed


def test_api_key_from_an_unset_variable_is_not_judged(tmp_path: Path) -> None:
    text = '#!/bin/sh\nvllm serve Qwen/Qwen3-8B --api-key "$KEY"\n'
    assert not _only(check_file(tmp_path, text, "serve.sh"), "VC114")


def test_dotted_key_spelled_twice(tmp_path: Path) -> None:
    text = "model: Qwen/Qwen3-8B\ncompilation-config.mode: 3\ncompilation_config.mode: 0\n"
    (row,) = _only(check_file(tmp_path, text), "VC108")
    assert row["line"] == 2
    assert "Found duplicate keys --compilation-config.mode" in str(row["message"])
    keep_later, keep_this = _fixed(tmp_path, text, "VC108")
    assert "mode: 3" not in keep_later and "mode: 0" in keep_later
    assert "mode: 3" in keep_this and "mode: 0" not in keep_this


def test_dotted_key_spelled_twice_on_a_command_line(tmp_path: Path) -> None:
    text = "#!/bin/sh\nvllm serve m --compilation-config.mode 3 --compilation_config.mode=0\n"
    (row,) = _only(check_file(tmp_path, text, "serve.sh"), "VC108")
    assert row["column"] == 14
    _fixed(tmp_path, text, "VC108", "serve.sh")


def test_dotted_keys_of_different_fields_are_silent(tmp_path: Path) -> None:
    text = "model: m\ncompilation-config.mode: 3\ncompilation_config.cudagraph_mode: FULL\n"
    assert not _only(check_file(tmp_path, text), "VC108")


def test_empty_media_domain_list_allows_every_domain(tmp_path: Path) -> None:
    text = "model: Qwen/Qwen2.5-VL-7B-Instruct\nallowed-media-domains: []\n"
    (row,) = _only(check_file(tmp_path, text), "VC113")
    assert "every domain" in str(row["message"]) and "security" in str(row["message"])


def test_false_on_a_value_flag_is_dropped(tmp_path: Path) -> None:
    text = "model: Qwen/Qwen3-8B\nhf-token: false\nreasoning-parser: false\n"
    rows = _only(check_file(tmp_path, text), "VC115")
    assert [r["line"] for r in rows] == [2, 3]
    assert "HF_HUB_DISABLE_IMPLICIT_TOKEN" in str(rows[0]["message"])
    assert "security" in str(rows[0]["message"])
    (fixed,) = _fixed(tmp_path, "model: Qwen/Qwen3-8B\nhf-token: false\n", "VC115")
    assert "hf-token" not in fixed


def test_false_on_a_switch_is_not_this_rule(tmp_path: Path) -> None:
    text = "model: Qwen/Qwen3-8B\ndisable-log-stats: false\nenable-prefix-caching: false\n"
    assert not _only(check_file(tmp_path, text), "VC115")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("model: m\nhf-token:\n", "serve.yaml"),
        ("model: m\nhf-token: 'false'\n", "serve.yaml"),
        ("#!/bin/sh\nvllm serve m --hf-token false\n", "serve.sh"),
    ],
)
def test_hf_token_switch_word_is_sent_as_the_token(tmp_path: Path, text: str, name: str) -> None:
    (row,) = _only(check_file(tmp_path, text, name), "VC116")
    assert "as the Hugging Face token" in str(row["message"])
    _fixed(tmp_path, text, "VC116", name)


@pytest.mark.parametrize("text", ["model: m\nhf-token: true\n", "model: m\nhf-token: hf_abc\n"])
def test_hf_token_login_or_real_token_is_silent(tmp_path: Path, text: str) -> None:
    assert not _only(check_file(tmp_path, text), "VC116")
