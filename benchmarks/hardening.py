"""The probes of issue 30 ("Hardening, round 3"), re-measured: each one's input is generated,
checked by the real CLI in a subprocess (`python -m vllm_config_lsp check --format json`,
4 GB of address space, 300 s at most), and reported with its CPU seconds (user + system of
the child: a loaded machine changes wall time, not this), its peak resident memory, its
exit code and what went wrong (a traceback, a VC000, a silent pass). The language server
probes edit a document 100 times in a real stdio session and report the resident memory
before and after.

    python benchmarks/hardening.py [--only NAME …] [--json benchmarks/hardening.json]

Not a test: the tests of each case are in tests/cli and tests/lsp (bounded, never timed).
"""

from __future__ import annotations

import argparse
import json
import resource
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADDRESS_SPACE = 4 << 30
TIMEOUT = 300

Files = dict[str, str | bytes]


@dataclass
class Probe:
    name: str
    issue_figure: str  # what the issue measured before
    files: Callable[[], Files]
    target: str = "."  # what `check` is given, relative to the probe's folder
    expect: str = ""  # what a good outcome is (for the reader of the table)


#: One probe's record, as the JSON results and the table hold it: name, issue_figure, cpu_s,
#: wall_s, peak_mb, exit_code, findings, vc000, traceback, output_kb, expect.
Measured = dict[str, object]


# -- inputs ----------------------------------------------------------------------------------

CHART = "apiVersion: v2\nname: c\nversion: 0.1.0\nappVersion: v0.33.0\n"
DEPLOYMENT_HEAD = (
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n"
    "    spec:\n      containers:\n      - name: v\n        image: vllm/vllm-openai:v0.33.0\n"
    "        args:\n        - m\n"
)


def helm_amplification() -> Files:
    refs = "".join("        - {{ .Values.big | quote }}\n" for _ in range(1000))
    return {
        "chart/Chart.yaml": CHART,
        "chart/values.yaml": "big: " + "x" * 100_000 + "\n",
        "chart/templates/deployment.yaml": DEPLOYMENT_HEAD
        + "        - --served-model-name\n"
        + refs
        + "        - --max-num-seqs\n        - x\n",
    }


FLAGS = "--served-model-name, " + ", ".join(f"name{n}" for n in range(100))
POD = (
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - &c\n"
    "    name: v\n    image: vllm/vllm-openai:v0.33.0\n"
    f"    args: [m, {FLAGS}, --max-num-seqs, x]\n" + "  - *c\n" * 10_000
)


def alias_pod() -> Files:
    return {"pod.yaml": POD}


def alias_compose() -> Files:
    return {
        "compose.yaml": "services:\n  a: &s\n    image: vllm/vllm-openai:v0.33.0\n"
        f"    command: [m, {FLAGS}, --max-num-seqs, x]\n"
        + "".join(f"  b{n}: *s\n" for n in range(10_000))
    }


def alias_workflow() -> Files:
    return {
        ".github/workflows/ci.yaml": "on: push\njobs:\n  j: &j\n    runs-on: ubuntu-latest\n"
        "    steps:\n    - &st\n      run: vllm serve m --max-num-seqs x\n"
        + "    - *st\n" * 10_000
        + "".join(f"  k{n}: *j\n" for n in range(100))
    }


def alias_markdown() -> Files:
    return {"README.md": f"# Serving\n\n```yaml\n{POD}```\n"}


