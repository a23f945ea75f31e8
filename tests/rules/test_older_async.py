"""The async-scheduling refusals of vLLM 0.11.2-0.32.0 (VC800, VC801; issue 33 item 4), through
the real CLI with `--vllm-version`: an error for each release whose wheel has the check, in
that release's words, none for a release without it, none for the near miss vLLM accepts,
and only the first of two refusals vLLM stops at. Oracle verdicts: tests/fidelity/cases/
releases/{0.11.2,0.15.1,0.28.0}/async-*.yaml. Also the one reading of the speculative method
that VC342 and VC398 share (`Spec.settled`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import cli

ASYNC = "async-scheduling: true\n"
NGRAM = (
    'speculative-config: \'{"method": "ngram", "num_speculative_tokens": 3, '
    '"prompt_lookup_max": 3}\'\n'
)
EAGLE3 = (
    'speculative-config: \'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", '
    '"num_speculative_tokens": 3%s}\'\n'
)
PADDED = EAGLE3 % ', "disable_padded_drafter_batch": true'
OURS = ("VC800", "VC801")

#: (file body after `model: m`, the rule, the key it points at, releases, release without,
#: vLLM's words in the releases named)
REFUSED = [
    (
        ASYNC + NGRAM,
        "VC800",
        "speculative-config",
        ("0.11.2", "0.13.0"),
        "0.33.0",
        "async scheduling is only supported with EAGLE/MTP kind of speculative decoding",
    ),
    (
        ASYNC + NGRAM,
        "VC800",
        "speculative-config",
        ("0.16.0", "0.17.1"),
        "0.33.0",
        "only supported with EAGLE/MTP/Draft Model kind of speculative decoding.",
    ),
    (
        ASYNC + NGRAM,
        "VC800",
        "speculative-config",
        ("0.18.1", "0.24.0"),
        "0.33.0",
        "EAGLE/MTP/Draft Model/NGram GPU kind of speculative decoding",
    ),
    (
        ASYNC + NGRAM,
        "VC800",
        "speculative-config",
        ("0.28.0", "0.32.0"),
        "0.33.0",
        "Currently, async scheduling is only supported with EAGLE/MTP/Draft Model/NGram GPU/",
    ),
    (
        ASYNC + PADDED,
        "VC800",
        "speculative-config",
        ("0.11.2", "0.13.0"),
        "0.33.0",
        "please set disable_padded_drafter_batch=Fasle",
    ),
    (
        ASYNC + PADDED,
        "VC800",
        "speculative-config",
        ("0.14.1", "0.22.1", "0.32.0"),
        "0.33.0",
        "Async scheduling is not compatible with disable_padded_drafter_batch=True.",
    ),
    (
        ASYNC + "pipeline-parallel-size: 2\n",
        "VC801",
        "pipeline-parallel-size",
        ("0.11.2", "0.14.1"),
        "0.15.1",
        "Async scheduling is not yet compatible with pipeline_parallel_size > 1.",
    ),
    (
        ASYNC + "distributed-executor-backend: ray\n",
        "VC801",
        "distributed-executor-backend",
        ("0.11.2", "0.15.1", "0.18.1"),
        "0.19.1",
        "distributed executor backend, but you chose `ray`.",
    ),
]

#: (file body vLLM accepts, releases that have the checks)
ACCEPTED = [
    (NGRAM, ("0.13.0", "0.28.0")),  # async scheduling left unset: vLLM turns it off instead
    ("async-scheduling: false\n" + NGRAM, ("0.18.1",)),
    (ASYNC + EAGLE3 % "", ("0.11.2", "0.15.1", "0.28.0")),
    (ASYNC + EAGLE3 % ', "disable_padded_drafter_batch": false', ("0.14.1", "0.28.0")),
    (
        ASYNC + 'speculative-config: \'{"method": "ngram_gpu", "num_speculative_tokens": 3, '
        '"prompt_lookup_max": 3}\'\n',
        ("0.18.1", "0.28.0"),
    ),
    # no method: a draft whose name says nothing may be MTP by its architecture
    (
        ASYNC + 'speculative-config: \'{"model": "org/draft", "num_speculative_tokens": 3}\'\n',
        ("0.11.2", "0.15.1"),
    ),
    (ASYNC + "pipeline-parallel-size: 1\n", ("0.11.2", "0.14.1")),
    ("pipeline-parallel-size: 2\n", ("0.11.2", "0.14.1")),
    (ASYNC + "distributed-executor-backend: mp\n", ("0.11.2", "0.18.1")),
    (ASYNC + "distributed-executor-backend: external_launcher\n", ("0.15.1",)),
]


def _errors(tmp_path: Path, body: str, version: str) -> list[dict[str, object]]:
    path = tmp_path / "serve.yaml"
    path.write_text(f"model: m\n{body}", encoding="utf-8")
    result = cli("check", str(path), "--format", "json", "--vllm-version", version)
    assert result.returncode in (0, 1), result.stderr
    return [r for r in json.loads(result.stdout) if r["severity"] == "error"]


@pytest.mark.parametrize(("body", "code", "key", "releases", "without", "phrase"), REFUSED)
def test_refused_by_the_releases_that_have_the_check(
    tmp_path: Path,
    body: str,
    code: str,
    key: str,
    releases: tuple[str, ...],
    without: str,
    phrase: str,
) -> None:
    line = 1 + next(n for n, text in enumerate(body.splitlines(), 1) if text.startswith(key))
    for version in releases:
        rows = [r for r in _errors(tmp_path, body, version) if r["code"] in OURS]
        assert [(r["code"], r["line"]) for r in rows] == [(code, line)], (version, rows)
        assert phrase in str(rows[0]["message"]), (version, rows[0]["message"])
        assert f"vLLM {version} refuses" in str(rows[0]["message"]), rows
    assert code not in [r["code"] for r in _errors(tmp_path, body, without)]


@pytest.mark.parametrize(("body", "releases"), ACCEPTED)
def test_near_miss_is_accepted(tmp_path: Path, body: str, releases: tuple[str, ...]) -> None:
    for version in releases:
        rows = _errors(tmp_path, body, version)
        assert not [r for r in rows if r["code"] in OURS], (version, rows)


@pytest.mark.parametrize(
    ("body", "version", "first"),
    [
        # 0.11.2-0.14.1 test pipeline parallelism first, then the method, then the backend
        (ASYNC + "pipeline-parallel-size: 2\n" + NGRAM, "0.13.0", "VC801"),
        (ASYNC + "pipeline-parallel-size: 2\n" + NGRAM, "0.15.1", "VC800"),
        (ASYNC + "distributed-executor-backend: ray\n" + NGRAM, "0.18.1", "VC800"),
        (ASYNC + "distributed-executor-backend: ray\n" + PADDED, "0.12.0", "VC800"),
    ],
)
def test_only_the_refusal_vllm_stops_at(
    tmp_path: Path, body: str, version: str, first: str
) -> None:
    rows = [r["code"] for r in _errors(tmp_path, body, version) if r["code"] in OURS]
    assert rows == [first]


FAST = "kv-sharing-fast-prefill: true\n"


@pytest.mark.parametrize(
    ("speculative", "refused"),
    [
        ('{"method": "eagle3", "model": "org/head", "num_speculative_tokens": 3}', True),
        # no method, or draft_model: vLLM detects EAGLE-3 from the draft's name
        ('{"model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}', True),
        (
            '{"method": "draft_model", "model": "yuhuili/EAGLE-LLaMA3-Instruct-8B", '
            '"num_speculative_tokens": 3}',
            True,
        ),
        ('{"method": "ernie_mtp", "num_speculative_tokens": 1}', True),  # an MTP name
        # a name that says nothing leaves the method to the draft's architecture
        ('{"model": "org/draft", "num_speculative_tokens": 3}', False),
        ('{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 3}', False),
    ],
)
def test_fast_prefill_reads_the_method_vllm_settles_on(
    tmp_path: Path, speculative: str, refused: bool
) -> None:
    """VC342 (refused with an EAGLE-style method) and VC398 (the caution vLLM logs after
    that check passes) read the same method: exactly one of them speaks."""
    path = tmp_path / "serve.yaml"
    path.write_text(f"model: m\n{FAST}speculative-config: '{speculative}'\n", encoding="utf-8")
    result = cli("check", str(path), "--format", "json")
    codes = [r["code"] for r in json.loads(result.stdout) if r["code"] in ("VC342", "VC398")]
    assert codes == (["VC342"] if refused else ["VC398"])


WATERMARK = 'watermark-config: \'{"key": 42, "algorithm": "dual_key_gumbel"}\'\n'


@pytest.mark.parametrize(
    ("release", "code"), [("0.33.0", "VC330"), ("0.32.0", "VC826"), ("0.31.0", "VC825")]
)
@pytest.mark.parametrize(
    ("speculative", "refused"),
    [
        # `draft_model` with an EAGLE-3 draft: vLLM settles on eagle3, which watermarking takes
        ('{"method": "draft_model", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"', False),
        # a draft whose name says nothing: its architecture decides, so no error
        ('{"method": "draft_model", "model": "org/draft"', False),
        ('{"method": "ngram", "prompt_lookup_max": 3', True),
        ('{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"', False),
    ],
)
def test_watermarking_reads_the_method_vllm_settles_on(
    tmp_path: Path, speculative: str, refused: bool, release: str, code: str
) -> None:
    """The method check (vllm/config/vllm.py:1377 in 0.33.0, 1311 in 0.32.0, 1323 in 0.31.0)
    tests `SpeculativeConfig.method` after `__post_init__` re-detected it, as VC342 does:
    never an error on a method vLLM settles into one watermarking supports."""
    body = f'{speculative}, "num_speculative_tokens": 3, "draft_sample_method": "probabilistic"}}'
    path = tmp_path / "serve.yaml"
    path.write_text(
        f"# vllm-config: version={release}\nmodel: m\n{WATERMARK}speculative-config: '{body}'\n",
        encoding="utf-8",
    )
    result = cli("check", str(path), "--format", "json")
    messages = [r["message"] for r in json.loads(result.stdout) if r["code"] == code]
    method_errors = [m for m in messages if m.startswith("Watermarking supports only")]
    assert bool(method_errors) == refused, messages
