"""Refusals only vLLM 0.6.6 to 0.9.2 have (issue 33 item 4; VC840-VC847), through the real
CLI with `--vllm-version`: an error at the setting for every release whose wheel has the raise
(docs/catalogue/older-raises.json lists them), none for the first release without it, and
none for the near miss each release accepts. The files leave the model to the command line
(0.6.6 and 0.7.3 refuse a `model` key: VC123). Oracle verdicts of 0.9.2:
tests/fidelity/cases/releases/0.9.2/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_older_raises import _codes, assert_refused

OURS = {f"VC84{n}" for n in range(8)}
OLD = ("0.6.6.post1", "0.7.3")
UP_TO_0_8 = (*OLD, "0.8.5.post1")
UP_TO_0_9 = (*UP_TO_0_8, "0.9.2")
NGRAM = '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4, %s}'
TYPICAL = '"acceptance_method": "typical_acceptance_sampler", '
SPEC_073 = 'speculative-model: "[ngram]"\nnum-speculative-tokens: 3\nngram-prompt-lookup-max: 4\n'

#: (file, the rule, the releases that refuse it, a release that does not, phrase)
REFUSED = [
    (
        "distributed-executor-backend: mp\nworker-use-ray: true\n",
        "VC840",
        ("0.6.6.post1",),
        "0.7.3",  # the switch is gone there (VC101)
        "worker-use-ray can't be used with distributed executor backend 'mp'.",
    ),
    (
        "tokenizer-pool-size: 2\ntokenizer-pool-type: thread\n",
        "VC841",
        OLD,
        "0.8.5.post1",
        "Unknown pool type: thread.",
    ),
    (
        "tokenizer-pool-size: 2\ntokenizer-pool-extra-config: '[1, 2]'\n",
        "VC841",
        OLD,
        "0.8.5.post1",
        "extra_config must be a dictionary.",
    ),
    (
        "quantization: bitsandbytes\n",
        "VC842",
        OLD,
        "0.8.5.post1",
        "only support 'bitsandbytes' load format, but got auto.",
    ),
    (
        "qlora-adapter-name-or-path: org/adapter\nload-format: bitsandbytes\n",
        "VC842",
        OLD,
        "0.8.5.post1",
        "only support 'bitsandbytes' quantization, but got None.",
    ),
    (
        "otlp-traces-endpoint: http://collector:4317\ncollect-detailed-traces: model,workers\n",
        "VC843",
        UP_TO_0_8,
        "0.9.2",  # argparse choices there (VC202)
        "Invalid module workers in collect_detailed_traces.",
    ),
    (
        "num-scheduler-steps: 0\n",
        "VC844",
        UP_TO_0_9,
        "0.10.2",
        "num_scheduler_steps (0) must be greater than or equal to 1.",
    ),
    (
        "enable-prompt-adapter: true\n",
        "VC845",
        UP_TO_0_9,
        "0.10.2",
        "max_prompt_adapter_token must be set.",
    ),
    (
        "enable-prompt-adapter: true\nmax-prompt-adapter-token: 8\nmax-prompt-adapters: 0\n",
        "VC845",
        UP_TO_0_9,
        "0.10.2",
        "max_prompt_adapters (0) must be >= 1.",
    ),
    (
        SPEC_073 + "typical-acceptance-sampler-posterior-alpha: -1\n",
        "VC846",
        OLD,
        "0.8.5.post1",
        "typical_acceptance_sampler_posterior_threshold = 0.09 and "
        "typical_acceptance_sampler_posterior_alpha = -1.0",
    ),
    (
        "speculative-config: '%s'\n" % (NGRAM % (TYPICAL + '"posterior_threshold": -0.1')),
        "VC847",
        ("0.8.5.post1", "0.9.2"),
        "0.10.2",
        "Instead found posterior_threshold = -0.1 and posterior_alpha = 0.3.",
    ),
]
#: (a file each release accepts, the releases that have the check it nearly trips)
ACCEPTED = [
    ("distributed-executor-backend: ray\nworker-use-ray: true\n", ("0.6.6.post1",)),
    ("worker-use-ray: true\n", ("0.6.6.post1",)),
    ("tokenizer-pool-size: 0\ntokenizer-pool-type: thread\n", OLD),
    ("tokenizer-pool-size: 2\ntokenizer-pool-extra-config: '{\"a\": 1}'\n", OLD),
    ("quantization: bitsandbytes\nload-format: bitsandbytes\n", OLD),
    ("quantization: bitsandbytes\n", ("0.8.5.post1", "0.9.2")),
    (
        "otlp-traces-endpoint: http://collector:4317\ncollect-detailed-traces: model,worker\n",
        UP_TO_0_8,
    ),
    ("num-scheduler-steps: 1\n", UP_TO_0_9),
    ("enable-prompt-adapter: true\nmax-prompt-adapter-token: 8\n", UP_TO_0_9),
    ("max-prompt-adapters: 0\n", UP_TO_0_9),
    (SPEC_073 + "typical-acceptance-sampler-posterior-alpha: 0\n", OLD),
    ("typical-acceptance-sampler-posterior-alpha: -1\n", OLD),
    ("speculative-config: '%s'\n" % (NGRAM % '"posterior_threshold": -0.1'), ("0.9.2",)),
    ("speculative-config: '%s'\n" % (NGRAM % (TYPICAL + '"posterior_alpha": 0')), ("0.9.2",)),
]


@pytest.mark.parametrize(("text", "code", "releases", "without", "phrase"), REFUSED)
def test_refused_by_the_releases_that_have_the_check(
    tmp_path: Path, text: str, code: str, releases: tuple[str, ...], without: str, phrase: str
) -> None:
    assert_refused(tmp_path, text, code, releases, without, phrase)


@pytest.mark.parametrize(("text", "releases"), ACCEPTED)
def test_near_miss_is_accepted(tmp_path: Path, text: str, releases: tuple[str, ...]) -> None:
    for version in releases:
        rows = _codes(tmp_path, text, version)
        assert not [r for r in rows if str(r["code"]) in OURS], (version, rows)
