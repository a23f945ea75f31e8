// The commands of the extension (package.json `contributes.commands`) and the server commands
// the palette's ones run. Pure, for node --test.
import { LANGUAGES } from './languages';

export const RESTART_SERVER = 'vllmConfig.restartServer';
export const SHOW_OUTPUT = 'vllmConfig.showOutput';
/** Opens a rule's bundled page in the Markdown preview; its one argument is the code. The
 * server's "Show documentation for VCxxx" code action and the diagnostics' links run it too. */
export const SHOW_RULE_DOCS = 'vllmConfig.showRuleDocs';
/** The release picker (the status item). */
export const SELECT_RELEASE = 'vllmConfig.selectRelease';
export const FIX_ALL_IN_FILE = 'vllmConfig.fixAllInFile';
export const MIGRATE_TO_RELEASE = 'vllmConfig.migrateToRelease';
export const SHOW_COMMAND_LINE = 'vllmConfig.showCommandLine';
/** Copies the one-line form of the command shown in a read-only command document. */
export const COPY_COMMAND_LINE = 'vllmConfig.copyCommandLine';
/** The scheme of the read-only documents "Show the command vLLM runs" opens. */
export const COMMAND_SCHEME = 'vllm-command';

/** Every command the extension registers itself. */
export const CLIENT_COMMANDS = [
  RESTART_SERVER,
  SHOW_OUTPUT,
  FIX_ALL_IN_FILE,
  MIGRATE_TO_RELEASE,
  SHOW_COMMAND_LINE,
  SELECT_RELEASE,
  SHOW_RULE_DOCS,
  COPY_COMMAND_LINE,
] as const;

/** Commands about the active file: in the palette only when it is a file the server gets. */
export const FILE_COMMANDS = [FIX_ALL_IN_FILE, MIGRATE_TO_RELEASE, SHOW_COMMAND_LINE, SELECT_RELEASE] as const;

/** The palette's `when` of FILE_COMMANDS (JSON files only as Triton's model.json reach the
 * server: the command says so when run on another). */
export function fileCommandsWhen(): string {
  return `editorLangId =~ /^(${[...LANGUAGES, 'json'].join('|')})$/ || activeWebviewPanelId == 'markdown.preview'`;
}

/** The palette's `when` of COPY_COMMAND_LINE: a command document is active. */
export const COPY_COMMAND_WHEN = `resourceScheme == ${COMMAND_SCHEME}`;

/** The one line to copy from a shown command document (after its "As one line:" line). */
export function commandLineOf(document: string): string | undefined {
  const lines = document.split('\n');
  const at = lines.lastIndexOf('As one line:');
  return at >= 0 && at + 1 < lines.length ? lines[at + 1] : undefined;
}

/** The file a Markdown preview tab shows ("Preview recipe.md", "[Preview] recipe.md"), among
 * the paths of the open documents, in the order given (the last used first). */
export function previewedPath(label: string | undefined, paths: readonly string[]): string | undefined {
  const match = /^(?:\[Preview\] |Preview )(.+)$/.exec(label ?? '');
  if (!match) return undefined;
  return paths.find((p) => p.split('/').pop() === match[1]);
}

/** Server commands (server/vllm_config_lsp/lsp/). vscode-languageclient registers each command
 * the server announces under its own name, so the client's commands have other names. */
export const SERVER_FIX_ALL = 'vllmConfig.fixAll';
export const SERVER_SHOW_COMMAND = 'vllmConfig.showCommand';
/** The kind of the server's "Migrate this config to vLLM X" code action. */
export const MIGRATE_KIND = 'source.migrate.vllm-config';
