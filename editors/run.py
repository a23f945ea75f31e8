#!/usr/bin/env python3
"""Real editors against vllm-config-lsp, headless, one command each:

    python editors/run.py nvim      # Neovim >= 0.7, the README's init.lua snippet
    python editors/run.py emacs     # Emacs 28+ with eglot and yaml-mode, the README's snippet
    python editors/run.py vscode    # the packaged .vsix in code-server's real VS Code
    python editors/run.py nvim --case k8s   # the same on a Kubernetes Deployment's args
    python editors/run.py vscode --case shell   # a launch script; --case helm: a chart

Each opens a copy of the case's example (`seed`, the default:
examples/qwen2.5-vl-encoder-budgets.vllm.yaml; `k8s`: examples/k8s-deployment.yaml, where the
mistake is in a JSON string of the container's `args:`; VS Code only: `shell`,
editors/cases/serve-qwen2.5-vl.sh, the same JSON on a continuation line, and `helm`, the values
file of editors/cases/qwen2.5-vl-chart/ that its template writes into `args:`), waits for the
server's VC301 diagnostic, applies the preferred quick fix through the editor's own code-action
command (VS Code: vscode.executeCodeActionProvider + workspace.applyEdit), saves, and compares
the file. VS Code also goes through what only it shows (editors/vscode/suite.js, steps 7-10): a
rule's bundled page in the Markdown preview from the diagnostic's link, the status item's
release picker, the palette's commands, and the notification when no Python can run the server
(driver.js types, clicks and reads the workbench for those). Each runs under a timeout in its
own session; whatever it started and left running is reported as a failure and killed. Results
and logs go to artifacts/editors/EDITOR-CASE/ (gitignored; $VLLM_CONFIG_ARTIFACTS/editors/ when
set, the folder .ci/run keeps); the VS Code run also saves its screenshots there.

Needs: nvim / emacs + elpa-eglot + elpa-yaml-mode / code-server from
editors/vscode/setup-code-server.sh, Debian's chromium and the .vsix from
`npm run package` in client-vscode/. nvim and emacs run `vllm-config-lsp` from PATH.
Exit status: 0 pass, 1 fail, 3 the editor (or what it needs) is missing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
EDITORS = ROOT / "editors"
ARTIFACTS = Path(os.environ.get("VLLM_CONFIG_ARTIFACTS", ROOT / "artifacts")) / "editors"
CODE_SERVER = Path(os.environ.get("VLLM_CONFIG_CODE_SERVER", ROOT / ".cache" / "code-server"))
CHROMIUM = os.environ.get("VLLM_CONFIG_CHROMIUM", "/usr/bin/chromium")


@dataclass(frozen=True)
class Case:
    """An example, the finding every editor must show in it and the preferred fix's result."""

    name: str
    file: Path
    code: str
    line: int  # 0-based line of the finding, and its characters on that line
    start: int
    end: int
    message: str  # how the message starts
    fix_title: str
    before: str  # the line before and after the fix
    after: str
    # VS Code only: a hover at (line, character) that must contain hover_text, completion
    # at (line, character) that must offer completion_label, vllmConfig/documentInfo's reason
    hover: tuple[int, int]
    hover_text: str
    completion: tuple[int, int] | None
    completion_label: str
    reason: str
    #: The editors that run it (the shell script and the chart: VS Code, which serves
    #: those languages out of the box), and the language id VS Code gives the file.
    editors: tuple[str, ...] = ("nvim", "emacs", "vscode")
    language: str = "yaml"
    #: The folder copied with the file (a chart: its Chart.yaml and templates), the file's
    #: path inside it.
    folder: Path | None = None
    #: VS Code only: documentInfo's versionSource (None: any), and the line where typing
    #: `--max-n` at column 2 (a new continuation line) must open completion by itself.
    version_source: str | None = None
    typing_line: int | None = None

    def for_suite(self) -> str:
        """The case as editors/vscode/suite.js reads it (VLLM_E2E_CASE)."""
        return json.dumps(
            {
                "code": self.code,
                "range": [self.line, self.start, self.line, self.end],
                "message": self.message,
                "fixTitle": self.fix_title,
                "after": self.after,
                "hover": self.hover,
                "hoverText": self.hover_text,
                "completion": self.completion,
                "completionLabel": self.completion_label,
                "reason": self.reason,
                "language": self.language,
                "versionSource": self.version_source,
                "typingLine": self.typing_line,
            }
        )


