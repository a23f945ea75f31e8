"""Starts the language server bundled in the VS Code extension.

The extension runs `PYTHON -I bundled/tool/launcher.py --stdio`: `-I` keeps the user's
PYTHONPATH and user site-packages out, and `bundled/libs` (filled by
`scripts/bundle_python.py` when the extension is packaged) comes first on `sys.path`, so the
server and its dependencies are the bundled ones whatever the interpreter has installed.
Without `bundled/libs` (a development checkout) the interpreter's installed package is used.
"""

import os
import sys

if sys.version_info < (3, 10):  # noqa: UP036 (this file must run on any Python 3)
    sys.stderr.write(
        "vllm-config-lsp needs Python 3.10 or newer; %s is %s\n"  # noqa: UP031
        % (sys.executable, sys.version.split()[0])
    )
    sys.exit(3)

LIBS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")
if os.path.isdir(LIBS):
    sys.path.insert(0, LIBS)

from vllm_config_lsp.cli.main import main  # noqa: E402

sys.exit(main(sys.argv[1:]))
