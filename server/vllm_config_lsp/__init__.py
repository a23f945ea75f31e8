"""vllm-config-lsp: checks `vllm serve --config` files with vLLM's own rules, without vLLM."""

__version__ = "0.1.0"
