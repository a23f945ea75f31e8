// What the status-bar item says and does. Pure, for node --test.
import { SELECT_RELEASE, SHOW_OUTPUT } from './commands';

/** The server's answer to `vllmConfig/documentInfo` (see README "Editors" → protocol). */
export interface DocumentInfo {
  isConfig: boolean;
  vllmVersion?: string | null;
  versionSource?: string | null;
  reason?: string | null;
  /** Settings the server could not use (an unknown `vllmVersion`…): shown, not ignored. */
  problems?: string[] | null;
  /** Each command line's release and why (0-based line); `versionSource` sums them up. */
  commandLines?: { line: number; vllmVersion: string; versionSource: string }[] | null;
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

/**
 * Fallback when the server does not answer `vllmConfig/documentInfo`: the version the server
 * would use (marker comment, else the setting, else its default). Whether the file is a config
 * at all still comes from the server (see extension.ts).
 */
export function fallbackInfo(text: string, setting: string | null, defaultVersion: string | null): Required<DocumentInfo> {
  const marker = markerVersion(text);
  if (marker) return { isConfig: true, vllmVersion: marker, versionSource: 'marker comment', reason: null, problems: [], commandLines: [] };
  if (setting) return { isConfig: true, vllmVersion: setting, versionSource: 'vllmVersion setting', reason: null, problems: [], commandLines: [] };
  return { isConfig: true, vllmVersion: defaultVersion, versionSource: 'default', reason: null, problems: [], commandLines: [] };
}

/** Where the status came from: the server's `vllmConfig/documentInfo`, or the fallback. */
export type StatusOrigin = 'documentInfo' | 'fallback' | 'none';

export interface StatusView {
  visible: boolean;
  text: string;
  tooltip: string;
  origin: StatusOrigin;
  /** What a click runs: the release picker for a checked file, else the output. */
  command: string;
}

export const HIDDEN: StatusView = { visible: false, text: '', tooltip: '', origin: 'none', command: SHOW_OUTPUT };

/** The item when the server cannot run (`message` says why). */
export function failedView(message: string): StatusView {
  return { visible: true, text: '$(error) vLLM Config', tooltip: `${message} Click to show the output.`, origin: 'none', command: SHOW_OUTPUT };
}

/** What each association reason (association.Reason) means, for the tooltip. */
const REASONS: Record<string, string> = {
  'marker comment': 'it has a `# vllm-config` comment',
  'file name': 'of its file name',
  content: 'its keys are `vllm serve` flags',
};

/**
 * Which release and why, as one phrase. The server's `versionSource` is the sentence hovers
 * end with ("vLLM 0.33.0, from the `# vllm-config: version=` comment"), except its fallback
 * ("newest known release …"); the client's own fallback gives short labels ("default").
 */
export function versionPhrase(version: string, source: string | null | undefined, origin: StatusOrigin): string {
  if (!source) return `vLLM ${version}`;
  if (origin === 'fallback') return `vLLM ${version} (${source})`;
  return source.startsWith('vLLM ') ? source : `vLLM ${version}: ${source}`;
}

export function statusView(info: DocumentInfo | null, origin: StatusOrigin = 'documentInfo'): StatusView {
  if (!info || !info.isConfig) return { ...HIDDEN, origin: info ? origin : 'none' };
  const version = info.vllmVersion || '?';
  const why = info.reason && REASONS[info.reason] ? ` Checked as a vLLM config because ${REASONS[info.reason]}.` : '';
  const phrase = versionPhrase(version, info.versionSource, origin).replace(/`/g, '');
  const problems = info.problems?.length ? ` Settings ignored: ${info.problems.join('; ')}.` : '';
  return {
    visible: true,
    text: `${problems ? '$(warning)' : '$(check)'} vLLM ${version}`,
    tooltip: `vLLM Config: this file is checked against ${phrase}.${why.replace(/`/g, '')}${problems} Click to choose another release.`,
    origin,
    command: SELECT_RELEASE,
  };
}
