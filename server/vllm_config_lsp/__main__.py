"""`python -m vllm_config_lsp` is the `vllm-config-lsp` command."""

import sys

from .cli import main

sys.exit(main())
