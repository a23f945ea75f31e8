"""`dspark_draft_topk` larger than the DSpark draft's vocabulary, or on a DSpark draft that
is not a Qwen3 one.

## What vLLM does
With a DSpark draft, `SpeculativeConfig.__post_init__` takes `dspark_draft_topk` from
`speculative-config` (or, when that is unset, from the draft's config.json) and checks it
against the draft's output vocabulary (`draft_vocab_size`, else `vocab_size`): `dspark_draft_topk
must be between 1 and the draft vocabulary size (151936)`. Only the Qwen3 DSpark drafters
implement the top-k head, so any other DSpark draft (a Gemma4/MuseSpark one, or an ordinary
checkpoint that vLLM rewrites into a DeepSeek-V4 `DSparkDraftModel`) is refused next:
`dspark_draft_topk is only supported by Qwen3DSparkModel and Qwen3OmniDSparkModel`
(vllm/config/speculative.py:1640-1671).

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  model: synthetic/qwen3-dspark
  num_speculative_tokens: 7
  dspark_draft_topk: 200000
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
speculative-config:
  model: synthetic/qwen3-dspark
  num_speculative_tokens: 7
  dspark_draft_topk: 8
```
"""

from __future__ import annotations

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._checkpoint import draft, draft_method, int_value, served, speculative
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.model_files import Resolved

CODE = "VC625"
NAME = "dspark-draft-topk"
VLLM_SOURCE = "vllm/config/speculative.py:1657"
CATALOGUE = ("spec.dspark_topk.range", "spec.dspark_topk.arch")

#: DSpark drafts that keep their architecture and implement the top-k head
#: (vllm/config/speculative.py:1532-1540, 1662-1669).
TOPK_ARCHS = ("Qwen3DSparkModel", "Qwen3OmniDSparkModel")


def supports_topk(proposer: Resolved) -> bool:
    """The draft's architecture once vLLM has rewritten it is a Qwen3 DSpark one."""
    config = proposer.config
    assert config is not None
    archs = config.architectures
    if any(a in archs for a in TOPK_ARCHS):
        return True
    return "DSparkDraftModel" in archs and config.model_type == "qwen3"


def topk_problem(
    model: ConfigModel, proposer: Resolved
) -> tuple[str, tuple[int, int]] | bool | None:
    """What vLLM says about `dspark_draft_topk` for a DSpark draft: (message, where), None
    when it passes (or is unset), False when this cannot tell."""
    config = speculative(model) or {}
    draft_config = proposer.config
    assert draft_config is not None
    written = config.get("dspark_draft_topk")
    if written is not None and written[0] is not None:
        topk, where = int_value(written[0]), written[1]
    else:
        raw_topk = draft_config.raw.get("dspark_draft_topk")
        if raw_topk is None:
            return None
        topk, where = int_value(raw_topk), proposer.where
    if topk is None:
        return False
    vocab = draft_config.raw.get("draft_vocab_size") or draft_config.raw.get("vocab_size")
    vocab = int_value(vocab)
    if vocab is None:
        return False
    if not 1 <= topk <= vocab:
        return (
            f"dspark_draft_topk must be between 1 and the draft vocabulary size ({vocab}); "
            f"got {topk}.",
            where,
        )
    if not supports_topk(proposer):
        return (
            "dspark_draft_topk is only supported by Qwen3DSparkModel and "
            f"Qwen3OmniDSparkModel; the draft is {draft_config.architectures}.",
            where,
        )
    return None


def spec_tokens_known(model: ConfigModel, proposer: Resolved) -> int | None:
    """`num_speculative_tokens` as vLLM has it when it reaches the DSpark checks: the
    written value, else the draft's top-level `block_size`/`dspark_block_size`."""
    config = speculative(model) or {}
    written = config.get("num_speculative_tokens")
    if written is not None and written[0] is not None:
        return int_value(written[0])
    assert proposer.config is not None
    raw = proposer.config.raw
    block = raw.get("block_size")
    if block is None:
        block = raw.get("dspark_block_size")
    return int_value(block)


def dspark_draft(model: ConfigModel) -> Resolved | None:
    """The resolved draft when `SpeculativeConfig` settles on DSpark for it."""
    if served(model) is None:
        return None
    proposer = draft(model)
    if proposer is None or proposer.config is None or proposer.name is None:
        return None
    if draft_method(model, proposer.config, proposer.name) != "dspark":
        return None
    if (speculative(model) or {}).get("xpress_topc", (None,))[0] is not None:
        return None  # refused first: xpress_topc is only supported by XPress
    if spec_tokens_known(model, proposer) is None:
        return None  # refused first: no num_speculative_tokens
    return proposer


def check(model: ConfigModel) -> Iterator[Finding]:
    proposer = dspark_draft(model)
    if proposer is None:
        return
    problem = topk_problem(model, proposer)
    if not isinstance(problem, tuple):
        return
    message, where = problem
    yield finding(CODE, Severity.ERROR, where, message, source=VLLM_SOURCE)
