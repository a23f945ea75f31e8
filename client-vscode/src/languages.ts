// The languages whose files go to the server: vLLM configs are YAML, and `vllm serve` starts
// are also found in shell scripts, Dockerfiles, Markdown fences, Compose files, Makefiles, justfiles, TOML files and templates of them. The server
// decides which documents it reports on and stays silent on the others.
export const LANGUAGES = ['yaml', 'dockercompose', 'shellscript', 'dockerfile', 'markdown', 'makefile', 'just', 'toml', 'jinja', 'jinja-yaml', 'jinja-toml', 'jinja-shell', 'jinja-dockerfile'] as const;

// JSON files are served only under the name Triton's vLLM backend reads its engine arguments
// from: every other JSON file of a workspace stays away from the server.
export const TRITON_PATTERN = '**/model.json';

type Selector = { scheme: 'file' | 'untitled'; language: string; pattern?: string };

/** Files on disk and unsaved (untitled) editors, in every language above, and `model.json`. */
export function documentSelector(): Selector[] {
  return [
    ...LANGUAGES.flatMap((language) => [
      { scheme: 'file' as const, language },
      { scheme: 'untitled' as const, language },
    ]),
    { scheme: 'file', language: 'json', pattern: TRITON_PATTERN },
  ];
}

/** package.json's activationEvents: the extension starts with the first such document, or
 * in a workspace that holds a Triton model repository. */
export function activationEvents(): string[] {
  return [...LANGUAGES.map((language) => `onLanguage:${language}`), `workspaceContains:${TRITON_PATTERN}`];
}

/** Whether a document goes to the server (its path decides for JSON). */
export function isServed(languageId: string, path = ''): boolean {
  if (languageId === 'json') return /(^|[/\\])model\.json$/.test(path);
  return (LANGUAGES as readonly string[]).includes(languageId);
}
