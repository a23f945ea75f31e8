"""`check DIR` and `argv DIR` grow linearly with the folder: each folder is listed a fixed
number of times per run, not once per file in it (the image-tag lookup listed and sorted
the folder again for every file: 2,000 files took 41 s, 10,000 over ten minutes).

The listings are counted with CPython's audit events (`os.listdir`, `os.scandir`) in the
real CLI process, so the test needs neither a clock nor a hook in the product."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FILES = 60
#: The walk lists the folder twice (pathlib's `rglob` does), the image-tag lookup once.
MOST_LISTINGS = 3

#: The CLI (`python -m vllm_config_lsp`) with every directory listing counted by path.
COUNTING_CLI = """
import collections, json, os, runpy, sys
listed = collections.Counter()
def count(event, args):
    if event in ("os.listdir", "os.scandir") and isinstance(args[0], (str, bytes, os.PathLike)):
        listed[os.path.abspath(os.fsdecode(args[0]))] += 1
sys.addaudithook(count)
sys.argv = ["vllm-config-lsp", *sys.argv[2:]]
def dump():
    with open(os.environ["LISTINGS_OUT"], "w") as out:
        json.dump(listed, out)
exit_now = os._exit
def dumped_exit(status):  # the CLI ends its process with os._exit, past any `finally`
    dump()
    exit_now(status)
os._exit = dumped_exit
try:
    runpy.run_module("vllm_config_lsp", run_name="__main__", alter_sys=True)
finally:
    dump()
"""


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "configs"
    folder.mkdir()
    (folder / "Dockerfile").write_text("FROM vllm/vllm-openai:v0.10.1\n")
    for index in range(FILES):
        (folder / f"serve-{index:03}.vllm.yaml").write_text(
            f"model: org/model-{index}\nmax-num-seqs: {index + 1}\n"
        )
    return folder


def _run(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, int]]:
    out = tmp_path / "listings.json"
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}  # no vLLM to find there
    env["LISTINGS_OUT"] = str(out)
    done = subprocess.run(
        [sys.executable, "-c", COUNTING_CLI, "--", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    listings: dict[str, int] = json.loads(out.read_text())
    return done, listings


@pytest.mark.parametrize("command", ["check", "argv"])
def test_a_folder_is_listed_a_fixed_number_of_times(tmp_path: Path, command: str) -> None:
    folder = _folder(tmp_path)
    done, listings = _run(tmp_path, command, str(folder), "--format", "json")
    assert done.returncode == 0, done.stderr
    assert listings[str(folder)] <= MOST_LISTINGS, listings
    if command == "argv":  # and every file still gets the Dockerfile's release
        configs = [e for e in json.loads(done.stdout) if e["source"] == "config-file"]
        assert len(configs) == FILES
        assert {(e["vllm_version"], e["version_source"]) for e in configs} == {
            (
                "0.10.2",
                "vLLM 0.10.2 (for v0.10.1), from the image tag in Dockerfile, "
                "a file beside it (nothing here names one)",
            )
        }
