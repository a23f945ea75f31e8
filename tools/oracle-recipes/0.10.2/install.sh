#!/bin/bash
# Builds the CPU oracle of vLLM 0.10.2 (CUDA wheel, used on CPU) + CPU torch 2.13.0, as
# recorded in tests/fidelity/verdicts/releases/0.10.2/. Same approach as the team's 0.33.0,
# 0.28.0 and 0.11.2 oracles (shared/recipes/oracle-releases/); vLLM 0.10.2 itself pins
# torch==2.8.0 (+ CUDA stack); only torch 2.13.0+cpu is available here.
# Usage: bash install.sh DIR   (makes DIR/venv, copies oracle.py and this folder's files)
#   ORACLE_PY=path/to/oracle.py (default: shared/recipes/oracle-releases/0.11.2/oracle.py,
#   the same file for every release).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
DIR=${1:?usage: bash install.sh DIR}
ORACLE_PY=${ORACLE_PY:-$HERE/../../../../shared/recipes/oracle-releases/0.11.2/oracle.py}
mkdir -p "$DIR"
cp "$HERE/requirements-oracle.txt" "$HERE/requirements-lock.txt" "$ORACLE_PY" "$DIR/"
# vLLM 0.10.2 has FlexibleArgumentParser in vllm/utils/__init__.py (vllm.utils.argparse_utils
# came later): the shared oracle.py imports it from either.
python3 - "$DIR/oracle.py" <<'PY'
import sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
old = "        from vllm.utils.argparse_utils import FlexibleArgumentParser\n"
new = (
    "        try:\n"
    "            from vllm.utils.argparse_utils import FlexibleArgumentParser\n"
    "        except ImportError:  # vLLM 0.10.2 and older\n"
    "            from vllm.utils import FlexibleArgumentParser\n"
)
if old in text:
    open(path, "w", encoding="utf-8").write(text.replace(old, new))
PY
cd "$DIR"
python3 -m venv venv
P=venv/bin/pip
"$P" install torch==2.13.0                       # CPU wheel (local wheel folder); never a bare `torch`
"$P" install --no-deps vllm==0.10.2              # its Requires-Dist pins torch==2.8.0 + CUDA stack
"$P" install --no-deps xgrammar==0.1.23          # xgrammar would pull triton
"$P" install -r requirements-oracle.txt          # keeps torch==2.13.0
venv/bin/python -c "import torch; assert torch.__version__.startswith('2.13.0'), torch.__version__"
"$P" freeze > venv.freeze.txt                    # compare with requirements-lock.txt
