// The release picker behind the status item: which vLLM releases the bundled server knows, and
// the edit that pins one in a file's `# vllm-config: version=…` comment. Pure, for node --test.

/** Releases among the names of the server's catalogues (`catalogue-0.33.0.json`,
 * `catalogue-0.6.6.post1.json`: vllm/catalogue.py `available_versions`), newest first. */
export function knownReleases(fileNames: string[]): string[] {
  const releases = fileNames.map((n) => /^catalogue-(\d[\w.]*)\.json$/.exec(n)?.[1]).filter((r): r is string => !!r);
  const key = (release: string) => (release.match(/\d+/g) ?? []).map(Number);
  return releases.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? -1) !== (y[i] ?? -1)) return (y[i] ?? -1) - (x[i] ?? -1);
    return 0;
  });
}

/** Languages whose comments start with `#`, where the marker comment can be written (in
 * Markdown it would be a heading, JSON has no comments). */
export const COMMENT_LANGUAGES = ['yaml', 'dockercompose', 'shellscript', 'dockerfile', 'makefile', 'toml', 'python'] as const;

export function canHoldMarker(languageId: string): boolean {
  return (COMMENT_LANGUAGES as readonly string[]).includes(languageId);
}

/** One replacement, in VS Code's line/character (UTF-16) terms. */
export interface LineEdit {
  line: number;
  start: number;
  end: number;
  newText: string;
}

/** Lines searched for the marker (document/markers.py: MARKER_LINES). */
const MARKER_LINES = 10;
const MARKER = /^(\s*#\s*vllm-config\b)(?::(\s*)(.*))?/;
/** Lines that must stay first: a shebang, Dockerfile parser directives, Python's source
 * encoding declaration (PEP 263: only on line 1 or 2). */
const MUST_BE_FIRST = /^(#!|#\s*(syntax|escape|check)\s*=|[ \t\f]*#.*?coding[:=])/i;

/**
 * The edit that makes the file's marker comment say `version=<release>`: its version
 * replaced, `version=` added to a comment without one, or a new comment line after a
 * shebang or parser directives.
 */
export function markerEdit(text: string, release: string): LineEdit {
  const all = text.split(/\r\n|\r|\n/);
  const lines = all.slice(0, MARKER_LINES);
  for (const [line, content] of lines.entries()) {
    const match = MARKER.exec(content);
    if (!match) continue;
    const head = match[1];
    if (match[3] === undefined) return { line, start: head.length, end: head.length, newText: `: version=${release}` };
    const optionsAt = head.length + 1 + match[2].length;
    const version = /(^|[\s,])version=([^\s,]*)/.exec(match[3]);
    if (!version) {
      const options = match[3].trim() ? `version=${release}, ` : `version=${release}`;
      return { line, start: optionsAt, end: optionsAt, newText: (match[2] ? '' : ' ') + options };
    }
    const start = optionsAt + version.index + version[1].length + 'version='.length;
    return { line, start, end: start + version[2].length, newText: release };
  }
  let line = 0;
  while (line < lines.length && MUST_BE_FIRST.test(lines[line])) line++;
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const comment = `# vllm-config: version=${release}`;
  if (line < all.length) return { line, start: 0, end: 0, newText: comment + eol };
  const last = all[line - 1]; // the directives are the whole file, without a final line break
  return { line: line - 1, start: last.length, end: last.length, newText: eol + comment };
}