_BUDGETS = "All encoder_cudagraph_token_budgets must be positive, got [0, 2048, 4096]"
_KEEP = "Remove the non-positive budget (keep [2048, 4096])"
_JSON = '{"cudagraph_mm_encoder": true, "encoder_cudagraph_token_budgets": '
_ITEM = f"            - '{_JSON}"
_SHELL_LINE = f"  --compilation-config '{_JSON}"
_VALUES_LINE = f"compilationConfig: '{_JSON}"
_FROM_IMAGE = "vLLM 0.33.0, from the image vllm/vllm-openai:v0.33.0"
#: The shell script and the chart (editors/cases/; examples/ holds what users start from).
CASE_FILES = EDITORS / "cases"


def _on_a_command_line(
    name: str, file: Path, where: tuple[int, int, str, str], **more: Any
) -> Case:
    """A VS Code case of the budgets' `0` on a host's line: (line, character of the `0`, the
    line up to the list, what follows the JSON's closing quote)."""
    line, start, head, tail = where
    return Case(
        name=name,
        file=file,
        code="VC301",
        line=line,
        start=start,
        end=start + 1,
        message=_BUDGETS,
        fix_title=_KEEP,
        before=f"{head}[0, 2048, 4096]}}'{tail}",
        after=f"{head}[2048, 4096]}}'{tail}",
        hover=(line, start - 31),  # on the field's name
        hover_text="encoder_cudagraph_token_budgets",
        completion=None,
        completion_label="",
        reason="vLLM command line",
        editors=("vscode",),
        **more,
    )


_CASES = (
    # the seed example: a --config file, the `0` of a block mapping's flow sequence
    Case(
        name="seed",
        file=ROOT / "examples" / "qwen2.5-vl-encoder-budgets.vllm.yaml",
        code="VC301",
        line=3,
        start=36,
        end=37,
        message=_BUDGETS,
        fix_title=_KEEP,
        before="  encoder_cudagraph_token_budgets: [0, 2048, 4096]",
        after="  encoder_cudagraph_token_budgets: [2048, 4096]",
        hover=(3, 8),
        hover_text="encoder_cudagraph_token_budgets",
        completion=(4, 3),
        completion_label="max-model-len",
        reason="file name",
    ),
    # a Deployment: the `0` inside the JSON string of a container's `args:` item
    Case(
        name="k8s",
        file=ROOT / "examples" / "k8s-deployment.yaml",
        code="VC301",
        line=29,
        start=82,
        end=83,
        message=_BUDGETS,
        fix_title=_KEEP,
        before=_ITEM + "[0, 2048, 4096]}'",
        after=_ITEM + "[2048, 4096]}'",
        hover=(29, 50),
        hover_text="encoder_cudagraph_token_budgets",
        completion=None,  # no completion on command lines
        completion_label="",
        reason="vLLM command line",
        version_source=_FROM_IMAGE,
    ),
    # a launch script: the `0` in the JSON of a `--compilation-config` on a continuation line
    _on_a_command_line(
        "shell",
        CASE_FILES / "serve-qwen2.5-vl.sh",
        (4, 91, _SHELL_LINE, " \\"),
        language="shellscript",
        version_source="newest known release (nothing names another)",
        typing_line=4,
    ),
    # a Helm chart's values file: the `0` in the JSON its template writes into `args:`
    _on_a_command_line(
        "helm",
        CASE_FILES / "qwen2.5-vl-chart" / "values.yaml",
        (6, 87, _VALUES_LINE, ""),
        folder=CASE_FILES / "qwen2.5-vl-chart",
        version_source=_FROM_IMAGE,  # the tag the template takes from values.yaml
    ),
)
CASES = {case.name: case for case in _CASES}
#: (editor, case) of every run.
RUNS = [(editor, case.name) for case in _CASES for editor in case.editors]
#: The file type each editor must give both examples (and attach the server for).
LANGUAGES = {"nvim": "yaml", "emacs": "yaml-mode", "vscode": "yaml"}

DEFAULT_TIMEOUT = {"nvim": 60.0, "emacs": 60.0, "vscode": 420.0}


