"""schemas/models/registry.json is what tools/build_model_registry.py makes, offline, of the
committed tools/model_registry_sources.json, and every entry cites where it was read."""

from __future__ import annotations

import json
import subprocess
import sys

from support import REPO

TOOL = REPO / "tools" / "build_model_registry.py"


def test_registry_is_up_to_date_offline() -> None:
    done = subprocess.run(
        [sys.executable, str(TOOL), "--check"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_entry_cites_its_sources() -> None:
    registry = json.loads((REPO / "schemas" / "models" / "registry.json").read_text())
    for model_id, entry in registry["models"].items():
        assert set(entry["source"]) == {"repository", "path", "commit"}, model_id
        assert len(entry["source"]["commit"]) == 40, model_id
        for key in ("total_size", "hf_quant_config"):
            if key in entry:
                assert set(entry[f"{key}_source"]) == {"repository", "path", "commit"}, model_id
                assert len(entry[f"{key}_source"]["commit"]) == 40, model_id
    sources = json.loads((REPO / "tools" / "model_registry_sources.json").read_text())
    assert all(isinstance(why, str) and why for why in sources["unsourced"].values())


def test_coverage_of_the_corpus_lists_each_miss() -> None:
    """`--coverage` counts the corpus's literal Hub ids the registry has (and how many of
    them carry a sourced total_size) and lists the others (with why, where the sources file
    says it)."""
    done = subprocess.run(
        [sys.executable, str(TOOL), "--coverage", str(REPO / "tests" / "corpus")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    head, *misses = done.stdout.splitlines()
    hit, total = (int(n) for n in head.split(" literal")[0].split(" of "))
    assert total - hit == len(misses) > 0
    sized = int(head.split(", ")[-1].split(" of them")[0])
    assert head.endswith(" of them with a sourced total_size") and 0 <= sized <= hit
    models = json.loads((REPO / "schemas" / "models" / "registry.json").read_text())["models"]
    assert not [line for line in misses if line.split()[2] in models]
