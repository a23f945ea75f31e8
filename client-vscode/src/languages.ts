// The languages whose files go to the server: vLLM configs are YAML, and `vllm serve` starts
// are also found in shell scripts, Dockerfiles, Markdown fences and Compose files. The server
// decides which documents it reports on and stays silent on the others.
export const LANGUAGES = ['yaml', 'dockercompose', 'shellscript', 'dockerfile', 'markdown'] as const;

/** Files on disk and unsaved (untitled) editors, in every language above. */
export function documentSelector(): { scheme: 'file' | 'untitled'; language: string }[] {
  return LANGUAGES.flatMap((language) => [
    { scheme: 'file' as const, language },
    { scheme: 'untitled' as const, language },
  ]);
}

/** package.json's activationEvents: the extension starts with the first such document. */
export function activationEvents(): string[] {
  return LANGUAGES.map((language) => `onLanguage:${language}`);
}

export function isServed(languageId: string): boolean {
  return (LANGUAGES as readonly string[]).includes(languageId);
}
