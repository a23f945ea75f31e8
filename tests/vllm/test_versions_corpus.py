"""The real corpus, each file checked against the vLLM release its header names.

Every file in `tests/corpus/real/` says which vLLM it was written for (`# vLLM version: …`:
a release, a container tag, or a recipe's minimum version). A file its own vLLM accepted
must get no error from that release's catalogue: this is what makes the per-release
schemas and the per-release loader emulation trustworthy. Headers that name no release
(`not stated`, `latest`, `nightly`, a non-vLLM image) are covered by test_corpus.py
against 0.33.0 instead.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import CORPUS, VERSIONED, candidate_releases, header_version
from vllm_config_lsp.document.text_index import TextIndex
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import Severity
from vllm_config_lsp.vllm.catalogue import nearest_release

#: VC123: up to 0.7 `vllm serve` refuses a `model` key (the model must be its positional
#: argument). The corpus files of those releases were converted from command lines that gave
#: the model as `--model` to `python -m vllm.entrypoints.openai.api_server` or positionally,
#: so their `model:` line is the conversion's, not the author's: it is expected there.
CONVERSION_ARTEFACTS = {"VC123"}


def _errors(path: Path, version: str) -> list[str]:
    text = path.read_text(encoding="utf-8")
    index = TextIndex(text)
    return [
        f"{index.line_col(f.start)[0] + 1}: {f.code} {f.message}"
        for f in lint(text, version=version).findings
        if f.severity == Severity.ERROR and f.code not in CONVERSION_ARTEFACTS
    ]


def test_model_key_is_the_only_conversion_artefact() -> None:
    """The exemption above is exact: VC123 fires on every 0.6/0.7 corpus file (all have a
    `model:` line) and on no file of a later release."""
    fired = {}
    for name, version in VERSIONED:
        release = candidate_releases(version)[0]
        text = (CORPUS / "real" / name).read_text(encoding="utf-8")
        codes = {f.code for f in lint(text, version=release).findings}
        fired[name] = ("VC123" in codes, release.startswith(("0.6.", "0.7.")))
    assert all(hit == old for hit, old in fired.values()), fired
    assert sum(old for _, old in fired.values()) >= 8


@pytest.mark.parametrize(("name", "version"), VERSIONED, ids=[n for n, _ in VERSIONED])
def test_file_gets_no_error_on_its_own_release(name: str, version: str) -> None:
    """For a range, some release in it must accept the file (newest first). A vendor
    plugin's recipe (its header says so) was accepted with the plugin, which core vLLM of
    every release refuses without (`quantization: ascend`: VC303 wherever the check is)."""
    if "plugin recipe:" in (CORPUS / "real" / name).read_text(encoding="utf-8"):
        pytest.skip("accepted by vLLM with a vendor plugin the checks do not assume")
    results = {}
    for release in reversed(candidate_releases(version)):
        results[release] = _errors(CORPUS / "real" / name, release)
        if not results[release]:
            break
    accepted = [r for r, errors in results.items() if not errors]
    assert accepted, f"vLLM {version}: {results}"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("v0.6.2 (AIBrix build) (container image x/vllm-openai:v0.6.2-distributed)", "0.6.2"),
        ("0.8.5.post1 (log: ...)", "0.8.5.post1"),
        ("container image vllm/vllm-openai:v0.25.0 (tag names the release)", "0.25.0"),
        ("container image vllm/vllm-openai:latest", None),
        ("container image lmcache/vllm-openai:v0.3.7", None),
        ("image rocm/7.0:rocm7.0_ubuntu_22.04_vllm_0.10.1_instinct_20250927_rc1 (x)", "0.10.1"),
        ("not stated in the command; recipe declares min_vllm_version 0.20.0", ">=0.20.0"),
        ("not stated (Aug 2024 => v0.5.4)", None),
        (
            "vllm-ascend v0.11.0rc1 (container image quay.io/ascend/vllm-ascend:v0.11.0rc1-a3)",
            "0.11.0rc1",
        ),
    ],
)
def test_header_version(header: str, expected: str | None) -> None:
    assert header_version(f"# vLLM version: {header}\nmodel: x\n") == expected


def test_the_versioned_corpus_spans_many_releases() -> None:
    releases = {nearest_release(v) for _, v in VERSIONED if not v.startswith(">=")}
    assert len(VERSIONED) >= 80
    assert len(releases) >= 12
