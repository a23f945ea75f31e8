"""No input pins the single lint thread or the event loop: a backtracking glob in the
settings, a 128 KB line of spaces (content detection, completion at its end), 40,000
unknown keys or flags. Each took 30 s to minutes before (a quadratic regex, exponential
glob matching, a fuzzy search or a list scan per key); every wait here is bounded, only
enough to catch such a hang."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from raw_client import RawClient

LONG = 128 * 1024
BACKTRACKING = "*a*a*a*a*a*a*a*a*c"


@pytest.fixture(scope="module")
def server() -> Iterator[RawClient]:
    client = RawClient(
        options={
            "vllmConfig": {
                "debounceMs": 0,
                "associations": {"globs": [BACKTRACKING], "exclude": [BACKTRACKING]},
            }
        }
    )
    yield client
    client.close()


def _codes(server: RawClient, uri: str, version: int = 1) -> list[str]:
    return sorted({str(d.get("code")) for d in server.diagnostics(uri, version)})


def test_a_backtracking_glob_against_a_long_name(server: RawClient) -> None:
    uri = f"file:///linear/{'a' * 60}.yaml"  # neither glob matches: content decides
    server.open(uri, "model: m\nmax-num-seqs: x\n")
    assert _codes(server, uri) == ["VC201"]


def test_content_detection_of_a_long_line_of_spaces(server: RawClient) -> None:
    uri = "file:///linear/detected.yaml"
    server.open(uri, "max-num-seqs: x\nmodel" + " " * LONG + "\n")
    assert "VC201" in _codes(server, uri)  # checked: its keys are vLLM flags


def test_completion_at_the_end_of_a_long_line(server: RawClient) -> None:
    uri = "file:///linear/complete.vllm.yaml"
    text = "model: m\nmax" + " " * LONG
    server.open(uri, text)
    server.diagnostics(uri, 1)
    position = {"line": 1, "character": LONG + 3}
    ident = server.send_request(
        "textDocument/completion", {"textDocument": {"uri": uri}, "position": position}
    )
    hover = server.send_request(
        "textDocument/hover",
        {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}},
    )
    assert "error" not in server.answer(ident)
    assert "error" not in server.answer(hover)  # the request after it is answered too


@pytest.mark.parametrize(
    ("name", "text"),
    [
        # (the marker: keys that are almost all no flags make no config by content alone)
        (
            "keys.vllm.yaml",
            "# vllm-config\nmodel: m\n" + "".join(f"unknown-{i}: {i}\n" for i in range(40_000)),
        ),
        ("flags.sh", "vllm serve m " + " ".join(f"--unknown-{i} 1" for i in range(40_000)) + "\n"),
    ],
)
def test_forty_thousand_unknown_keys(server: RawClient, name: str, text: str) -> None:
    uri = f"file:///linear/{name}"
    server.open(uri, text)
    # 40,000 diagnostics take a while to build, send and read: a minute only catches the
    # hang (several minutes before)
    published = server.wait(lambda: server.published.get(uri), timeout=60)
    diagnostics = published[0]["diagnostics"]
    assert len(diagnostics) == 40_000 and {d["code"] for d in diagnostics} == {"VC101"}
    # the first ones still say what was meant
    assert sum("did you mean" in d["message"] for d in diagnostics) <= 200


def test_ten_thousand_command_lines_in_one_script(server: RawClient) -> None:
    """Each start looked at the whole script again (the file's plugin signs, `#SBATCH`,
    `--export`, every command's environment): 2,500 starts took 50 s per check, 10,000 some
    minutes. Now the keystroke re-reads one line, and the wait only catches a hang."""
    uri = "file:///linear/many.sh"
    lines = [f"vllm serve m{i} --max-num-seqs {i + 1}\n" for i in range(10_000)]
    server.open(uri, "#!/bin/bash\nexport VLLM_LOGGING_LEVEL=INFO\n" + "".join(lines))
    server.wait(lambda: server.published.get(uri), timeout=120)
    lines[5_000] = "vllm serve m --max-num-seqs lots\n"
    text = "#!/bin/bash\nexport VLLM_LOGGING_LEVEL=INFO\n" + "".join(lines)
    server.change(uri, 2, [{"text": text}])

    def checked() -> list[str] | None:
        for params in server.published.get(uri, []):
            if params.get("version") == 2:
                return [str(d.get("code")) for d in params["diagnostics"]]
        return None

    assert server.wait(checked, timeout=120) == ["VC201"]
