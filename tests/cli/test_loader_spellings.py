"""Loader spellings whose place or value the CLI reports as vLLM 0.33.0 reads them: the
dotted list-append `key+: "a,b"`, YAML syntax errors at the construct that opens them,
a second document at its `---`, and `""` for a list of class names (issue 14)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support import cli

APPEND = 'model: m\ncompilation-config.encoder_cudagraph_token_budgets+: "512,0"\n'


def _check(tmp_path: Path, text: str, *extra: str) -> list[dict[str, Any]]:
    path = tmp_path / "serve.vllm.yaml"
    path.write_text(text)
    rows: list[dict[str, Any]] = json.loads(
        cli("check", str(path), "--format", "json", *extra).stdout
    )
    return rows


def _where(rows: list[dict[str, Any]]) -> list[tuple[str, int, int, int, int]]:
    return [(r["code"], r["line"], r["column"], r["end_line"], r["end_column"]) for r in rows]


def test_a_list_append_is_split_at_commas_and_each_item_checked(tmp_path: Path) -> None:
    """`--a.b+ 512,0` is `["512", "0"]` for vLLM, which pydantic makes `[512, 0]`: the
    seed rule sees the zero, on its own character inside the quotes."""
    [row] = _check(tmp_path, APPEND)
    assert _where([row]) == [("VC301", 2, 59, 2, 60)]
    assert "got [512, 0]" in row["message"]
    assert row["fix"]["title"] == "Remove the non-positive budget (keep [512])"


def test_the_append_fix_leaves_the_valid_budget(tmp_path: Path) -> None:
    path = tmp_path / "serve.vllm.yaml"
    path.write_text(APPEND)
    cli("check", str(path), "--fix")
    assert path.read_text() == (
        'model: m\ncompilation-config.encoder_cudagraph_token_budgets+: "512"\n'
    )
    assert cli("check", str(path)).returncode == 0


def test_appends_of_two_spellings_are_concatenated(tmp_path: Path) -> None:
    """Both keys fold to `--compilation-config.…+`; their lists join (argparse_utils.py:440)."""
    text = (
        "model: m\n"
        'compilation-config.encoder_cudagraph_token_budgets+: "512"\n'
        'compilation_config.encoder_cudagraph_token_budgets+: "1024, 0"\n'
    )
    [row] = _check(tmp_path, text)
    assert _where([row]) == [("VC301", 3, 60, 3, 62)]
    assert "got [512, 1024, 0]" in row["message"]


def test_a_sole_zero_is_not_removed_into_an_empty_item(tmp_path: Path) -> None:
    """Removing the only item would write `""`, which vLLM reads as one empty item."""
    text = 'model: m\ncompilation-config.encoder_cudagraph_token_budgets+: "0"\n'
    [row] = _check(tmp_path, text)
    assert row["code"] == "VC301"
    title = "Remove `encoder_cudagraph_token_budgets` (vLLM picks the budgets)"
    assert row["fix"]["title"] == title


def test_an_unclosed_quote_is_reported_at_the_quote(tmp_path: Path) -> None:
    text = 'model: m\nserved-model-name: "my-model\nmax-model-len: 4096\nport: 8000\n'
    rows = [r for r in _check(tmp_path, text) if r["code"] == "VC001"]
    assert _where(rows) == [("VC001", 2, 20, 2, 29)]
    assert "found unexpected end of stream (line 5, the end of the file)" in rows[0]["message"]


def test_an_unclosed_flow_sequence_is_reported_at_its_bracket(tmp_path: Path) -> None:
    text = "model: m\napi-key: [a, b\nport: 8000\n"
    rows = [r for r in _check(tmp_path, text) if r["code"] == "VC001"]
    assert _where(rows) == [("VC001", 2, 10, 2, 15)]
    assert "expected ',' or ']', but got ':' (line 3)" in rows[0]["message"]


def test_a_far_unclosed_quote_is_reported_once_and_the_rest_checked(tmp_path: Path) -> None:
    text = 'model: m\nchat-template: "x.jinja\n' + "".join(
        f"seed: {n}\n" for n in range(10)
    ).replace("seed: 9", "max-num-seqs: lots")
    rows = _check(tmp_path, text)
    assert [r["line"] for r in rows if r["code"] == "VC001"] == [2]
    assert "VC201" in {r["code"] for r in rows}  # `lots`, twelve lines below the quote


def test_a_second_document_is_reported_at_its_marker(tmp_path: Path) -> None:
    text = "model: m\n# the rest\n---  # more\n\nport: 8000\n"
    assert _where(_check(tmp_path, text)) == [("VC003", 3, 1, 3, 4)]


def test_an_empty_item_in_logits_processors_is_refused(tmp_path: Path) -> None:
    """`type[LogitsProcessor]` takes no text: None fails both members of the union."""
    rows = _check(tmp_path, "model: m\nlogits-processors: [my_pkg.Proc, '']\n")
    assert _where(rows) == [("VC209", 2, 34, 2, 36)]
    assert "Input should be a valid string" in rows[0]["message"]
    assert _check(tmp_path, "model: m\nlogits-processors: [my_pkg.Proc]\n") == []


WATERMARK = "model: m\nwatermark-config:\n  key: 42\n  alpha: 0.5\nwatermark-config.alpha: 0.5\n"


def test_dotted_keys_replacing_a_required_field_are_an_error_at_the_mapping(
    tmp_path: Path,
) -> None:
    """vLLM appends the dotted object after every argument: `key` is gone and
    WatermarkConfig refuses (recorded: loader/dotted-replaces-required-key)."""
    rows = _check(tmp_path, WATERMARK)
    [repeated] = [r for r in rows if r["code"] == "VC108"]
    assert (repeated["severity"], repeated["line"]) == ("error", 2)
    assert "(`key` written here are lost)" in repeated["message"]
    assert (
        "without `key` vLLM refuses to start: WatermarkConfig key: Field required"
        in (repeated["message"])
    )
    assert ("VC207", 5) in {(r["code"], r["line"]) for r in rows}


def test_the_same_when_the_dotted_key_comes_first_or_the_mapping_is_json(
    tmp_path: Path,
) -> None:
    first = "model: m\nwatermark-config.alpha: 0.5\nwatermark-config: {key: 42}\n"
    [repeated] = [r for r in _check(tmp_path, first) if r["code"] == "VC108"]
    assert (repeated["severity"], repeated["line"]) == ("error", 3)
    json_text = "model: m\nwatermark-config: '{\"key\": 42}'\nwatermark-config.alpha: 0.5\n"
    [repeated] = [r for r in _check(tmp_path, json_text) if r["code"] == "VC108"]
    assert (repeated["severity"], repeated["line"]) == ("error", 2)


def test_dotted_keys_keeping_the_required_field_only_warn(tmp_path: Path) -> None:
    text = "model: m\nwatermark-config:\n  key: 42\n  alpha: 0.5\nwatermark-config.key: 7\n"
    [row] = _check(tmp_path, text)
    assert (row["code"], row["severity"], row["line"]) == ("VC108", "warning", 2)
    assert "(`alpha` written here are lost)" in row["message"]


def test_a_mapping_item_under_a_dotted_key_is_its_python_repr(tmp_path: Path) -> None:
    """`- full_attention: X` is one item: `str(dict)`, no JSON, which the field's before
    validator leaves to the declared `dict` type: refused (recorded:
    loader/dotted-list-item-mapping)."""
    text = "model: m\nattention-config.backend_per_kind:\n- full_attention: FLASH_ATTN\n"
    [row] = _check(tmp_path, text)
    assert (row["code"], row["line"]) == ("VC206", 3)
    assert row["message"].startswith("Input should be an object")
    text = "model: m\nattention-config.backend_per_kind: {full_attention: FLASH_ATTN}\n"
    assert _check(tmp_path, text) == []


def test_a_yaml_list_under_an_append_key_is_fixed_into_one_text(tmp_path: Path) -> None:
    """`key+: [512, 1024]` gives `--key+ 512` and a stray `1024`; the JSON string VC109
    offers for plain dotted keys would be split at its comma too, so the fix writes the
    comma-separated text the append form reads."""
    path = tmp_path / "serve.vllm.yaml"
    path.write_text("model: m\ncompilation-config.encoder_cudagraph_token_budgets+: [512, 1024]\n")
    rows = json.loads(cli("check", str(path), "--format", "json").stdout)
    [row] = [r for r in rows if r["code"] == "VC109"]
    assert "(the list of that one item)" in row["message"]
    assert row["fix"]["title"] == "Write the items as the text '512,1024'"
    cli("check", str(path), "--fix")
    assert path.read_text().endswith("_budgets+: '512,1024'\n")
    assert cli("check", str(path)).returncode == 0
