// What the status-bar item says. Pure, for node --test.

/** The server's answer to `vllmConfig/documentInfo` (see README "Editors" → protocol). */
export interface DocumentInfo {
  isConfig: boolean;
  vllmVersion?: string | null;
  versionSource?: string | null;
  reason?: string | null;
}

/** `# vllm-config: version=0.33.0` in the first 10 lines (files.marker_options). */
export function markerVersion(text: string): string | null {
  const head = text.split(/\r?\n/, 10).join('\n');
  const match = /^\s*#\s*vllm-config\b(?::\s*(.*))?/m.exec(head);
  if (!match) return null;
  for (const part of (match[1] ?? '').split(/[\s,]+/)) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq) === 'version' && part.slice(eq + 1)) return part.slice(eq + 1);
  }
  return null;
}

export function hasMarker(text: string): boolean {
  return /^\s*#\s*vllm-config\b/m.test(text.split(/\r?\n/, 10).join('\n'));
}

/** Newest version among `vllm-X.Y.Z.schema.json` names (what the server defaults to). */
export function newestSchemaVersion(fileNames: string[]): string | null {
  const versions = fileNames
    .map((n) => /^vllm-(\d+)\.(\d+)\.(\d+)\.schema\.json$/.exec(n))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [+m[1], +m[2], +m[3]]);
  versions.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const last = versions[versions.length - 1];
  return last ? last.join('.') : null;
}

/**
 * Fallback when the server does not answer `vllmConfig/documentInfo`: the version the server
 * would use (marker comment, else the setting, else its default). Whether the file is a config
 * at all still comes from the server (see extension.ts).
 */
export function fallbackInfo(text: string, setting: string | null, defaultVersion: string | null): Required<DocumentInfo> {
  const marker = markerVersion(text);
  if (marker) return { isConfig: true, vllmVersion: marker, versionSource: 'marker comment', reason: null };
  if (setting) return { isConfig: true, vllmVersion: setting, versionSource: 'vllmVersion setting', reason: null };
  return { isConfig: true, vllmVersion: defaultVersion, versionSource: 'default', reason: null };
}

export interface StatusView {
  visible: boolean;
  text: string;
  tooltip: string;
}

export function statusView(info: DocumentInfo | null): StatusView {
  if (!info || !info.isConfig) return { visible: false, text: '', tooltip: '' };
  const version = info.vllmVersion || '?';
  const why = info.versionSource ? ` (${info.versionSource})` : '';
  return {
    visible: true,
    text: `$(check) vLLM ${version}`,
    tooltip: `vLLM Config: this file is checked against vLLM ${version}${why}. Click to show the server output.`,
  };
}
