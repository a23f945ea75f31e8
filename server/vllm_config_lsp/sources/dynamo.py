"""NVIDIA Dynamo's vLLM worker, `python3 -m dynamo.vllm`: its own flags, taken out first.

Dynamo's worker parses its command line in two steps (ai-dynamo/dynamo
`components/src/dynamo/vllm/args.py`, `parse_args`): an `argparse.ArgumentParser(allow_abbrev=
False)` that holds only Dynamo's runtime and worker flags takes them out with
`parse_known_args`, and what it leaves, in order, goes to a `FlexibleArgumentParser` holding
`AsyncEngineArgs.add_cli_args`: vLLM's engine arguments (`--model` a flag, no positional
model, as the API server module reads them). So the words vLLM receives are the command
line without Dynamo's flags and their values; `engine_words` makes them.

The flags are transcribed from `components/src/dynamo/common/configuration/groups/
runtime_args.py` (`DynamoRuntimeArgGroup`) and `components/src/dynamo/vllm/backend_args.py`
(`DynamoVllmArgGroup`), the revisions tests/sources/data/dynamo/SOURCES.md names, plus the
role and benchmark flags later revisions add (`--disaggregation-mode`, `--headless`, …), so
that a flag of any of them is never taken for an unknown vLLM flag. One revision's
`--enforce-eager` (a diffusion-engine switch of its `--omni` mode) is left to vLLM, which
every other revision hands it to.
"""

from __future__ import annotations

from collections.abc import Sequence

from vllm_config_lsp.sources.invocation import Word

__all__ = ["MODULE", "engine_words"]

#: The module Dynamo's vLLM worker runs as.
MODULE = "dynamo.vllm"

#: `add_negatable_bool_argument` (`argparse.BooleanOptionalAction`): `--x` and `--no-x`.
_SWITCHES = frozenset(
    {
        # runtime_args.py
        "--fpm-trace",
        "--exclude-tools-when-tool-choice-none",
        "--dyn-enable-structural-tag",
        "--multimodal-embedding-cache-publisher",
        "--tcp-tls-insecure",
        "--nats-tls-insecure",
        # backend_args.py
        "--is-prefill-worker",
        "--is-decode-worker",
        "--use-vllm-tokenizer",
        "--route-to-encoder",
        "--multimodal-encode-worker",
        "--multimodal-worker",
        "--multimodal-decode-worker",
        "--enable-multimodal",
        "--enable-rl",
        "--frontend-decoding",
        "--embedding-worker",
        "--headless",
        "--gms-shadow-mode",
        "--warmup",
        "--omni",
        "--enable-layerwise-offload",
        "--vae-use-slicing",
        "--vae-use-tiling",
        "--enable-cache-dit-summary",
        "--enable-cpu-offload",
    }
)
#: `add_argument` with one value (`--x v` or `--x=v`).
_VALUED = frozenset(
    {
        # runtime_args.py
        "--namespace",
        "--endpoint",
        "--kv-state-endpoint",
        "--discovery-backend",
        "--request-plane",
        "--response-plane",
        "--event-plane",
        "--dyn-tool-call-parser",
        "--dyn-reasoning-parser",
        "--dyn-default-thinking-mode",
        "--dyn-structural-tag-scope",
        "--dyn-structural-tag-schema",
        "--custom-jinja-template",
        "--endpoint-types",
        "--dump-config-to",
        "--multimodal-embedding-cache-capacity-gb",
        "--media-output-fs-url",
        "--media-output-http-url",
        "--health-check-payload",
        "--engine-request-limit",
        "--tcp-tls-cert-path",
        "--tcp-tls-key-path",
        "--tcp-tls-ca-cert-path",
        "--tcp-tls-server-name",
        "--tcp-tls-handshake-timeout",
        "--tcp-tls-client-cert-path",
        "--tcp-tls-client-key-path",
        "--tcp-tls-client-ca-cert-path",
        "--nats-tls-ca-cert-path",
        "--nats-tls-client-cert-path",
        "--nats-tls-client-key-path",
        # backend_args.py
        "--disaggregation-mode",
        "--sleep-mode-level",
        "--mm-prompt-template",
        "--custom-encoder-class",
        "--embedding-transfer-mode",
        "--model-express-url",
        "--benchmark-mode",
        "--prefill-max-new-token-samples",
        "--prefill-max-kv-read-token-samples",
        "--decode-max-kv-read-token-samples",
        "--decode-max-batch-size-samples",
        "--prefix-max-batch-size-samples",
        "--benchmark-prefill-granularity",
        "--benchmark-prefill-kv-read-granularity",
        "--benchmark-prefill-batch-granularity",
        "--benchmark-decode-length-granularity",
        "--benchmark-decode-batch-granularity",
        "--benchmark-warmup-iterations",
        "--benchmark-output-path",
        "--benchmark-timeout",
        "--warmup-input-lens",
        "--warmup-output-tokens",
        "--warmup-concurrency",
        "--warmup-iterations",
        "--warmup-timeout",
        "--stage-configs-path",
        "--video-output-dir",
        "--default-video-fps",
        "--layerwise-num-gpu-layers",
        "--boundary-ratio",
        "--flow-shift",
        "--diffusion-cache-backend",
        "--diffusion-cache-config",
        "--ulysses-degree",
        "--ring-degree",
        "--cfg-parallel-size",
        # the single-parser args.py before the argument groups
        "--migration-limit",
        "--dynamo-port-min",
        "--dynamo-port-max",
    }
)
#: `nargs="*"`: every following word up to the next option.
_LISTS = frozenset({"--connector", "--output-modalities"})
#: `nargs="?"`: the next word when it is no option.
_OPTIONAL = frozenset({"--dyn-structural-tag"})


def _takes(name: str) -> str | None:
    """How many values Dynamo's parser takes after its flag `name` ("0", "1", "*", "?"),
    None when the flag is not Dynamo's."""
    if name in _SWITCHES or (name.startswith("--no-") and "--" + name[5:] in _SWITCHES):
        return "0"
    if name in _VALUED:
        return "1"
    if name in _LISTS:
        return "*"
    if name in _OPTIONAL:
        return "?"
    return None


def engine_words(words: Sequence[Word]) -> tuple[Word, ...]:
    """The words `parse_known_args` leaves for vLLM's parser: Dynamo's flags and their
    values taken out, the rest in order. A word that may expand to anything (`$ARGS`)
    is left to vLLM: what it holds is not known."""
    kept: list[Word] = []
    index = 0
    while index < len(words):
        word = words[index]
        name, equals, _ = word.text.partition("=")
        takes = _takes(name) if word.resolved and word.text.startswith("--") else None
        index += 1
        if takes is None:
            kept.append(word)
        elif takes == "1" and not equals:
            index += 1
        elif takes in ("*", "?") and not equals:
            while index < len(words) and not words[index].text.startswith("-"):
                index += 1
                if takes == "?":
                    break
    return tuple(kept)