class Failed(Exception):
    pass


@dataclass
class Outcome:
    editor: str
    case: str
    ok: bool
    seconds: float
    detail: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    artifacts: Path | None = None

    def summary(self) -> str:
        verdict = "PASS" if self.ok else "FAIL"
        name = f"{self.editor} --case {self.case}"
        lines = [f"{name}: {verdict} in {self.seconds:.1f} s (artifacts: {self.artifacts})"]
        lines += [f"  - {p}" for p in self.problems]
        return "\n".join(lines)


# -- processes ------------------------------------------------------------------------------


def _processes() -> list[tuple[int, int, str, str]]:
    """(pid, session id, state, command line) of every live process (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        found.append((int(entry.name), int(fields[3]), fields[0], cmdline.strip()))
    return found


def _ours(sessions: set[int], marker: str) -> list[tuple[int, str]]:
    me = os.getpid()
    return [
        (pid, cmd)
        for pid, sid, state, cmd in _processes()
        if pid != me and state != "Z" and (sid in sessions or (marker and marker in cmd))
    ]


def reap(sessions: set[int], marker: str, grace: float = 5.0) -> list[str]:
    """Waits up to `grace` for the processes we started to end by themselves, then kills the
    rest and returns their command lines (a non-empty list is a leak)."""
    deadline = time.monotonic() + grace
    left = _ours(sessions, marker)
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = _ours(sessions, marker)
    for pid, _ in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return [f"{pid}: {cmd[:200]}" for pid, cmd in left]


def run_session(
    command: list[str],
    *,
    timeout: float,
    log: Path,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    stdin: bytes | None = None,
) -> tuple[int, float, int]:
    """Runs `command` in a new session; returns (exit status or 124, seconds, session id)."""
    started = time.monotonic()
    with log.open("ab") as out:
        out.write(f"$ {' '.join(command)}\n".encode())
        out.flush()
        process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=cwd,
            start_new_session=True,
        )
        try:
            process.communicate(stdin, timeout=timeout)
            status = process.returncode
        except subprocess.TimeoutExpired:
            _terminate(process.pid)
            process.wait()
            status = 124
            out.write(f"\n*** timeout after {timeout:.0f} s\n".encode())
    return status, time.monotonic() - started, process.pid


def _terminate(session: int, grace: float = 3.0) -> None:
    try:
        os.killpg(session, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and _ours({session}, ""):
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(session, signal.SIGKILL)


# -- shared checks ----------------------------------------------------------------------------


def expected_text(case: Case) -> str:
    lines = case.file.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[case.line].rstrip("\r\n") == case.before, (
        f"{case.file.name} changed: update the case in editors/run.py"
    )
    lines[case.line] = case.after + lines[case.line][len(case.before) :]
    return "".join(lines)


def check(problems: list[str], condition: bool, what: str) -> None:
    if not condition:
        problems.append(what)


def check_file(problems: list[str], path: Path, case: Case) -> None:
    actual = path.read_text(encoding="utf-8")
    check(
        problems,
        actual == expected_text(case),
        f"saved file differs from the expected one:\n{actual}",
    )
    if path.suffix not in (".yaml", ".yml"):
        return
    try:
        list(yaml.safe_load_all(actual))
    except yaml.YAMLError as error:
        problems.append(f"the saved file is no longer YAML: {error}")


def check_diagnostic_range(problems: list[str], d: dict[str, Any], case: Case) -> None:
    check(
        problems,
        (d.get("line"), d.get("col"), d.get("end_line"), d.get("end_col"))
        == (case.line, case.start, case.line, case.end),
        f"range {d}",
    )


def workspace(tmp: Path, case: Case) -> Path:
    folder = tmp / "project"
    folder.mkdir()
    if case.folder is not None:  # a chart: the file inside its folder, with the rest
        shutil.copytree(case.folder, folder / case.folder.name)
        return folder / case.folder.name / case.file.relative_to(case.folder)
    shutil.copy(case.file, folder / case.file.name)
    return folder / case.file.name


def artifacts_for(editor: str, case: str) -> Path:
    path = ARTIFACTS / f"{editor}-{case}"
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


def read_json(path: Path) -> dict[str, Any]:
    try:
        return dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as error:
        return {"error": f"no result file ({error})"}


# -- Neovim -----------------------------------------------------------------------------------


def missing_nvim() -> str | None:
    if shutil.which("nvim") is None:
        return "nvim is not installed (apt-get install neovim)"
    if shutil.which("vllm-config-lsp") is None:
        return "vllm-config-lsp is not on PATH (pip install .)"
    return None


def run_nvim(case: Case, tmp: Path, timeout: float, out_dir: Path) -> Outcome:
    file = workspace(tmp, case)
    result_path = out_dir / "result.json"
    env = dict(os.environ)
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp / name.lower())
    env.update(
        SNIPPET=str(EDITORS / "nvim" / "vllm-config.lua"),
        FILE=str(file),
        OUT_JSON=str(result_path),
        TIMEOUT_MS=str(int(timeout * 1000 / 3)),
    )
    command = ["nvim", "--headless", "-n", "-i", "NONE", "-u", str(EDITORS / "nvim" / "e2e.lua")]
    status, seconds, session = run_session(
        command, timeout=timeout, log=out_dir / "nvim.log", env=env, cwd=file.parent
    )
    leftovers = reap({session}, str(tmp))
    result = read_json(result_path)
    problems: list[str] = []
    check(problems, status == 0, f"nvim exited with {status}: {result.get('error')}")
    check(
        problems, result.get("filetype") == LANGUAGES["nvim"], f"filetype {result.get('filetype')}"
    )
    diagnostics = result.get("diagnostics") or []
    check(problems, len(diagnostics) == 1, f"expected one diagnostic, got {diagnostics}")
    if diagnostics:
        d = diagnostics[0]
        check(problems, d.get("code") == case.code, f"code {d.get('code')!r}")
        check_diagnostic_range(problems, d, case)
        check(problems, d.get("severity") == 1, f"severity {d.get('severity')} (1 = error)")
        check(
            problems,
            str(d.get("message", "")).startswith(case.message),
            f"message {d.get('message')}",
        )
    check(
        problems,
        str(result.get("applied", "")).startswith(case.fix_title),
        f"applied {result.get('applied')!r} of {result.get('offered')}",
    )
    check_file(problems, file, case)
    check(problems, not leftovers, f"processes left behind: {leftovers}")
    return Outcome("nvim", case.name, not problems, seconds, result, problems)


# -- Emacs ------------------------------------------------------------------------------------


def missing_emacs() -> str | None:
    if shutil.which("emacs") is None:
        return "emacs is not installed (apt-get install emacs-nox elpa-eglot elpa-yaml-mode)"
    if shutil.which("vllm-config-lsp") is None:
        return "vllm-config-lsp is not on PATH (pip install .)"
    probe = subprocess.run(
        ["emacs", "--batch", "--eval", "(progn (require 'eglot) (require 'yaml-mode))"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    if probe.returncode != 0:
        return "eglot or yaml-mode is missing (apt-get install elpa-eglot elpa-yaml-mode)"
    return None


def run_emacs(case: Case, tmp: Path, timeout: float, out_dir: Path) -> Outcome:
    file = workspace(tmp, case)
    result_path = out_dir / "result.json"
    env = dict(os.environ)
    env.update(
        SNIPPET=str(EDITORS / "emacs" / "vllm-config.el"),
        FILE=str(file),
        OUT_JSON=str(result_path),
        TIMEOUT_S=str(int(timeout / 3)),
    )
    command = ["emacs", "--batch", "-l", str(EDITORS / "emacs" / "e2e.el")]
    status, seconds, session = run_session(
        command,
        timeout=timeout,
        log=out_dir / "emacs.log",
        env=env,
        cwd=file.parent,
        stdin=b"\n",  # the RET that accepts eglot's default (preferred) code action
    )
    leftovers = reap({session}, str(tmp))
    result = read_json(result_path)
    problems: list[str] = []
    check(problems, status == 0, f"emacs exited with {status}: {result.get('error')}")
    mode = result.get("major_mode")
    check(problems, mode == LANGUAGES["emacs"], f"major mode {mode}")
    diagnostics = result.get("diagnostics") or []
    check(problems, len(diagnostics) == 1, f"expected one diagnostic, got {diagnostics}")
    if diagnostics:
        d = diagnostics[0]
        # eglot 1.9 shows "SOURCE [CODE]: MESSAGE"
        check(
            problems,
            f"[{case.code}]: {case.message}" in str(d.get("text")),
            f"text {d.get('text')!r}",
        )
        check_diagnostic_range(problems, d, case)
        check(problems, d.get("type") == "eglot-error", f"type {d.get('type')}")
    offered = result.get("offered") or []
    check(
        problems,
        bool(offered) and str(offered[0]).startswith(case.fix_title),
        f"offered {offered}",
    )
    check(
        problems,
        result.get("line_after") == case.after,
        f"line after {result.get('line_after')!r}",
    )
    check_file(problems, file, case)
    check(problems, not leftovers, f"processes left behind: {leftovers}")
    return Outcome("emacs", case.name, not problems, seconds, result, problems)


# -- VS Code (code-server) --------------------------------------------------------------------


def find_vsix() -> Path | None:
    if os.environ.get("VLLM_CONFIG_VSIX"):
        return Path(os.environ["VLLM_CONFIG_VSIX"])
    found = sorted((ROOT / "client-vscode").glob("*.vsix"), key=lambda p: p.stat().st_mtime)
    return found[-1] if found else None


def missing_vscode() -> str | None:
    if not list(CODE_SERVER.glob(".ready-*")):
        return f"code-server is not set up in {CODE_SERVER} (editors/vscode/setup-code-server.sh)"
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install chromium)"
    vsix = find_vsix()
    if vsix is None or not vsix.exists():
        return "no .vsix (cd client-vscode && npm ci && npm run package)"
    return None


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _python_without_server() -> str | None:
    """An interpreter that has no vllm_config_lsp installed: proves the .vsix's own bundle."""
    for candidate in ("/usr/bin/python3", shutil.which("python3")):
        if candidate and Path(candidate).exists():
            probe = subprocess.run(
                [candidate, "-I", "-c", "import vllm_config_lsp"], capture_output=True
            )
            if probe.returncode != 0:
                return candidate
    return None


