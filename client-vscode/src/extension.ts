// VS Code client of vllm-config-lsp: starts the bundled Python server for YAML files and the
// other files that start vLLM (src/languages.ts); the server decides which of them it checks.
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { documentSelector, isServed } from './languages';
import {
  Choice,
  Probe,
  PROBE_CODE,
  candidates,
  chooseInterpreter,
  expandVariables,
  interpreterSettings,
  parseProbe,
} from './interpreter';
import {
  FIX_ALL_IN_FILE,
  MIGRATE_KIND,
  MIGRATE_TO_RELEASE,
  RESTART_SERVER,
  SELECT_RELEASE,
  SERVER_FIX_ALL,
  SERVER_SHOW_COMMAND,
  SHOW_COMMAND_LINE,
  SHOW_OUTPUT,
  SHOW_RULE_DOCS,
  COMMAND_SCHEME,
  COPY_COMMAND_LINE,
  commandLineOf,
  previewedPath,
} from './commands';
import { canHoldMarker, knownReleases, markerEdit } from './releases';
import { INDEX_PAGE, RULE_DOCS_DIR, docsCommandUri, pageName, ruleCode, ruleIndex } from './ruleDocs';
import { SettingGetter, needsRestart, serverSettings } from './settings';
import { DocumentInfo, HIDDEN, StatusOrigin, StatusView, failedView, fallbackInfo, markerVersion, statusView } from './status';

const SECTION = 'vllmConfig';
const CLIENT_ID = 'vllmConfig'; // the client reads `vllmConfig.trace.server` by this id
/** The server's status request (server/vllm_config_lsp/lsp/info.py); older servers lack it. */
const DOCUMENT_INFO = 'vllmConfig/documentInfo';
const METHOD_NOT_FOUND = -32601;

let context: vscode.ExtensionContext;
let output: vscode.OutputChannel;
let statusItem: vscode.StatusBarItem;
let client: LanguageClient | undefined;
let interpreter: Choice | undefined;
let lifecycle: Promise<void> = Promise.resolve();
let documentInfoSupported = true;
let statusTimer: NodeJS.Timeout | undefined;
let lastStatus: StatusView = HIDDEN;
/** What the server said about the active document at the last status update. */
let lastInfo: DocumentInfo | null = null;
/** The read-only documents "Show the command vLLM runs" opened, by URI. */
const shownCommands = new Map<string, string>();
/** The served document last in the active editor (what a command run from a preview is about). */
let lastServed: string | undefined;
/** Error messages already shown as a notification: each is said once per window. */
const announced = new Set<string>();
/** File names of the bundled rule pages (docs/rules/). */
let rulePages = new Set<string>();

/** What the extension exports (used by the end-to-end test and other extensions). */
export interface Api {
  client(): LanguageClient | undefined;
  interpreter(): Choice | undefined;
  status(): StatusView;
  refreshStatus(): Promise<StatusView>;
}

export async function activate(ctx: vscode.ExtensionContext): Promise<Api> {
  context = ctx;
  output = vscode.window.createOutputChannel('vLLM Config');
  statusItem = vscode.window.createStatusBarItem('vllmConfig.status', vscode.StatusBarAlignment.Right, 100);
  statusItem.name = 'vLLM Config';
  rulePages = new Set(listDir(ctx.asAbsolutePath(path.join(...RULE_DOCS_DIR))));
  ctx.subscriptions.push(
    output,
    statusItem,
    vscode.commands.registerCommand(RESTART_SERVER, () => queue(restart)),
    vscode.commands.registerCommand(SHOW_OUTPUT, () => output.show(true)),
    vscode.commands.registerCommand(SHOW_RULE_DOCS, showRuleDocs),
    vscode.commands.registerCommand(SELECT_RELEASE, selectRelease),
    vscode.commands.registerCommand(FIX_ALL_IN_FILE, fixAllInFile),
    vscode.commands.registerCommand(MIGRATE_TO_RELEASE, migrateToRelease),
    vscode.commands.registerCommand(SHOW_COMMAND_LINE, showCommandLine),
    vscode.commands.registerCommand(COPY_COMMAND_LINE, copyCommandLine),
    vscode.workspace.registerTextDocumentContentProvider(COMMAND_SCHEME, { provideTextDocumentContent: (uri) => shownCommands.get(uri.toString()) ?? '' }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (needsRestart((s) => event.affectsConfiguration(s))) {
        void queue(restart);
      } else if (event.affectsConfiguration(SECTION)) {
        void pushSettings();
      }
    }),
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      if (editor && isServed(editor.document.languageId, editor.document.uri.path)) lastServed = editor.document.uri.toString();
      scheduleStatus(0);
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === vscode.window.activeTextEditor?.document) scheduleStatus(500);
    }),
    vscode.workspace.onDidSaveTextDocument(() => scheduleStatus(0)),
    { dispose: () => statusTimer && clearTimeout(statusTimer) },
  );
  watchPythonExtension(ctx);
  await queue(start);
  return {
    client: () => client,
    interpreter: () => interpreter,
    status: () => lastStatus,
    refreshStatus: async () => {
      await updateStatus();
      return lastStatus;
    },
  };
}

