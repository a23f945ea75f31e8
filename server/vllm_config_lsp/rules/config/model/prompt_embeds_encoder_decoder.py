"""`enable-prompt-embeds` on an encoder-decoder model (Whisper, …).

## What vLLM does
Prompt embeddings replace the decoder's token embeddings, but encoder-decoder decoders
embed `input_ids` internally and accept no `inputs_embeds`. `ModelConfig` refuses the
combination once config.json says `is_encoder_decoder`: `--enable-prompt-embeds is not
supported with encoder-decoder models.` (vllm/config/model.py:1076-1081).

## Example
```yaml
model: openai/whisper-small
enable-prompt-embeds: true
```

## Fixed
```yaml
model: openai/whisper-small
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import error, given_field, removal
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC609"
NAME = "prompt-embeds-encoder-decoder"
VLLM_SOURCE = "vllm/config/model.py:1079"
CATALOGUE = ("model.prompt_embeds.encdec",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    embeds = given_field(model, "ModelConfig", "enable_prompt_embeds")
    if config is None or embeds is None or embeds.value is not True:
        return
    if not config.is_encoder_decoder:
        return
    yield error(
        CODE,
        embeds,
        "--enable-prompt-embeds is not supported with encoder-decoder models. "
        f"{config.where.name} is one (`is_encoder_decoder` in its config.json).",
        VLLM_SOURCE,
        [removal(model, embeds)],
    )
