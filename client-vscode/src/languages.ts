// The languages whose files go to the server: vLLM configs are YAML, and `vllm serve` starts
// are also found in shell scripts, Dockerfiles, Markdown fences, Compose files, Makefiles, justfiles, TOML files,
// Python launchers (`subprocess` argv lists, `LLM(...)`, notebook cells) and templates of them. The server
// decides which documents it reports on and stays silent on the others.
export const LANGUAGES = ['yaml', 'dockercompose', 'shellscript', 'dockerfile', 'markdown', 'makefile', 'just', 'toml', 'python', 'jinja', 'jinja-yaml', 'jinja-toml', 'jinja-shell', 'jinja-dockerfile'] as const;

/** The scheme of a Jupyter notebook's cells in VS Code's notebook editor: each code cell is a
 * `python` text document of its own, which the server reads as IPython (`!vllm serve …`). */
export const NOTEBOOK_CELL_SCHEME = 'vscode-notebook-cell';

// JSON files are served only under the name Triton's vLLM backend reads its engine arguments
// from: every other JSON file of a workspace stays away from the server.
export const TRITON_PATTERN = '**/model.json';

type Selector = { scheme: 'file' | 'untitled' | typeof NOTEBOOK_CELL_SCHEME; language: string; pattern?: string };

/** Files on disk and unsaved (untitled) editors, in every language above, notebook code cells,
 * and `model.json`. */
export function documentSelector(): Selector[] {
  return [
    ...LANGUAGES.flatMap((language) => [
      { scheme: 'file' as const, language },
      { scheme: 'untitled' as const, language },
    ]),
    { scheme: NOTEBOOK_CELL_SCHEME, language: 'python' },
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