export function deactivate(): Promise<void> {
  return queue(stop);
}

/** Starts, stops and restarts run one after the other. */
function queue(step: () => Promise<void>): Promise<void> {
  lifecycle = lifecycle.then(step, step);
  return lifecycle;
}

function config(scope?: vscode.Uri): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration(SECTION, scope);
}

function settingsFor(scope?: vscode.Uri) {
  const section = config(scope);
  const get: SettingGetter = (key) => section.get(key);
  return serverSettings(get);
}

async function start(): Promise<void> {
  const section = config();
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const expand = (value: string) =>
    expandVariables(value, { home: os.homedir(), workspaceFolder: folder, env: process.env });
  const list = candidates({
    setting: section.get('interpreter'),
    pythonExtension: await pythonExtensionCommand(),
    platform: process.platform,
    expand,
  });
  interpreter = await chooseInterpreter(list, probe);
  for (const line of interpreter.log) output.appendLine(`[interpreter] ${line}`);
  if (!interpreter.ok) {
    output.appendLine(interpreter.message);
    showStatus(failedView(interpreter.message));
    if (announced.has(interpreter.message)) return; // restarts and new documents repeat nothing
    announced.add(interpreter.message);
    void vscode.window.showErrorMessage(interpreter.message, 'Open Settings', 'Show Output').then((pick) => {
      const settings = interpreterSettings(vscode.env.remoteName);
      if (pick === 'Open Settings') void vscode.commands.executeCommand(settings.command, ...settings.args);
      if (pick === 'Show Output') output.show(true);
    });
    return;
  }
  const command = interpreter.candidate.command;
  const launcher = context.asAbsolutePath(path.join('bundled', 'tool', 'launcher.py'));
  const serverOptions: ServerOptions = {
    command: command[0],
    args: [...command.slice(1), '-I', launcher, '--stdio'],
    options: { cwd: folder, env: { ...process.env, PYTHONUTF8: '1' } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    diagnosticCollectionName: 'vllm-config',
    outputChannel: output,
    traceOutputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    initializationOptions: { [SECTION]: settingsFor() },
    middleware: {
      handleDiagnostics: (uri, diagnostics, next) => next(uri, diagnostics.map(linkToBundledPage)),
      // the lens opens the command as a read-only document (the client's command), not a toast
      provideCodeLenses: async (document, token, next) =>
        ((await next(document, token)) ?? []).map((lens) =>
          lens.command?.command === SERVER_SHOW_COMMAND ? new vscode.CodeLens(lens.range, { ...lens.command, command: SHOW_COMMAND_LINE }) : lens,
        ),
      workspace: {
        // answer the server's `vllmConfig` pulls with the mapped settings (no client-only keys)
        configuration: async (params, token, next) => {
          const answers = await next(params, token);
          if (!Array.isArray(answers)) return answers;
          return params.items.map((item, i) =>
            item.section === SECTION ? settingsFor(item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined) : answers[i],
          );
        },
      },
    },
  };
  client = new LanguageClient(CLIENT_ID, 'vLLM Config', serverOptions, clientOptions);
  client.onDidChangeState((e) => {
    if (e.newState !== State.Running) showStatus(HIDDEN);
    else scheduleStatus(0);
  });
  output.appendLine(`[client] starting ${command.join(' ')} -I ${launcher} --stdio`);
  try {
    await client.start();
  } catch (error) {
    output.appendLine(`[client] the server did not start: ${String(error)}`);
    void vscode.window.showErrorMessage('vLLM Config: the language server did not start. See the output.', 'Show Output').then((pick) => {
      if (pick) output.show(true);
    });
    return;
  }
  documentInfoSupported = true;
  scheduleStatus(0);
}

async function stop(): Promise<void> {
  const old = client;
  client = undefined;
  showStatus(HIDDEN);
  if (old) {
    try {
      await old.dispose(3000);
    } catch (error) {
      output.appendLine(`[client] stopping the server: ${String(error)}`);
    }
  }
}

async function restart(): Promise<void> {
  output.appendLine('[client] restarting the server');
  await stop();
  await start();
}

async function pushSettings(): Promise<void> {
  if (!client || client.state !== State.Running) return;
  await client.sendNotification(DidChangeConfigurationNotification.type, { settings: { [SECTION]: settingsFor() } });
  scheduleStatus(300);
}

const probe: Probe = (command) =>
  new Promise((resolve) => {
    execFile(command[0], [...command.slice(1), '-c', PROBE_CODE], { timeout: 15000, windowsHide: true }, (error, stdout, stderr) => {
      if (!error) return resolve(parseProbe(stdout));
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return resolve({ ok: false, error: 'not found' });
      const last = String(stderr).trim().split(/\r?\n/).pop();
      resolve({ ok: false, error: last || error.message });
    });
  });

// -- the Python extension (optional) ----------------------------------------------------------

interface PythonApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
    resolveEnvironment(env: unknown): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
    onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
  settings?: { getExecutionDetails?(resource?: vscode.Uri): { execCommand?: string[] } };
}

