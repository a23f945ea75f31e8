"""The `vllm-config-lsp` command: `check`, `rules`, and the language server's entry point;
output formats for people, GitHub, SARIF and other programs."""
