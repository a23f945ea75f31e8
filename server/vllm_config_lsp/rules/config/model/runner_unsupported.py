"""`runner` (or `convert`) asks for something the served model's class cannot do.

## What vLLM does
Right after it has read config.json, `ModelConfig.__post_init__` looks the architecture up
in its model registry (an unregistered `…ForCausalLM`/`…Model` name is read as the
registered class with another suffix) and settles the runner: `auto` becomes `pooling`
for a sentence-transformers checkpoint (a `modules.json`) or a pooling class, else
`generate`; `convert: embed|classify` means `pooling`. Then it refuses
(vllm/config/model.py:715-737):
- a pooling-only class (BERT, RoBERTa, reward and classification models) with
  `runner: generate` or `draft`: `Embedding models do not support --runner generate`;
- `runner: generate` for a class that cannot produce logits;
- `runner: pooling` with `convert: none` for a class that is not a pooling model: vLLM
  only adapts a generative model into a pooling one through `convert: embed|classify`.
A speculative draft checkpoint is loaded the same way with `runner: draft`
(vllm/config/speculative.py:1412), so a pooling-only draft is refused too. These checks
run before anything is loaded, but only once the model's config.json has been fetched.
Models run through the Transformers modeling backend (`model-impl: transformers`, or an
architecture vLLM does not register) are not checked here.

## Example
```yaml
model: BAAI/bge-small-en-v1.5
runner: generate
```

## Fixed
```yaml
model: BAAI/bge-small-en-v1.5
runner: pooling
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import (
    POOLING_CONVERTS,
    draft,
    model_given,
    model_kind,
    resolve_runner,
    served,
    speculative,
)
from vllm_config_lsp.rules._engine import Given, error, removal, replace
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC619"
NAME = "runner-unsupported"
VLLM_SOURCE = "vllm/config/model.py:720"
CATALOGUE = ("model.runner.embedding", "model.runner.generate", "model.runner.pooling")

GENERATE_SOURCE = "vllm/config/model.py:728"
POOLING_SOURCE = "vllm/config/model.py:733"


#: Speculative methods whose branch never builds a draft ModelConfig from `model`
#: (vllm/config/speculative.py:1295-1373).
NO_DRAFT_CONFIG = ("ngram", "[ngram]", "ngram_gpu", "suffix", "custom_class")


def check(model: ConfigModel) -> Iterator[Finding]:
    yield from _served(model)
    yield from _draft(model)


def _draft(model: ConfigModel) -> Iterator[Finding]:
    """The draft checkpoint, loaded with `runner="draft"` and `model_impl="auto"`."""
    proposer, config = draft(model), speculative(model)
    if served(model) is None or proposer is None or proposer.config is None or not config:
        return
    method = config.get("method", (None,))[0]
    if method in NO_DRAFT_CONFIG or method == "extract_hidden_states":
        return
    kind = model_kind(proposer.config)
    if kind is None:
        return
    entry, generative, pooling = kind
    if pooling and not generative:
        yield error(
            CODE,
            Given(proposer.name, proposer.where, "speculative-config.model"),
            "Embedding models do not support `--runner draft`. Use `--runner pooling` or "
            f"`--runner auto` for embedding models. The draft {entry.name} "
            f"({proposer.name}) is a pooling-only model: it cannot propose tokens.",
            VLLM_SOURCE,
        )


def _served(model: ConfigModel) -> Iterator[Finding]:
    found = resolve_runner(model)
    config = served(model)
    if found is None or config is None or found.runner is None:
        return
    runner, convert = found.runner, found.convert
    where: Given = found.runner_given or found.convert_given or model_given(model)
    name = f"{found.arch} ({config.where.name})"
    if found.pooling and not found.generative and runner in ("draft", "generate"):
        fixes = []
        if found.runner_given is not None:
            fixes = [
                replace(model, found.runner_given, "pooling", "Set `runner: pooling`"),
                removal(model, found.runner_given, "Remove `runner` (auto picks pooling)"),
            ]
        yield error(
            CODE,
            where,
            f"Embedding models do not support `--runner {runner}`. Use `--runner pooling` "
            f"or `--runner auto` for embedding models. {name} is a pooling-only model "
            "(embeddings, scores, classification): it cannot generate text.",
            VLLM_SOURCE,
            fixes,
        )
        return
    if runner == "generate" and not found.generative:
        yield error(
            CODE,
            where,
            f"This model does not support `--runner generate`. {name} cannot produce "
            "logits for text generation.",
            GENERATE_SOURCE,
        )
        return
    if runner == "pooling" and not found.pooling and convert not in POOLING_CONVERTS:
        target = found.convert_given or where
        fixes = []
        if found.convert_given is not None:
            fixes = [
                replace(model, found.convert_given, "embed", "Set `convert: embed`"),
                replace(
                    model,
                    found.convert_given,
                    "classify",
                    "Set `convert: classify`",
                    preferred=False,
                ),
            ]
        yield error(
            CODE,
            target,
            "This model does not support `--runner pooling`. You can pass `--convert "
            f"<embed|classify> to adapt it into a pooling model. {name} is not a pooling "
            "model, and `convert: none` keeps it as it is.",
            POOLING_SOURCE,
            fixes,
        )