async function pythonApi(): Promise<PythonApi | undefined> {
  const extension = vscode.extensions.getExtension<PythonApi>('ms-python.python');
  if (!extension) return undefined;
  try {
    return extension.isActive ? extension.exports : await extension.activate();
  } catch (error) {
    output.appendLine(`[interpreter] the Python extension did not activate: ${String(error)}`);
    return undefined;
  }
}

async function pythonExtensionCommand(): Promise<string[] | undefined> {
  const api = await pythonApi();
  if (!api) return undefined;
  const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
  try {
    const environments = api.environments;
    if (environments) {
      const active = environments.getActiveEnvironmentPath(resource);
      const resolved = active ? await environments.resolveEnvironment(active) : undefined;
      const executable = resolved?.executable?.uri?.fsPath;
      if (executable) return [executable];
    }
    const command = api.settings?.getExecutionDetails?.(resource)?.execCommand;
    if (command && command.length) return command;
  } catch (error) {
    output.appendLine(`[interpreter] asking the Python extension: ${String(error)}`);
  }
  return undefined;
}

function watchPythonExtension(ctx: vscode.ExtensionContext): void {
  const extension = vscode.extensions.getExtension<PythonApi>('ms-python.python');
  if (!extension) return;
  void pythonApi().then((api) => {
    const event = api?.environments?.onDidChangeActiveEnvironmentPath;
    if (!event) return;
    ctx.subscriptions.push(
      event(() => {
        if (interpreter?.ok && interpreter.candidate.source === 'setting') return;
        void queue(restart);
      }),
    );
  });
}

// -- status bar ---------------------------------------------------------------------------------

function showStatus(view: StatusView): void {
  lastStatus = view;
  statusItem.text = view.text;
  statusItem.tooltip = view.tooltip;
  statusItem.command = view.command;
  if (view.visible) statusItem.show();
  else statusItem.hide();
}

function scheduleStatus(delayMs: number): void {
  if (statusTimer) clearTimeout(statusTimer);
  statusTimer = setTimeout(() => void updateStatus(), delayMs);
}

function listDir(folder: string): string[] {
  try {
    return fs.readdirSync(folder);
  } catch {
    return [];
  }
}

/** The releases the bundled server has catalogues of, newest first. */
function bundledReleases(): string[] {
  return knownReleases(listDir(context.asAbsolutePath(path.join('bundled', 'libs', 'vllm_config_lsp', 'schemas'))));
}

