"""Scheduler limits that vLLM 0.6.6 to 0.10.2 refuse in `SchedulerConfig._verify_args`.

## What vLLM does
Up to the releases this rule names (`vllm-config-lsp rules VC358`),
`SchedulerConfig._verify_args` refuses (vllm/config/scheduler.py:275-301 in 0.10.2): a
negative `num-lookahead-slots` ("num_lookahead_slots (-1) must be greater than or equal to
0."), `max-num-partial-prefills` below 1, `max-num-partial-prefills` above 1 with chunked
prefill turned off ("Chunked prefill must be enabled to set max_num_partial_prefills >
1."), and `max-long-partial-prefills` below 1 or above `max-num-partial-prefills`. Later
releases moved the partial-prefill checks to `verify_max_model_len` in other words and
dropped the lookahead one (the field got a pydantic bound). Chunked prefill counts as off
only when the file turns it off: its default depends on the platform.

## Example
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
max-num-partial-prefills: 2
max-long-partial-prefills: 3
```

## Fixed
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
max-num-partial-prefills: 2
max-long-partial-prefills: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import is_int
from vllm_config_lsp.rules._frontend import Arg, args
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC358"
NAME = "scheduler-verify-args"
#: Gone from the release the other rules transcribe: read from 0.10.2, run for the
#: releases whose wheel has the same checks.
TRANSCRIBES = "0.10.2"
SOURCE = "vllm/config/scheduler.py:{}"
VLLM_SOURCE = "vllm/config/scheduler.py:276"
#: The raise lines of 0.10.2: lookahead, partial below 1, chunked prefill off, long.
LINES = (276, 282, 287, 299)
FLAGS = (
    "num-lookahead-slots",
    "max-num-partial-prefills",
    "max-long-partial-prefills",
    "enable-chunked-prefill",
)


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, *FLAGS)
    if a is None:
        return
    lookahead, partial = a["num_lookahead_slots"], a["max_num_partial_prefills"]
    long, chunked = a["max_long_partial_prefills"], a["enable_chunked_prefill"]
    if _set(lookahead) and lookahead.value < 0:
        yield _refusal(
            model,
            lookahead,
            276,
            f"num_lookahead_slots ({lookahead.value}) must be greater than or equal to 0.",
        )
        return
    partials = partial.value if is_int(partial.value) else 1
    if _set(partial) and partials < 1:
        yield _refusal(
            model,
            partial,
            282,
            f"max_num_partial_prefills ({partials}) must be greater than or equal to 1.",
        )
        return
    if _set(partial) and partials > 1 and chunked.explicit and chunked.value is False:
        yield _refusal(
            model,
            partial,
            287,
            "Chunked prefill must be enabled to set max_num_partial_prefills > 1.",
        )
        return
    if _set(long) and not 1 <= long.value <= partials:
        yield _refusal(
            model,
            long,
            299,
            f"max_long_partial_prefills ({long.value}) must be greater than or equal to 1 "
            f"and less than or equal to max_num_partial_prefills ({partials}).",
        )


def _set(arg: Arg) -> bool:
    return arg.explicit and is_int(arg.value)


def _refusal(model: ConfigModel, where: Arg, line: int, said: str) -> Finding:
    return finding(
        CODE,
        Severity.ERROR,
        where.where,
        f"{said} vLLM {model.version} refuses to start.",
        source=SOURCE.format(line),
    )
