"""What `check` prints cannot be steered by the files it reads (issue 18, point 3).

Keys, values and paths reach every format; CI runners read workflow commands at the start of
any stdout or stderr line, terminals act on escape sequences, and a lone surrogate (a YAML
escape) cannot be encoded at all."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from support import bounded_cli, cli, cli_command
from vllm_config_lsp.cli.formats import EXCERPT_WIDTH

FORMATS = ["text", "github", "json", "sarif"]
#: Keys that would start workflow commands, colour the terminal, break lines for JavaScript
#: and log readers (NEL, U+2028) or hold DEL.
#: (The marker comment makes it a config: two of its three keys are no flags, which a name
#: alone no longer outweighs, issue 27.)
HOSTILE = (
    '# vllm-config\nmodel: m\n"x\\n::error file=src/app.py,line=1::owned\\n::add-mask::secret": 1\n'
    '"esc\\e[31mred\\x85nel\\u2028ls\\x7f": 2\n'
)
RAW_CONTROLS = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def _messages(output: str, output_format: str) -> list[str]:
    if output_format == "json":
        return [row["message"] for row in json.loads(output)]
    return [r["message"]["text"] for r in json.loads(output)["runs"][0]["results"]]


@pytest.mark.parametrize("output_format", FORMATS)
def test_keys_cannot_start_lines_or_send_controls(tmp_path: Path, output_format: str) -> None:
    (tmp_path / "serve.vllm.yaml").write_text(HOSTILE, encoding="utf-8")
    # a raw escape sequence (clear the screen) in the line the text format shows
    (tmp_path / "clear.vllm.yaml").write_text("model: m\n# \x1b[2J\n", encoding="utf-8")
    result = cli("check", "--format", output_format, str(tmp_path))
    assert result.returncode == 1
    assert not RAW_CONTROLS.search(result.stdout)
    lines = result.stdout.splitlines()
    if output_format == "text":
        assert not [line for line in lines if line.startswith("::")]
        assert "unrecognized arguments: --esc\\x1b[31mred\\x85nel\\u2028ls\\x7f" in result.stdout
    elif output_format == "github":
        ours = re.compile(r"::(error|warning|notice) file=[^,]*,line=\d+,col=\d+,endLine=\d+,")
        assert all(ours.match(line) for line in lines)
        assert len(lines) == 4
    else:  # JSON escapes keep the key as it is
        assert "unrecognized arguments: --esc\x1b[31mred\x85nel\u2028ls\x7f" in _messages(
            result.stdout, output_format
        )


def test_text_caret_stays_under_an_escaped_line(tmp_path: Path) -> None:
    """A tab before the finding is shown as two characters: the caret moves with it."""
    path = tmp_path / "serve.vllm.yaml"
    path.write_text('{"c\td": 1, max-num-seqs: lots}\n', encoding="utf-8")
    lines = cli("check", str(path)).stdout.splitlines()
    at = lines.index(next(line for line in lines if "VC201" in line))
    assert lines[at + 1 : at + 3] == ['    {"c\\td": 1, max-num-seqs: lots}', " " * 30 + "^^^^"]


@pytest.mark.parametrize("output_format", FORMATS)
def test_a_lone_surrogate_hides_no_report(tmp_path: Path, output_format: str) -> None:
    """`"\\ud800x": 1` is a key no encoder writes; the other file's findings still show."""
    (tmp_path / "a.vllm.yaml").write_text('model: m\n"\\ud800x": 1\n', encoding="utf-8")
    (tmp_path / "b.vllm.yaml").write_text("model: m\nmax-num-seqs: lots\n", encoding="utf-8")
    result = cli("check", "--format", output_format, str(tmp_path))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    if output_format in ("json", "sarif"):
        messages = _messages(result.stdout, output_format)
        assert "unrecognized arguments: --\ud800x" in messages
        assert "argument --max-num-seqs: invalid int value: 'lots'" in messages
    else:
        assert "unrecognized arguments: --\\ud800x" in result.stdout
        assert "argument --max-num-seqs: invalid int value: 'lots'" in result.stdout


def test_sarif_locations_are_uris(tmp_path: Path) -> None:
    folder = tmp_path / "sub dir"
    folder.mkdir()
    path = folder / "my config#1.vllm.yaml"
    path.write_text("model: m\nmax-num-seqs: lots\n", encoding="utf-8")

    def uris(*args: str, cwd: Path | None = None) -> set[str]:
        sarif = json.loads(cli("check", "--format", "sarif", *args, cwd=cwd).stdout)
        [result] = sarif["runs"][0]["results"]
        return {result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]}

    [absolute] = uris(str(path))
    assert absolute == path.as_uri()
    assert absolute.endswith("/sub%20dir/my%20config%231.vllm.yaml")
    assert unquote(urlsplit(absolute).path) == str(path)
    assert uris("sub dir/my config#1.vllm.yaml", cwd=tmp_path) == {
        "sub%20dir/my%20config%231.vllm.yaml"
    }


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    """`check DIR | head -1`: the reader leaves after one line of a 600 KB report."""
    (tmp_path / "a.vllm.yaml").write_text(
        "model: m\nmax-num-seqs: " + "x" * 200_000 + "\n", encoding="utf-8"
    )
    with subprocess.Popen(
        [*cli_command(), "check", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as child:
        assert child.stdout is not None and child.stderr is not None
        assert child.stdout.readline().startswith(str(tmp_path).encode())
        child.stdout.close()
        errors = child.stderr.read().decode()
        assert child.wait(timeout=120) == 1
    assert errors == ""


def test_a_long_line_is_shown_as_a_window_around_each_finding(tmp_path: Path) -> None:
    """A 100 KB command line with 20,000 unknown flags: each excerpt is a window of the line
    around its finding (the caret under the flag), not the whole line 20,000 times (2 GB of
    output, 10 GB of memory before; a MemoryError under the bound)."""
    words = [f"--u{number}" for number in range(20_000)]
    line = "vllm serve m " + " ".join(words)
    (tmp_path / "serve.sh").write_text(f"#!/bin/sh\n{line}\n", encoding="utf-8")
    result = bounded_cli("check", str(tmp_path / "serve.sh"))
    assert result.returncode == 1, result.stderr[-2000:]
    assert len(result.stdout) < 20 * 1024 * 1024
    lines = result.stdout.splitlines()
    shown = [(lines[at + 1], lines[at + 2]) for at, text in enumerate(lines) if "VC101" in text]
    assert len(shown) == len(words)
    for word, (excerpt, caret) in zip(words, shown, strict=True):
        assert len(excerpt) <= 4 + 3 + EXCERPT_WIDTH + 3
        column = len(caret) - len(caret.lstrip())
        assert excerpt[column:].startswith(word + " ") or excerpt[column:] == word