function defaultVersion(): string | null {
  return bundledReleases()[0] ?? null;
}

interface Answer {
  info: DocumentInfo | null;
  origin: StatusOrigin;
}

async function documentInfo(current: LanguageClient, document: vscode.TextDocument): Promise<Answer> {
  const textDocument = { uri: current.code2ProtocolConverter.asUri(document.uri) };
  if (documentInfoSupported) {
    try {
      return { info: await current.sendRequest<DocumentInfo>(DOCUMENT_INFO, { textDocument }), origin: 'documentInfo' };
    } catch (error) {
      if ((error as { code?: number }).code !== METHOD_NOT_FOUND) throw error;
      documentInfoSupported = false;
      output.appendLine(`[client] the server has no ${DOCUMENT_INFO}; the status bar falls back to documentSymbol and the marker comment`);
    }
  }
  // Fallback (servers before vllmConfig/documentInfo): they answer documentSymbol with null
  // for files they do not treat as configs.
  const symbols = await current.sendRequest<unknown>('textDocument/documentSymbol', { textDocument });
  if (symbols === null || symbols === undefined) return { info: { isConfig: false }, origin: 'fallback' };
  return { info: fallbackInfo(document.getText(), settingsFor(document.uri).vllmVersion, defaultVersion()), origin: 'fallback' };
}

async function updateStatus(): Promise<void> {
  const current = client;
  const document = vscode.window.activeTextEditor?.document;
  if (!current || current.state !== State.Running || !document || !isServed(document.languageId, document.uri.path)) {
    if (interpreter?.ok !== false) showStatus(HIDDEN);
    return;
  }
  try {
    const { info, origin } = await documentInfo(current, document);
    if (vscode.window.activeTextEditor?.document !== document) return;
    lastInfo = info;
    showStatus(statusView(info, origin));
  } catch (error) {
    output.appendLine(`[client] status: ${String(error)}`);
  }
}

// -- rule documentation -------------------------------------------------------------------------

/** A diagnostic's code links to its bundled page, opened in the editor (not a web page). */
function linkToBundledPage(diagnostic: vscode.Diagnostic): vscode.Diagnostic {
  const value = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  const code = ruleCode(value);
  if (code && rulePages.has(pageName(code))) diagnostic.code = { value: code, target: vscode.Uri.parse(docsCommandUri(code)) };
  return diagnostic;
}

/** SHOW_RULE_DOCS: the page of `value` (a code, from a code action or a diagnostic's link) in
 * the Markdown preview; from the palette (no argument), a pick of the rules first. */
async function showRuleDocs(value?: unknown): Promise<void> {
  const code = value === undefined ? await pickRule() : ruleCode(value);
  if (!code) {
    if (value !== undefined) void vscode.window.showWarningMessage(`vLLM Config: ${JSON.stringify(value)} is not a rule code.`);
    return;
  }
  if (!rulePages.has(pageName(code))) {
    void vscode.window.showWarningMessage(`vLLM Config: this extension has no documentation for ${code}.`);
    return;
  }
  const page = vscode.Uri.file(context.asAbsolutePath(path.join(...RULE_DOCS_DIR, pageName(code))));
  await vscode.commands.executeCommand('markdown.showPreview', page);
}

async function pickRule(): Promise<string | null> {
  let index = '';
  try {
    index = fs.readFileSync(context.asAbsolutePath(path.join(...RULE_DOCS_DIR, INDEX_PAGE)), 'utf8');
  } catch {
    // no pages bundled (a development checkout before `npm run build`): an empty pick
  }
  const pick = await vscode.window.showQuickPick(
    ruleIndex(index).map((rule) => ({ label: rule.code, description: rule.name, detail: rule.summary })),
    { placeHolder: 'The rule whose documentation to open', matchOnDescription: true, matchOnDetail: true },
  );
  return pick ? pick.label : null;
}

// -- the release picker (the status item) -------------------------------------------------------

interface ReleaseItem extends vscode.QuickPickItem {
  release?: string;
}

interface TargetItem extends vscode.QuickPickItem {
  target: 'marker' | 'setting';
}

