r"""The command line breaks before vLLM sees it: the shell or Docker runs something else.

## What vLLM does
Nothing: vLLM receives only what its host runs. A line meant to continue a shell command
line starts with `\ ` instead of the line above ending with `\`, or a line of flags follows
a `docker run … IMAGE` line that does not end with `\`: the shell runs the command above
on its own (vLLM starts without the flags below: a warning) and then the flags as a
command of their own, which does not exist. A bare placeholder such as `<model path>` is
read as redirections (`<model` reads the file `model` as input), and where there is no
such file the shell does not run the command: vLLM never starts (an error). An
ENTRYPOINT or CMD that is not valid JSON (`["vllm", "serve". "m"]`) is run by Docker as
a shell string, `/bin/sh -c '["vllm", …]'`, which runs no vLLM either (an error).

## Example
```sh
vllm serve Qwen/Qwen3-8B
  \ --max-model-len 8192
```

## Fixed
```sh
vllm serve Qwen/Qwen3-8B \
    --max-model-len 8192
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix, Severity
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC009"
NAME = "broken-command-line"
VLLM_SOURCE = None


def check(model: ConfigModel) -> Iterator[Finding]:
    for found in model.invocation.breaks:
        fixes: tuple[Fix, ...] = ()
        if found.edits:
            title = "Continue the command line with `\\`" if not found.fatal else "Write it as JSON"
            fixes = (Fix(title, found.edits, safe=False, preferred=True),)
        yield finding(
            CODE,
            Severity.ERROR if found.fatal else Severity.WARNING,
            (found.start, found.end),
            found.runs,
            fixes=fixes,
        )
