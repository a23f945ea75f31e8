// The `vllmConfig` settings the server reads, from VS Code's configuration.
// Pure: no `vscode` import, so node --test can run it.

/** What the server's `vllmConfig` section looks like (see lsp_settings.py). */
export interface ServerSettings {
  vllmVersion: string | null;
  associations: { globs: string[]; exclude: string[] };
  detection: boolean;
  /** null: "auto" (no wait unless the last check was slow). */
  debounceMs: number | null;
  severityOverrides: Record<string, string>;
  disabledCodes: string[];
  /** Folders holding models as `<org>/<name>/config.json`; `~` and relative paths are the server's to resolve. */
  modelDirs: string[];
  /** The GPU the server runs on (a name of schemas/gpus.json) and how many per node; the server judges the values. */
  gpu: string | null;
  gpuCount: number | null;
  /** Platform plugins the deployments load (`vllm-ascend@0.23.0`); the server knows which are catalogued. */
  plugins: string[];
}

/** `WorkspaceConfiguration.get` of the `vllmConfig` section. */
export type SettingGetter = (key: string) => unknown;

/** Settings that only the extension uses; never sent to the server. */
export const CLIENT_ONLY = ['interpreter', 'trace.server'] as const;

export const LEVELS = ['error', 'warning', 'information', 'hint', 'off'] as const;

function strings(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
}

/**
 * The server's view of the settings. Values the user got wrong are passed through when the
 * server can report them better (it logs each bad value and uses its default); only shapes
 * that VS Code's own settings UI cannot produce are normalised here.
 */
export function serverSettings(get: SettingGetter): ServerSettings {
  const version = get('vllmVersion');
  const debounce = get('debounceMs');
  const overrides = get('severityOverrides');
  const gpu = get('gpu');
  const gpuCount = get('gpuCount');
  const severityOverrides: Record<string, string> = {};
  if (overrides && typeof overrides === 'object' && !Array.isArray(overrides)) {
    for (const [code, level] of Object.entries(overrides as Record<string, unknown>)) {
      if (typeof level === 'string') severityOverrides[code.trim().toUpperCase()] = level.trim().toLowerCase();
    }
  }
  return {
    vllmVersion: typeof version === 'string' && version.trim() ? version.trim() : null,
    associations: { globs: strings(get('associations.globs')), exclude: strings(get('associations.exclude')) },
    detection: get('detection') !== false,
    debounceMs: typeof debounce === 'number' && Number.isFinite(debounce) && debounce >= 0 ? Math.round(debounce) : null,
    severityOverrides,
    disabledCodes: strings(get('disabledCodes')).map((c) => c.toUpperCase()),
    modelDirs: strings(get('modelDirs')),
    gpu: typeof gpu === 'string' && gpu.trim() ? gpu.trim() : null,
    gpuCount: typeof gpuCount === 'number' ? gpuCount : null,
    plugins: strings(get('plugins')),
  };
}

/** Whether a configuration change needs a new server process (not just new settings). */
export function needsRestart(affects: (section: string) => boolean): boolean {
  return affects('vllmConfig.interpreter');
}