/** SELECT_RELEASE: pick a release, then pin it in the file's comment or the workspace setting. */
async function selectRelease(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const releases = bundledReleases();
  if (!editor || !releases.length) return output.show(true);
  const document = editor.document;
  const now = lastInfo?.isConfig ? lastInfo.vllmVersion : null;
  const items: ReleaseItem[] = releases.map((release, i) => ({
    label: release,
    release,
    description: [i === 0 ? 'newest' : '', release === now ? 'checked against now' : ''].filter(Boolean).join(', '),
  }));
  items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: '$(output) Show the server output' });
  const chosen = await vscode.window.showQuickPick(items, {
    placeHolder: `vLLM release to check ${path.basename(document.uri.path)} against${now ? ` (now ${now})` : ''}`,
  });
  if (!chosen) return;
  const release = chosen.release;
  if (!release) return output.show(true);
  const pinned = markerVersion(document.getText());
  const marker: TargetItem = {
    label: `$(comment) Write "# vllm-config: version=${release}" in this file`,
    description: 'this file only; the comment wins over the setting',
    target: 'marker',
  };
  const setting: TargetItem = {
    label: `$(settings-gear) Set vllmConfig.vllmVersion to ${release} in the workspace settings`,
    description: pinned ? `not for this file: its comment says ${pinned}` : 'the files without a version comment',
    target: 'setting',
  };
  const targets = !canHoldMarker(document.languageId) ? [setting] : pinned ? [marker, setting] : [setting, marker];
  const where = await vscode.window.showQuickPick(targets, { placeHolder: `Where to choose vLLM ${release}` });
  if (where?.target === 'marker') {
    const change = markerEdit(document.getText(), release);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(change.line, change.start, change.line, change.end), change.newText);
    await vscode.workspace.applyEdit(edit);
  } else if (where?.target === 'setting') {
    const scope = vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
    await config(document.uri).update('vllmVersion', release, scope);
  }
  scheduleStatus(300);
}

// -- palette commands that run the server's features on the active document ---------------------

/** The file a palette command is about: the active editor's, else, with a Markdown preview
 * active, the file it previews (or the file last edited, when the preview is of a page). */
function targetDocument(): { document: vscode.TextDocument; editor?: vscode.TextEditor } | undefined {
  const active = vscode.window.activeTextEditor;
  if (active) return { document: active.document, editor: active };
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
  if (!(tab && tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('markdown.preview'))) return undefined;
  const open = vscode.workspace.textDocuments.filter((d) => !d.isClosed && isServed(d.languageId, d.uri.path));
  const ordered = [...open.filter((d) => d.uri.toString() === lastServed), ...open.filter((d) => d.uri.toString() !== lastServed)];
  const shown = previewedPath(tab.label, ordered.map((d) => d.uri.path));
  const document = ordered.find((d) => d.uri.path === shown) ?? ordered.find((d) => d.uri.toString() === lastServed);
  if (!document) return undefined;
  return { document, editor: vscode.window.visibleTextEditors.find((e) => e.document === document) };
}

/** The running client and the document a palette command is about, when the server has it. */
function activeServed(): { current: LanguageClient; document: vscode.TextDocument; editor?: vscode.TextEditor } | undefined {
  const target = targetDocument();
  const current = client;
  if (!target || !current || current.state !== State.Running || !isServed(target.document.languageId, target.document.uri.path)) {
    void vscode.window.showInformationMessage('vLLM Config: open a file the extension checks first.');
    return undefined;
  }
  return { current, ...target };
}

async function fixAllInFile(): Promise<void> {
  const served = activeServed();
  if (!served) return;
  const uri = served.current.code2ProtocolConverter.asUri(served.document.uri);
  try {
    await served.current.sendRequest(ExecuteCommandRequest.type, { command: SERVER_FIX_ALL, arguments: [uri] });
  } catch (error) {
    output.appendLine(`[client] ${SERVER_FIX_ALL}: ${String(error)}`);
    void vscode.window.showErrorMessage(`vLLM Config: Fix all failed: ${(error as Error).message ?? String(error)}`);
  }
}

