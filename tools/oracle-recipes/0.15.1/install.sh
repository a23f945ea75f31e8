#!/bin/bash
# Builds the CPU oracle of vLLM 0.15.1 (CUDA wheel, used on CPU) + CPU torch 2.13.0, as
# recorded in tests/fidelity/verdicts/releases/0.15.1/. Same approach as the team's 0.33.0,
# 0.28.0 and 0.11.2 oracles (shared/recipes/oracle-releases/); vLLM 0.15.1 itself pins
# torch==2.9.1 (+ CUDA stack); only torch 2.13.0+cpu is available here.
# Usage: bash install.sh DIR   (makes DIR/venv, copies oracle.py and this folder's files)
#   ORACLE_PY=path/to/oracle.py (default: shared/recipes/oracle-releases/0.28.0/oracle.py,
#   the same file for every release).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
DIR=${1:?usage: bash install.sh DIR}
ORACLE_PY=${ORACLE_PY:-$HERE/../../../../shared/recipes/oracle-releases/0.28.0/oracle.py}
mkdir -p "$DIR"
cp "$HERE/requirements-oracle.txt" "$HERE/requirements-lock.txt" "$ORACLE_PY" "$DIR/"
cd "$DIR"
python3 -m venv venv
P=venv/bin/pip
"$P" install torch==2.13.0                       # CPU wheel (local wheel folder); never a bare `torch`
"$P" install --no-deps vllm==0.15.1              # its Requires-Dist pins torch==2.9.1 + CUDA stack
"$P" install --no-deps xgrammar==0.1.29          # xgrammar would pull triton
"$P" install -r requirements-oracle.txt          # keeps torch==2.13.0
venv/bin/python -c "import torch; assert torch.__version__.startswith('2.13.0'), torch.__version__"
"$P" freeze > venv.freeze.txt                    # compare with requirements-lock.txt
