// Which Python runs the bundled server. Pure: the probing and the Python extension's API
// are passed in, so node --test can run it.

export const MIN_PYTHON: readonly [number, number] = [3, 10];

export type Source = 'setting' | 'python-extension' | 'path';

export interface Candidate {
  /** Executable and its leading arguments, e.g. ["py", "-3"]. */
  command: string[];
  source: Source;
}

export type ProbeResult =
  | { ok: true; version: [number, number, number]; executable: string }
  | { ok: false; error: string };

export type Probe = (command: string[]) => Promise<ProbeResult>;

export type Choice =
  | { ok: true; candidate: Candidate; version: string; executable: string; log: string[] }
  | { ok: false; message: string; log: string[] };

export interface CandidateInputs {
  /** `vllmConfig.interpreter` (array; a plain string is accepted too). */
  setting: unknown;
  /** The Python extension's active interpreter command, when that extension is installed. */
  pythonExtension?: string[] | undefined;
  platform: string;
  /** `${workspaceFolder}` and friends, `~`. */
  expand?: (value: string) => string;
}

const DESCRIBE: Record<Source, string> = {
  setting: 'the setting vllmConfig.interpreter',
  'python-extension': "the Python extension's active interpreter",
  path: 'PATH',
};

export function settingCommand(setting: unknown): string[] {
  if (typeof setting === 'string') return setting.trim() ? [setting.trim()] : [];
  if (Array.isArray(setting)) return setting.filter((s): s is string => typeof s === 'string' && s !== '');
  return [];
}

/** In order: the setting (alone: an explicit choice is never overridden), else the Python
 * extension's interpreter, else python3 on PATH. */
export function candidates(inputs: CandidateInputs): Candidate[] {
  const expand = inputs.expand ?? ((s: string) => s);
  const fromSetting = settingCommand(inputs.setting).map(expand);
  if (fromSetting.length) return [{ command: fromSetting, source: 'setting' }];
  const list: Candidate[] = [];
  if (inputs.pythonExtension && inputs.pythonExtension.length) {
    list.push({ command: inputs.pythonExtension, source: 'python-extension' });
  }
  if (inputs.platform === 'win32') {
    list.push({ command: ['py', '-3'], source: 'path' }, { command: ['python'], source: 'path' });
  } else {
    list.push({ command: ['python3'], source: 'path' });
  }
  return list;
}

export function tooOld(version: readonly number[]): boolean {
  return version[0] < MIN_PYTHON[0] || (version[0] === MIN_PYTHON[0] && version[1] < MIN_PYTHON[1]);
}

/** The first candidate that runs and is Python >= 3.10, or a message that says what was tried. */
export async function chooseInterpreter(list: Candidate[], probe: Probe): Promise<Choice> {
  const log: string[] = [];
  for (const candidate of list) {
    const shown = `${candidate.command.join(' ')} (from ${DESCRIBE[candidate.source]})`;
    const result = await probe(candidate.command);
    if (!result.ok) {
      log.push(`${shown}: ${result.error}`);
      continue;
    }
    const version = result.version.join('.');
    if (tooOld(result.version)) {
      log.push(`${shown}: Python ${version} is too old`);
      continue;
    }
    log.push(`${shown}: Python ${version} at ${result.executable}`);
    return { ok: true, candidate, version, executable: result.executable, log };
  }
  const explicit = list.length === 1 && list[0].source === 'setting';
  const message = explicit
    ? `vLLM Config: the interpreter in the setting vllmConfig.interpreter cannot run the server (${log[0] ?? 'empty'}). ` +
      `Set it to a Python ${MIN_PYTHON.join('.')} or newer.`
    : `vLLM Config: no Python ${MIN_PYTHON.join('.')} or newer found to run the server. Tried: ${log.join('; ')}. ` +
      'Install Python 3.10+ or set vllmConfig.interpreter.';
  return { ok: false, message, log };
}

/**
 * What "Open Settings" of the no-interpreter message runs. `vllmConfig.interpreter` is
 * machine-overridable: in a remote window (SSH, WSL, a container, code-server) a value in the
 * User settings does not reach the machine the server runs on, so the Remote settings open,
 * filtered to the setting.
 */
export function interpreterSettings(remoteName: string | undefined): { command: string; args: unknown[] } {
  const query = 'vllmConfig.interpreter';
  if (remoteName) return { command: 'workbench.action.openRemoteSettings', args: [{ query }] };
  return { command: 'workbench.action.openSettings', args: [query] };
}

/** Python code run by the probe: prints the executable and the version. */
export const PROBE_CODE = "import sys; print(sys.executable); print('%d.%d.%d' % sys.version_info[:3])";

/** Parses what PROBE_CODE printed. */
export function parseProbe(stdout: string): ProbeResult {
  const lines = stdout.trim().split(/\r?\n/);
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec((lines[lines.length - 1] ?? '').trim());
  if (!match || lines.length < 2) return { ok: false, error: `unexpected output ${JSON.stringify(stdout.slice(0, 200))}` };
  return { ok: true, executable: lines[lines.length - 2].trim(), version: [+match[1], +match[2], +match[3]] };
}

/** Expands `~` and `${workspaceFolder}`, `${userHome}`, `${env:NAME}` in a setting value. */
export function expandVariables(value: string, vars: { home: string; workspaceFolder?: string; env: Record<string, string | undefined> }): string {
  let out = value.replace(/\$\{(workspaceFolder|userHome|env:([^}]+))\}/g, (whole, name: string, envName?: string) => {
    if (envName) return vars.env[envName] ?? '';
    if (name === 'userHome') return vars.home;
    return vars.workspaceFolder ?? whole;
  });
  if (out === '~' || out.startsWith('~/') || out.startsWith('~\\')) out = vars.home + out.slice(1);
  return out;
}
