"""The scheduler's token and sequence limits contradict each other or `max-model-len`.

## What vLLM does
`SchedulerConfig.verify_max_model_len` (vllm/config/scheduler.py:317-362), run when the
engine config is built, refuses, in this order:
- with chunked prefill off, `max_num_batched_tokens` below `max_model_len` (a prompt
  longer than one batch could never be scheduled);
- `max_num_batched_tokens` below `max_num_seqs` (every running sequence needs at least one
  token slot per step);
- `max_num_active_seqs` above `max_num_seqs`;
- `long_prefill_token_threshold` above `max_model_len` (no prompt could ever be "long").

The defaults of these fields come from the model (`max_model_len`, whether chunked prefill
is on) and from the platform and usage context (`max_num_seqs`,
`max_num_batched_tokens`), and vLLM picks them so that they agree. So this rule compares
values the file sets itself, with one exception: `max_num_seqs` left to vLLM is never
above 1024 or 256 per GPU of the world size (doubled with `performance-mode: throughput`)
on any platform or usage context (`EngineArgs.get_batch_defaults`,
vllm/engine/arg_utils.py:2973-3037), so a `max_num_active_seqs` above that bound is
refused whatever the hardware; and a `max_num_batched_tokens` left to vLLM is never above
the largest platform default (16384, or 2048 per rank on CPUs; doubled with
`performance-mode: throughput`) or `max-model-len`, so a `max-num-seqs` above both (say
2^63) is refused too. A `max-model-len` left to the model is taken as below 2^63 (no
model's positions reach int64's limit), so 2^63 in `max-num-seqs` or
`long-prefill-token-threshold` is refused whatever the model. Chunked prefill left to
vLLM is off wherever the file's `pooler-config` asks for MEAN or CLS sequence pooling (or
STEP token pooling), even on a generative runner (vllm/config/model.py:2193-2228; hybrid
and attention-free models keep it), so there the first check applies too. Encoder-decoder
models (Whisper) switch chunked prefill off and reset the threshold to 0 whatever the file
says.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
max-num-seqs: 512
max-num-batched-tokens: 256
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
max-num-seqs: 256
max-num-batched-tokens: 8192
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import (
    pooling_turns_chunked_off,
    registry_flag,
    resolve_runner,
    served,
)
from vllm_config_lsp.rules._engine import (
    Given,
    error,
    field_value,
    given,
    given_field,
    is_int,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC311"
NAME = "scheduler-limits"
VLLM_SOURCE = "vllm/config/scheduler.py:332"
CATALOGUE = (
    "sched.batched_vs_model_len",
    "sched.batched_vs_seqs",
    "sched.active_vs_seqs",
    "sched.long_prefill_vs_len",
)

MODEL_LEN_SOURCE = "vllm/config/scheduler.py:322"
ACTIVE_SOURCE = "vllm/config/scheduler.py:342"
LONG_PREFILL_SOURCE = "vllm/config/scheduler.py:356"
CLASS = "SchedulerConfig"
WORLD = ("pipeline_parallel_size", "tensor_parallel_size")


def check(model: ConfigModel) -> Iterator[Finding]:
    batched = given_field(model, CLASS, "max_num_batched_tokens")
    seqs = given_field(model, CLASS, "max_num_seqs")
    active = given_field(model, CLASS, "max_num_active_seqs")
    threshold = given_field(model, CLASS, "long_prefill_token_threshold")
    chunked = given_field(model, CLASS, "enable_chunked_prefill")
    model_len = given(model, "max-model-len")
    if model_len is not None and not (is_int(model_len.value) and model_len.value > 0):
        model_len = None  # `auto` / -1: the model decides
    if batched is not None and is_int(batched.value):
        off = chunked if chunked is not None else pooling_turns_chunked_off(model)
        if (
            off is not None
            and off.value is not True
            and model_len is not None
            and batched.value < model_len.value
        ):
            why = (
                f"keep chunked prefill on: `{off.label}` turns it off"
                if off is chunked
                else f"`{off.label}` turns chunked prefill off, whatever the runner"
            )
            yield error(
                CODE,
                batched,
                f"max_num_batched_tokens ({batched.value}) is smaller than "
                f"max_model_len ({model_len.value}). This effectively limits the "
                "maximum sequence length to max_num_batched_tokens and makes vLLM "
                "reject longer sequences. Please increase max_num_batched_tokens or "
                f"decrease max_model_len ({why}).",
                MODEL_LEN_SOURCE,
            )
            return
        if seqs is not None and is_int(seqs.value) and batched.value < seqs.value:
            yield error(
                CODE,
                batched,
                f"max_num_batched_tokens ({batched.value}) must be greater than or equal "
                f"to max_num_seqs ({seqs.value}). Raise `{batched.label}` or lower "
                f"`{seqs.label}`.",
                VLLM_SOURCE,
            )
            return
    elif seqs is not None and is_int(seqs.value) and batched is None:
        on = (chunked is not None and chunked.value is True) or _chunks_by_default(model)
        bound = _batched_limit(model, None if on else model_len, raised=not on)
        if bound is not None and seqs.value > bound:
            most = bound if on or model_len is not None else "the model's max_model_len, below 2^63"
            yield error(
                CODE,
                seqs,
                f"max_num_batched_tokens (unset: vLLM's default is at most {most} here) "
                f"must be greater than or equal to max_num_seqs ({seqs.value}). Lower "
                f"`{seqs.label}`, or set `max-num-batched-tokens` at least as high.",
                VLLM_SOURCE,
            )
            return
    if active is not None and is_int(active.value):
        limit = _seqs_limit(model, seqs)
        if limit is not None and active.value > limit[0]:
            yield error(
                CODE,
                active,
                f"max_num_active_seqs ({active.value}) cannot be greater than max_num_seqs "
                f"({limit[1]}). Lower `{active.label}` or raise `max-num-seqs`.",
                ACTIVE_SOURCE,
            )
            return
    longest = model_len.value if model_len is not None else LONGEST_CONTEXT
    if threshold is not None and is_int(threshold.value) and threshold.value > longest:
        said = model_len.value if model_len is not None else MODEL_LEN_UNSET
        yield error(
            CODE,
            threshold,
            f"long_prefill_token_threshold ({threshold.value}) cannot be greater than the "
            f"max_model_len ({said}). Lower `{threshold.label}` (0 lets vLLM "
            "choose) or raise max_model_len.",
            LONG_PREFILL_SOURCE,
        )


def _seqs_limit(model: ConfigModel, seqs: Given | None) -> tuple[int, str] | None:
    """The largest `max_num_seqs` vLLM can end up with, and how to say it."""
    if seqs is not None:
        return (seqs.value, str(seqs.value)) if is_int(seqs.value) else None
    sizes = [field_value(model, "ParallelConfig", name) for name in WORLD]
    if not all(is_int(size) and size > 0 for size in sizes):
        return None
    bound = max(1024, 256 * sizes[0] * sizes[1])
    if field_value(model, "VllmConfig", "performance_mode") == "throughput":
        bound *= 2
    return bound, f"unset: vLLM's default is at most {bound} for this world size"


#: The largest `max_num_batched_tokens` default of `get_batch_defaults` for the API server
#: on any platform (vllm/engine/arg_utils.py:2973-3037): 16384 on GPUs of 160 GB or more
#: (less on others, TPUs and batched DP MoE), 2048 per GPU of the world size on CPUs.
LARGEST_BATCH_DEFAULT = 16384
CPU_BATCH_DEFAULT_PER_RANK = 2048


#: The longest context any model can have: vLLM derives `max_model_len` from the model's
#: config.json as a Python int, but indexes positions with int64 tensors, so no model reaches
#: 2^63 tokens. A limit set to 2^63 or more is above `max_model_len` whatever the model.
LONGEST_CONTEXT = 2**63 - 1
MODEL_LEN_UNSET = "unset: the model's, below 2^63"


def _chunks_by_default(model: ConfigModel) -> bool:
    """Chunked prefill is on without the file saying so: a generative run, without
    `pooler-config`, of a text-only decoder whose files are known
    (`ModelConfig.is_chunked_prefill_supported`, vllm/config/model.py:2193-2236: only
    encoder-decoder models lose it). Then the default batch stays the platform's, never
    raised to `max_model_len` (arg_utils.py:3194) nor to one multimodal item's tokens."""
    resolved = resolve_runner(model)
    config = served(model)
    if resolved is None or config is None or resolved.runner != "generate":
        return False
    if config.is_encoder_decoder or given(model, "pooler-config") is not None:
        return False
    return registry_flag(model, resolved.arch, "supports_multimodal") is False


def _batched_limit(model: ConfigModel, model_len: Given | None, *, raised: bool) -> int | None:
    """The largest `max_num_batched_tokens` vLLM can default to
    (`_set_default_max_num_seqs_and_batched_tokens_args`, arg_utils.py:3147-3225): the
    platform's default, doubled by `performance-mode: throughput`, raised to
    `max_model_len` when chunked prefill is off (and, for a multimodal prefix-LM, to one
    item's tokens, which fit in `max_model_len`), then capped at `max_num_seqs x
    max_model_len`. A `max_model_len` left to the model is below 2^63 (`LONGEST_CONTEXT`);
    with chunked prefill on (not `raised`), the platform's default is the limit. None when
    the world size is not known."""
    sizes = [field_value(model, "ParallelConfig", name) for name in WORLD]
    if not all(is_int(size) and size > 0 for size in sizes):
        return None
    world: int = sizes[0] * sizes[1]
    bound = max(LARGEST_BATCH_DEFAULT, CPU_BATCH_DEFAULT_PER_RANK * world)
    if field_value(model, "VllmConfig", "performance_mode") == "throughput":
        bound *= 2
    if not raised:
        return bound
    length: int = model_len.value if model_len is not None else LONGEST_CONTEXT
    return max(bound, length)