def safetensors_header() -> Files:
    body = b'{"__metadata__": [' + b"[]," * (64 * 1024 * 1024 // 3) + b"[]]}"
    config = {
        "architectures": ["LlamaForCausalLM"],
        "model_type": "llama",
        "hidden_size": 4096,
        "num_attention_heads": 32,
        "num_key_value_heads": 8,
        "num_hidden_layers": 32,
        "intermediate_size": 14336,
        "vocab_size": 128256,
        "max_position_embeddings": 8192,
        "torch_dtype": "bfloat16",
    }
    return {
        "m/config.json": json.dumps(config),
        "m/model.safetensors": struct.pack("<Q", len(body)) + body,
        "serve.vllm.yaml": "# vllm-config: gpu=H100\nmodel: ./m\nmax-num-seqs: x\n",
    }


def dockerfile_continuations() -> Files:
    lines = "".join(f"    --served-model-name n{n} \\\n" for n in range(8000))
    return {
        "Dockerfile": "FROM vllm/vllm-openai:v0.33.0\n"
        'ENTRYPOINT ["vllm", "serve"]\nCMD m \\\n' + lines + "    --max-num-seqs x\n"
    }


def unknown_keys(count: int, spelling: str) -> Callable[[], Files]:
    def files() -> Files:
        if spelling == "flow":
            value = "{" + ", ".join(f"k{n}: 1" for n in range(count)) + "}"
        else:
            value = "'{" + ", ".join(f'"k{n}": 1' for n in range(count)) + "}'"
        return {"serve.vllm.yaml": f"model: m\ncompilation-config: {value}\n"}

    return files


def triton_keys() -> Files:
    inner = json.dumps({f"k{n}": 1 for n in range(100_000)})
    return {
        "repo/vllm_model/1/model.json": json.dumps(
            {"model": "m", "max_model_len": 8, "compilation_config": inner}
        )
    }


def many_command_lines(count: int) -> Callable[[], Files]:
    def files() -> Files:
        return {"serve.sh": "#!/bin/bash\n" + f"vllm serve m --max-num-seqs {count}\n" * count}

    return files


def many_exports() -> Files:
    lines = ["#!/bin/bash", "export VLLM_LOGGING_LEVLE=INFO"]
    for n in range(32_000):
        lines.append(f"echo step {n}; export V{n}=value{n}")
        if n % 50 == 0:
            lines.append(f"vllm serve m --max-num-seqs {n + 1}")
    return {"serve.sh": "\n".join(lines) + "\n"}


def huge_integer(digits: int) -> Callable[[], Files]:
    def files() -> Files:
        return {
            "a.vllm.yaml": f"model: m\nmax-num-seqs: {'9' * digits}\n",
            "zz-after.vllm.yaml": "model: m\nmax-num-seqs: x\n",
        }

    return files


def deep_json_yaml() -> Files:
    return {
        "a.vllm.yaml": "model: m\ncompilation-config: '" + "[" * 100_000 + "]" * 100_000 + "'\n",
        "zz-after.vllm.yaml": "model: m\nmax-num-seqs: x\n",
    }


def deep_json_dockerfile() -> Files:
    return {
        "Dockerfile": "FROM vllm/vllm-openai:v0.33.0\nCMD " + "[" * 100_000 + "]" * 100_000 + "\n",
        "zz-after.vllm.yaml": "model: m\nmax-num-seqs: x\n",
    }


def deep_folders(under: str) -> Callable[[], Files]:
    def files() -> Files:
        deep = "/".join(["d"] * 1200)
        found: Files = {
            f"{under}{deep}/x.txt": "x\n",
            "zz-after.vllm.yaml": "model: m\nmax-num-seqs: x\n",
        }
        if under:
            found["chart/Chart.yaml"] = CHART
            found["chart/templates/deployment.yaml"] = (
                DEPLOYMENT_HEAD + "        - --max-num-seqs\n        - x\n"
            )
        return found

    return files


def long_line(flags: int) -> Callable[[], Files]:
    def files() -> Files:
        return {"serve.sh": "vllm serve m " + " ".join(f"--u{n} 1" for n in range(flags)) + "\n"}

    return files


def venv_beside_configs() -> Files:
    found: Files = {f"c{n}.vllm.yaml": "model: m\n" for n in range(1000)}
    for n in range(20_000):
        found[f".venv/lib/p{n // 100}/f{n}.py"] = ""
    return found


def configs_alone() -> Files:
    return {f"c{n}.vllm.yaml": "model: m\n" for n in range(1000)}


def marker_count_zero() -> Files:
    return {
        "serve.vllm.yaml": "# vllm-config: gpu=H100 count=0\nmodel: Qwen/Qwen3-8B\n"
        "tensor-parallel-size: 2\n"
    }


def negative_shapes() -> Files:
    config = {
        "architectures": ["LlamaForCausalLM"],
        "model_type": "llama",
        "hidden_size": -4096,
        "num_attention_heads": 0,
        "num_key_value_heads": -8,
        "num_hidden_layers": -32,
        "vocab_size": 128256,
        "max_position_embeddings": 8192,
        "torch_dtype": "bfloat16",
    }
    return {
        "m/config.json": json.dumps(config),
        "serve.vllm.yaml": "# vllm-config: gpu=H100\nmodel: ./m\n",
    }


PROBES = [
    Probe("helm-1000-refs-to-100KB", "5.8 GB, then VC000 MemoryError", helm_amplification, "chart"),
    Probe("alias-pod-10000", "5.76 GB, 79 s, no findings, exit 0", alias_pod, expect="1 VC201"),
    Probe("alias-compose-10000", "9 s", alias_compose, expect="1 VC201"),
    Probe("alias-workflow-10000", "8 s", alias_workflow, expect="1 VC201"),
    Probe("alias-markdown-fence-10000", "as the Pod", alias_markdown, expect="1 VC201"),
    Probe(
        "safetensors-64MB-header", "1.75 GB, 8 s per shard", safetensors_header, "serve.vllm.yaml"
    ),
    Probe("dockerfile-8000-continuations", "21 s", dockerfile_continuations, expect="1 VC201"),
    Probe("unknown-keys-8000-flow", "6-12 s", unknown_keys(8000, "flow"), expect="8000 VC204"),
    Probe("unknown-keys-8000-json", "6-12 s", unknown_keys(8000, "json"), expect="8000 VC204"),
    Probe(
        "triton-100000-keys",
        "> 120 s",
        triton_keys,
        "repo/vllm_model/1/model.json",
        expect="100000 VC204",
    ),
    Probe(
        "triton-100000-keys-walk",
        "not checked: `check DIR` read 64 KB of the 1.5 MB file and its JSON did not parse",
        triton_keys,
        "repo",
        expect="100000 VC204, as when named",
    ),
    Probe("command-lines-10000", "16 s", many_command_lines(10_000)),
    Probe("command-lines-40000", "186 s", many_command_lines(40_000)),
    Probe(
        "shell-32000-exports-640-command-lines",
        "not in the issue (found by the 1.1 MB script probe): 45.3 s CPU, 271 MB before",
        many_exports,
        expect="VC240 on each line",
    ),
    Probe(
        "integer-350-digits",
        "OverflowError traceback",
        huge_integer(350),
        expect="no VC000, after file checked",
    ),
    Probe(
        "integer-4301-digits",
        "ValueError traceback",
        huge_integer(4301),
        expect="vLLM's error, after file checked",
    ),
    Probe(
        "json-100000-deep-yaml", "RecursionError", deep_json_yaml, expect="not read / decode error"
    ),
    Probe("json-100000-deep-dockerfile-cmd", "RecursionError", deep_json_dockerfile),
    Probe("folders-1200-deep", "os.walk recursion, check aborts", deep_folders("")),
    Probe("folders-1200-deep-in-chart", "Helm reader VC000", deep_folders("chart/templates/")),
    Probe("text-24KB-line-2000-flags", "70 MB of output", long_line(2000), "serve.sh"),
    Probe("text-100KB-line-8000-flags", "MemoryError", long_line(8000), "serve.sh"),
    Probe("venv-20000-beside-1000-configs", "11.7 s", venv_beside_configs),
    Probe("configs-1000-no-venv", "1.5 s (the venv probe's control)", configs_alone),
    Probe("marker-count-0", "VC703 with 0 GPUs", marker_count_zero, expect="nothing"),
    Probe(
        "config-json-negative-shapes", "0.0 GiB KV cache needed", negative_shapes, "serve.vllm.yaml"
    ),
]


def _mkdirs(folder: Path) -> None:
    """os.makedirs level by level (it recurses once per level: 1,200 deep is too deep)."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for each in reversed(missing):
        each.mkdir()


def _write(folder: Path, files: Files) -> None:
    for name, content in files.items():
        path = folder / name
        _mkdirs(path.parent)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def run_cli(folder: Path, target: str, output_format: str = "json") -> tuple[Measured, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "vllm_config_lsp", "check", "--format", output_format, target],
        cwd=folder,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        preexec_fn=_limit,
        timeout=TIMEOUT,
        check=False,
    )
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    stdout, stderr = done.stdout, done.stderr.decode(errors="replace")
    rows: list[dict[str, object]] = []
    if output_format == "json":
        try:
            rows = json.loads(stdout)
        except ValueError:
            rows = []
    measured: Measured = {
        "cpu_s": round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2),
        "wall_s": round(wall, 2),
        # this process's only child: each probe runs in a process of its own (`--one`)
        "peak_mb": round(after.ru_maxrss / 1024, 1),
        "exit_code": done.returncode,
        "findings": len(rows),
        "vc000": sum(1 for row in rows if row.get("code") == "VC000"),
        "traceback": "Traceback" in stderr,
        "output_kb": round(len(stdout) / 1024, 1),
    }
    summary = ", ".join(
        f"{code} x{count}"
        for code, count in sorted(_count(str(row.get("code")) for row in rows).items())
    )
    return measured, summary or stderr[-300:]


def _count(codes: object) -> dict[str, int]:
    found: dict[str, int] = {}
    for code in codes:  # type: ignore[attr-defined]
        found[code] = found.get(code, 0) + 1
    return found


def run_probe(probe: Probe) -> tuple[Measured, str]:
    folder = Path(tempfile.mkdtemp(prefix="hardening-"))
    try:
        _write(folder, probe.files())
        output_format = "text" if probe.name.startswith("text-") else "json"
        measured, summary = run_cli(folder, probe.target, output_format)
    finally:  # rm, not shutil.rmtree: it recurses once per level too
        subprocess.run(["rm", "-rf", str(folder)], check=True)
    record = {"name": probe.name, "issue_figure": probe.issue_figure, **measured}
    return {**record, "expect": probe.expect}, summary


# -- the language server: memory over 100 edits ------------------------------------------------


def _lsp_cases() -> dict[str, tuple[str, Callable[[str, int], str]]]:
    def big_script(size: int) -> str:
        lines = []
        n = written = 0
        while written < size:
            lines.append(f"echo step {n}; export V{n}=value{n}\n")
            if n % 50 == 0:
                lines.append(f"vllm serve m --max-num-seqs {n + 1} --port {8000 + n % 1000}\n")
            written += sum(map(len, lines[-2:])) if n % 50 == 0 else len(lines[-1])
            n += 1
        return "#!/bin/bash\n" + "".join(lines)

    def edited(text: str, version: int) -> str:
        return text.replace("echo step 7;", f"echo step 7-{version};", 1)

    flags = " ".join(f"--served-model-name n{n}" for n in range(5000))
    one_line = "#!/bin/bash\nvllm serve m " + flags + " --max-num-seqs 8\n"
    return {
        "script-126KB-one-5000-flag-line": (
            one_line,
            lambda text, version: text.replace("n2500 ", f"n2500-{version} ", 1),
        ),
        "script-1.1MB": (big_script(1_100_000), edited),
        "script-1.9MB": (big_script(1_900_000), edited),
    }


def lsp_memory(edits: int = 100, cases: list[str] | None = None) -> list[dict[str, object]]:
    sys.path.insert(0, str(ROOT / "tests" / "lsp"))
    from raw_client import RawClient, rss_kb  # the tests' stdio client

    results = []
    for name, (text, edit) in _lsp_cases().items():
        if cases is not None and name not in cases:
            continue
        client = RawClient(memory=ADDRESS_SPACE)
        uri = f"file:///hardening/{name}.sh"
        try:
            started = time.monotonic()
            client.open(uri, text)
            client.diagnostics(uri, 1, 600)
            first = rss_kb(client.process.pid)
            after_10 = first
            for version in range(2, 2 + edits):
                client.change(uri, version, [{"text": edit(text, version)}])
                client.diagnostics(uri, version, 600)
                if version == 11:
                    after_10 = rss_kb(client.process.pid)
                if version % 10 == 1:  # progress: a large script's 100 checks take minutes
                    print(
                        json.dumps(
                            {
                                "name": name,
                                "edits": version - 1,
                                "rss_mb": round(rss_kb(client.process.pid) / 1024, 1),
                                "wall_s": round(time.monotonic() - started, 1),
                            }
                        ),
                        file=sys.stderr,
                        flush=True,
                    )
            last = rss_kb(client.process.pid)
            results.append(
                {
                    "name": name,
                    "text_kb": round(len(text) / 1024),
                    "rss_after_open_mb": round(first / 1024, 1),
                    "rss_after_10_edits_mb": round(after_10 / 1024, 1),
                    f"rss_after_{edits}_edits_mb": round(last / 1024, 1),
                    "growth_per_edit_after_10_kb": round((last - after_10) / (edits - 10)),
                    "wall_s": round(time.monotonic() - started, 1),
                }
            )
        finally:
            client.close()
        print(json.dumps(results[-1]), flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="probe names (or 'lsp')")
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    parser.add_argument("--one", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--lsp-cases", nargs="*", default=None, help="documents of 'lsp'")
    options = parser.parse_args()
    if options.one is not None:
        (probe,) = [probe for probe in PROBES if probe.name == options.one]
        measured, summary = run_probe(probe)
        print(json.dumps({**measured, "summary": summary[:200]}))
        return
    results: dict[str, object] = {"cli": [], "lsp": []}
    for probe in PROBES:
        if options.only is not None and probe.name not in options.only:
            continue
        # a process per probe: its child's peak memory is the probe's alone
        done = subprocess.run(
            [sys.executable, __file__, "--one", probe.name],
            capture_output=True,
            text=True,
            check=True,
        )
        row = json.loads(done.stdout)
        results["cli"].append(row)  # type: ignore[attr-defined]
        print(json.dumps(row), flush=True)
    if options.only is None or "lsp" in options.only:
        results["lsp"] = lsp_memory(cases=options.lsp_cases)
    if options.json:
        options.json.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
