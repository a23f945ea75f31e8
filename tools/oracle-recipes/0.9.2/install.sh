#!/bin/bash
# Builds the CPU oracle of vLLM 0.9.2 (CUDA wheel, used on CPU) + CPU torch 2.13.0, as
# recorded in tests/fidelity/verdicts/releases/0.9.2/. Same approach as the team's 0.33.0,
# 0.28.0 and 0.11.2 oracles (shared/recipes/oracle-releases/); vLLM 0.9.2 itself pins
# torch==2.7.0 (+ CUDA stack); only torch 2.13.0+cpu is available here.
# Usage: bash install.sh DIR   (makes DIR/venv, copies oracle.py and this folder's files)
#   ORACLE_PY=path/to/oracle.py (default: shared/recipes/oracle-releases/0.11.2/oracle.py,
#   the same file for every release).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
DIR=${1:?usage: bash install.sh DIR}
ORACLE_PY=${ORACLE_PY:-$HERE/../../../../shared/recipes/oracle-releases/0.11.2/oracle.py}
mkdir -p "$DIR"
cp "$HERE/requirements-oracle.txt" "$HERE/requirements-lock.txt" "$ORACLE_PY" "$DIR/"
# vLLM 0.9.2 has FlexibleArgumentParser in vllm/utils/__init__.py (vllm.utils.argparse_utils
# came later), calls its YAML flattener `_load_config_file`, and its create_engine_config
# takes no `headless`: the copied oracle.py is patched for each (nothing else changes).
python3 - "$DIR/oracle.py" <<'PY'
import sys
path = sys.argv[1]
text = open(path, encoding="utf-8").read()
old = "        from vllm.utils.argparse_utils import FlexibleArgumentParser\n"
new = (
    "        try:\n"
    "            from vllm.utils.argparse_utils import FlexibleArgumentParser\n"
    "        except ImportError:  # vLLM 0.9.2 and older\n"
    "            from vllm.utils import FlexibleArgumentParser\n"
)
assert old in text, "oracle.py: FlexibleArgumentParser import not found"
text = text.replace(old, new)
# vLLM 0.9.2 names the YAML flattener `_load_config_file` (public from 0.10).
old = "        flat = parser.load_config_file(path)\n"
new = (
    "        load = getattr(parser, \"load_config_file\", None) or parser._load_config_file\n"
    "        flat = load(path)\n"
)
assert old in text, "oracle.py: load_config_file call not found"
text = text.replace(old, new)
# vLLM 0.9.2's create_engine_config has no `headless` parameter (it came in 0.10).
old = "            headless=(launcher == \"run_headless\"),\n"
new = (
    "            **(\n"
    "                {\"headless\": launcher == \"run_headless\"}\n"
    "                if \"headless\" in __import__(\"inspect\").signature(\n"
    "                    engine_args.create_engine_config).parameters\n"
    "                else {}\n"
    "            ),\n"
)
assert old in text, "oracle.py: create_engine_config(headless=...) not found"
open(path, "w", encoding="utf-8").write(text.replace(old, new))
PY
cd "$DIR"
python3 -m venv venv
P=venv/bin/pip
"$P" install torch==2.13.0                       # CPU wheel (local wheel folder); never a bare `torch`
"$P" install --no-deps vllm==0.9.2              # its Requires-Dist pins torch==2.7.0 + CUDA stack
"$P" install --no-deps xgrammar==0.1.19          # xgrammar would pull triton
"$P" install -r requirements-oracle.txt          # keeps torch==2.13.0
venv/bin/python -c "import torch; assert torch.__version__.startswith('2.13.0'), torch.__version__"
"$P" freeze > venv.freeze.txt                    # compare with requirements-lock.txt