def run_vscode(case: Case, tmp: Path, timeout: float, out_dir: Path) -> Outcome:
    started = time.monotonic()
    file = workspace(tmp, case)
    folder = tmp / "project"  # the workspace (a chart's values file is one level down)
    vsix = find_vsix()
    assert vsix is not None
    interpreter = _python_without_server()
    settings = {
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "workbench.colorTheme": "Default Dark Modern",
        "window.restoreWindows": "none",
        "extensions.autoUpdate": False,
        "extensions.autoCheckUpdates": False,
        "telemetry.telemetryLevel": "off",
        "editor.minimap.enabled": False,
        "security.workspace.trust.enabled": False,
        "vllmConfig.trace.server": "messages",
    }
    if interpreter:
        settings["vllmConfig.interpreter"] = [interpreter]
    (folder / ".vscode").mkdir()
    (folder / ".vscode" / "settings.json").write_text(json.dumps(settings, indent=1))
    state = tmp / "code-server"
    entry = CODE_SERVER / "node_modules" / "code-server" / "out" / "node" / "entry.js"
    common = [
        "--config",
        str(state / "config.yaml"),
        "--user-data-dir",
        str(state / "data"),
        "--extensions-dir",
        str(state / "extensions"),
    ]
    log = out_dir / "code-server.log"
    problems: list[str] = []
    sessions: set[int] = set()
    result: dict[str, Any] = {}
    env = dict(os.environ)
    for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp / name.lower())  # code-server's logs, chromium's crash reports
    env.update(
        VLLM_E2E_OUT=str(out_dir / "result.json"),
        VLLM_E2E_SCREENSHOT=str(out_dir / "screenshot.png"),
        VLLM_E2E_FILE=str(file),
        VLLM_E2E_EXPECTED=str(tmp / "expected.yaml"),
        VLLM_E2E_CASE=case.for_suite(),
    )
    (tmp / "expected.yaml").write_text(expected_text(case), encoding="utf-8")
    server: subprocess.Popen[bytes] | None = None
    try:
        status, _, session = run_session(
            ["node", str(entry), *common, "--install-extension", str(vsix)],
            timeout=120,
            log=log,
            env=env,
        )
        sessions.add(session)
        if status != 0:
            raise Failed(f"--install-extension {vsix.name} exited with {status} (see {log})")
        port = _free_port()
        with log.open("ab") as out:
            server = subprocess.Popen(
                [
                    "node",
                    str(entry),
                    *common,
                    "--auth",
                    "none",
                    "--bind-addr",
                    f"127.0.0.1:{port}",
                    "--disable-telemetry",
                    "--disable-update-check",
                    "--disable-workspace-trust",
                    "--disable-getting-started-override",
                    str(folder),
                ],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        sessions.add(server.pid)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise Failed(f"code-server did not come up (see {log})") from None
                time.sleep(0.2)
        driver_env = dict(
            env,
            NODE_PATH=str(CODE_SERVER / "node_modules"),
            E2E_TIMEOUT_MS=str(int(timeout * 1000)),
            E2E_CHROMIUM=CHROMIUM,
            E2E_PROFILE=str(tmp / "chromium"),
        )
        remaining = max(30.0, timeout - (time.monotonic() - started))
        status, _, session = run_session(
            [
                "node",
                str(EDITORS / "vscode" / "driver.js"),
                f"http://127.0.0.1:{port}",
                str(folder),
                str(EDITORS / "vscode" / "runner"),
                str(EDITORS / "vscode" / "suite.js"),
            ],
            timeout=remaining + 10,
            log=out_dir / "driver.log",
            env=driver_env,
        )
        sessions.add(session)
        result = read_json(out_dir / "result.json")
        check(
            problems,
            status == 0,
            f"the extension tests exited with {status}: {result.get('error')}",
        )
    except Failed as error:
        problems.append(str(error))
    finally:
        if server is not None:
            _terminate(server.pid)
            server.wait()
    leftovers = reap(sessions, str(tmp))
    check(problems, not leftovers, f"processes left behind: {leftovers}")
    check(problems, result.get("ok") is True, f"suite result: {result.get('error')}")
    language = result.get("languageId")
    check(problems, language == case.language, f"language {language}")
    check_file(problems, file, case)
    shot = out_dir / "screenshot.png"
    check(problems, shot.exists() and shot.stat().st_size > 10_000, "no screenshot")
    result["vsix"] = {"name": vsix.name, "bytes": vsix.stat().st_size}
    result["interpreter"] = interpreter
    return Outcome("vscode", case.name, not problems, time.monotonic() - started, result, problems)


# -- entry points -----------------------------------------------------------------------------

EditorRun = Callable[[Case, Path, float, Path], Outcome]
EDITOR_RUNS: dict[str, tuple[Callable[[], str | None], EditorRun]] = {
    "nvim": (missing_nvim, run_nvim),
    "emacs": (missing_emacs, run_emacs),
    "vscode": (missing_vscode, run_vscode),
}


def missing(editor: str) -> str | None:
    """Why `editor` cannot run here, or None."""
    return EDITOR_RUNS[editor][0]()


def run(editor: str, case: str = "seed", timeout: float | None = None) -> Outcome:
    out_dir = artifacts_for(editor, case)
    with tempfile.TemporaryDirectory(prefix=f"vllm-config-{editor}-{case}-") as name:
        outcome = EDITOR_RUNS[editor][1](
            CASES[case], Path(name), timeout or DEFAULT_TIMEOUT[editor], out_dir
        )
    outcome.artifacts = out_dir
    (out_dir / "outcome.json").write_text(
        json.dumps(
            {
                "editor": editor,
                "case": case,
                "ok": outcome.ok,
                "seconds": round(outcome.seconds, 2),
                "problems": outcome.problems,
                "detail": outcome.detail,
            },
            indent=1,
        )
    )
    return outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("editor", choices=sorted(EDITOR_RUNS))
    parser.add_argument("--case", choices=list(CASES), default="seed", help="the example")
    parser.add_argument("--timeout", type=float, default=None, help="seconds (whole run)")
    args = parser.parse_args(argv)
    reason = missing(args.editor)
    if reason:
        print(f"{args.editor}: cannot run: {reason}", file=sys.stderr)
        return 3
    outcome = run(args.editor, args.case, args.timeout)
    print(outcome.summary())
    return 0 if outcome.ok else 1


if __name__ == "__main__":
    sys.exit(main())
