"""Which `--reasoning-parser` a model family takes, as vLLM's reasoning outputs page lists
them (docs/features/reasoning_outputs.md): what replaces `--enable-reasoning` (removed in
0.10, where the parser alone turns reasoning on) for a model the command line names."""

from __future__ import annotations

import re

from vllm_config_lsp.vllm.config_model import ConfigModel

#: (model name pattern, parser), the first match wins (QwQ before Qwen3, R1 before V3).
FAMILIES = (
    (re.compile(r"qwq", re.I), "deepseek_r1"),
    (re.compile(r"deepseek-r1|r1-distill", re.I), "deepseek_r1"),
    (re.compile(r"deepseek-v3\.[12]", re.I), "deepseek_v3"),
    (re.compile(r"qwen3", re.I), "qwen3"),
    (re.compile(r"granite", re.I), "granite"),
    (re.compile(r"glm-4\.[5-6]", re.I), "glm45"),
    (re.compile(r"hunyuan-a13b", re.I), "hunyuan_a13b"),
    (re.compile(r"gpt-oss", re.I), "openai_gptoss"),
    (re.compile(r"magistral", re.I), "mistral"),
    (re.compile(r"ernie-4\.5", re.I), "ernie45"),
    (re.compile(r"minimax-m2", re.I), "minimax_m2"),
    (re.compile(r"seed-oss", re.I), "seed_oss"),
    (re.compile(r"step-?3", re.I), "step3"),
    (re.compile(r"mimo", re.I), "mimo"),
    (re.compile(r"kimi-k2", re.I), "kimi_k2"),
)


def reasoning_parser(model: ConfigModel) -> tuple[str, str] | None:
    """(the model's name, the parser its family takes in this release), when both are
    known and the command line sets no parser itself."""
    if model.flag("reasoning-parser") is not None:
        return None
    name = model.setting("ModelConfig", "model").value
    if not isinstance(name, str) or not name:
        return None
    known = model.catalogue.value_sets.get("reasoning_parsers")
    for pattern, parser in FAMILIES:
        if pattern.search(name):
            return (name, parser) if known is None or parser in known.values else None
    return None