/** The server's "Migrate this config to vLLM X" action, picked and applied with its report. */
async function migrateToRelease(): Promise<void> {
  const served = activeServed();
  if (!served) return;
  const document = served.document;
  const whole = new vscode.Range(0, 0, document.lineCount, 0);
  const actions =
    (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', document.uri, whole, MIGRATE_KIND)) ?? [];
  const kind = vscode.CodeActionKind.Empty.append(MIGRATE_KIND);
  const offered = actions.filter((a): a is vscode.CodeAction => 'kind' in a && !!a.kind && kind.contains(a.kind));
  if (!offered.length) {
    const release = lastInfo?.isConfig && lastInfo.vllmVersion ? `vLLM ${lastInfo.vllmVersion}` : 'its release';
    void vscode.window.showInformationMessage(`vLLM Config: nothing to migrate: this file is checked against ${release} and the newest release needs no change.`);
    return;
  }
  const pick = await vscode.window.showQuickPick(offered.map((action) => ({ label: action.title, action })), { placeHolder: 'Migrate to release' });
  if (!pick) return;
  if (pick.action.edit) await vscode.workspace.applyEdit(pick.action.edit);
  if (pick.action.command) await vscode.commands.executeCommand(pick.action.command.command, ...(pick.action.command.arguments ?? []));
}

/** The server's "show the command vLLM runs" of the command line at the cursor (or picked,
 * when the file starts vLLM several times; or the lens's own `uri, index`), opened as a
 * read-only document. */
async function showCommandLine(uri?: unknown, index?: unknown): Promise<void> {
  if (typeof uri === 'string' && typeof index === 'number') return showCommandDocument(uri, index);
  const served = activeServed();
  if (!served) return;
  const { document, editor } = served;
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri)) ?? [];
  const ours = lenses.filter((lens) => lens.command?.command === SHOW_COMMAND_LINE || lens.command?.command === SERVER_SHOW_COMMAND);
  if (!ours.length) {
    void vscode.window.showInformationMessage('vLLM Config: no command line that starts vLLM in this file.');
    return;
  }
  const cursor = editor?.selection.active;
  let lens = (cursor && ours.find((l) => l.range.contains(cursor))) || (ours.length === 1 ? ours[0] : undefined);
  if (!lens) {
    const pick = await vscode.window.showQuickPick(
      ours.map((l) => ({ label: `line ${l.range.start.line + 1}`, description: document.lineAt(l.range.start.line).text.trim(), lens: l })),
      { placeHolder: 'The command line to show' },
    );
    lens = pick?.lens;
  }
  const [lensUri, lensIndex] = lens?.command?.arguments ?? [];
  if (typeof lensUri === 'string' && typeof lensIndex === 'number') await showCommandDocument(lensUri, lensIndex);
}

/** The server's answer for one command line, in a read-only document beside the file. */
async function showCommandDocument(uri: string, index: number): Promise<void> {
  const current = client;
  if (!current || current.state !== State.Running) return output.show(true);
  const shown = (await current.sendRequest(ExecuteCommandRequest.type, { command: SERVER_SHOW_COMMAND, arguments: [uri, index, 'document'] })) as
    | { document?: string; line?: number }
    | null;
  if (!shown?.document) {
    void vscode.window.showInformationMessage('vLLM Config: that command line is gone (the file changed).');
    return;
  }
  const name = path.posix.basename(vscode.Uri.parse(uri).path);
  const shownUri = vscode.Uri.from({ scheme: COMMAND_SCHEME, path: `/${name}, line ${(shown.line ?? 0) + 1}.txt`, query: String(Date.now()) });
  shownCommands.set(shownUri.toString(), shown.document);
  const opened = await vscode.workspace.openTextDocument(shownUri);
  await vscode.window.showTextDocument(opened, { preview: true, viewColumn: vscode.ViewColumn.Beside });
}

/** COPY_COMMAND_LINE: the one-line form of the active command document, to the clipboard. */
async function copyCommandLine(): Promise<string | undefined> {
  const document = vscode.window.activeTextEditor?.document;
  const line = document && document.uri.scheme === COMMAND_SCHEME ? commandLineOf(document.getText()) : undefined;
  if (!line) return undefined;
  await vscode.env.clipboard.writeText(line);
  void vscode.window.setStatusBarMessage('vLLM Config: command line copied', 3000);
  return line;
}
