"""`python -m vllm_config_lsp` is the `vllm-config-lsp` command."""

import sys

from vllm_config_lsp.cli.main import main

sys.exit(main())
