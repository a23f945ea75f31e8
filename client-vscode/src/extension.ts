// VS Code client of vllm-config-lsp: starts the bundled Python server for YAML files and the
// other files that start vLLM (src/languages.ts); the server decides which of them it checks.
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { documentSelector, isServed } from './languages';
import { Choice, Probe, PROBE_CODE, candidates, chooseInterpreter, expandVariables, parseProbe } from './interpreter';
import { SettingGetter, needsRestart, serverSettings } from './settings';
import { DocumentInfo, HIDDEN, StatusOrigin, StatusView, fallbackInfo, newestSchemaVersion, statusView } from './status';

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
  statusItem.command = 'vllmConfig.showOutput';
  ctx.subscriptions.push(
    output,
    statusItem,
    vscode.commands.registerCommand('vllmConfig.restartServer', () => queue(restart)),
    vscode.commands.registerCommand('vllmConfig.showOutput', () => output.show(true)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (needsRestart((s) => event.affectsConfiguration(s))) {
        void queue(restart);
      } else if (event.affectsConfiguration(SECTION)) {
        void pushSettings();
      }
    }),
    vscode.window.onDidChangeActiveTextEditor(() => scheduleStatus(0)),
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
    showStatus({ visible: true, text: '$(error) vLLM Config', tooltip: interpreter.message, origin: 'none' });
    void vscode.window.showErrorMessage(interpreter.message, 'Open Settings', 'Show Output').then((pick) => {
      if (pick === 'Open Settings') void vscode.commands.executeCommand('workbench.action.openSettings', 'vllmConfig.interpreter');
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
  if (view.visible) statusItem.show();
  else statusItem.hide();
}

function scheduleStatus(delayMs: number): void {
  if (statusTimer) clearTimeout(statusTimer);
  statusTimer = setTimeout(() => void updateStatus(), delayMs);
}

function defaultVersion(): string | null {
  try {
    return newestSchemaVersion(fs.readdirSync(context.asAbsolutePath(path.join('bundled', 'libs', 'vllm_config_lsp', 'schemas'))));
  } catch {
    return null;
  }
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
    if (vscode.window.activeTextEditor?.document === document) showStatus(statusView(info, origin));
  } catch (error) {
    output.appendLine(`[client] status: ${String(error)}`);
  }
}
