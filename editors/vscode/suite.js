// Runs inside the real VS Code extension host (code-server), against the INSTALLED .vsix.
// editors/run.py sets: VLLM_E2E_FILE (a copy of the case's example in the opened folder),
// VLLM_E2E_CASE (what must be seen in it: Case.for_suite() in editors/run.py),
// VLLM_E2E_EXPECTED (the file as it must be after the fix), VLLM_E2E_OUT (result JSON),
// VLLM_E2E_SCREENSHOT (driver.js saves it when this suite logs E2E-SCREENSHOT-NOW).
const assert = require('assert');
const fs = require('fs');
const vscode = require('vscode');

const EXTENSION_ID = 'vllm-config-lsp.vllm-config';
const SOURCE = 'vllm-config';
const CASE = JSON.parse(process.env.VLLM_E2E_CASE);
const CODE = CASE.code;
const RANGE = CASE.range;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
async function waitFor(predicate, ms, what) {
  const end = Date.now() + ms;
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timeout waiting for ${what}`);
    await sleep(50);
  }
}
const ours = (uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);

// What only the workbench shows (notifications, quick picks, the settings editor, webviews):
// driver.js performs the steps in the page, as a user would, and answers with what it shows.
let asked = 0;
async function driver(steps, what) {
  const n = ++asked;
  const answer = `${process.env.VLLM_E2E_SCREENSHOT}.act-${n}.json`;
  console.log(`E2E-ACT ${n} ${JSON.stringify(steps)}`);
  await waitFor(() => fs.existsSync(answer), 30000, `the driver (${what})`);
  const { ok, error, dom } = JSON.parse(fs.readFileSync(answer, 'utf8'));
  assert.ok(ok, `${what}: ${error} ${JSON.stringify(dom)}`);
  return dom;
}
/** Polls what the workbench shows until `predicate` holds. */
async function shows(predicate, what, ms = 20000) {
  const end = Date.now() + ms;
  for (;;) {
    const dom = await driver([{ type: 'wait', ms: 200 }], what);
    if (predicate(dom)) return dom;
    if (Date.now() > end) throw new Error(`the workbench never showed ${what}: ${JSON.stringify(dom).slice(0, 3000)}`);
  }
}
const picking = (dom) => dom.quickInput.visible && dom.quickInput.rows.length > 0;
const ourToasts = (dom, needle) => dom.notifications.filter((n) => n.message && n.message.includes(needle));

/** A new file beside the case's, open in the editor. */
async function scratch(name, content) {
  const file = require('path').join(require('path').dirname(process.env.VLLM_E2E_FILE), name);
  fs.writeFileSync(file, content);
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  await vscode.window.showTextDocument(document);
  return { file, document };
}
async function discard({ file }) {
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  fs.unlinkSync(file);
}
const text = (content) => (typeof content === 'string' ? content : content.value);

exports.run = async function run() {
  const out = { ok: false, ms: {} };
  const t0 = Date.now();
  const mark = (name) => (out.ms[name] = Date.now() - t0);
  try {
    const file = process.env.VLLM_E2E_FILE;
    const uri = vscode.Uri.file(file);
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not installed`);
    out.extension = { path: extension.extensionPath, version: extension.packageJSON.version };
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    out.languageId = document.languageId;
    const api = await waitFor(() => extension.isActive && extension.exports, 60000, 'activation');
    mark('activated');

    // 1. the diagnostic: code (with its documentation link), severity, message, range
    const diagnostics = await waitFor(() => ours(uri).length && ours(uri), 60000, 'diagnostics');
    mark('diagnostics');
    out.diagnostics = diagnostics.map((d) => ({
      code: typeof d.code === 'object' ? d.code.value : d.code,
      href: typeof d.code === 'object' && d.code.target ? d.code.target.toString() : null,
      severity: d.severity,
      message: d.message,
      range: [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character],
    }));
    assert.strictEqual(diagnostics.length, 1, JSON.stringify(out.diagnostics));
    const [diagnostic] = diagnostics;
    assert.strictEqual(out.diagnostics[0].code, CODE);
    assert.ok(out.diagnostics[0].href && out.diagnostics[0].href.includes(CODE), 'codeDescription link');
    assert.strictEqual(diagnostic.severity, vscode.DiagnosticSeverity.Error);
    assert.ok(diagnostic.message.startsWith(CASE.message), diagnostic.message);
    assert.deepStrictEqual(out.diagnostics[0].range, RANGE);

    // 2. hover on the key, completion inside a key (where the case has one)
    const hoverAt = new vscode.Position(...CASE.hover);
    const hovers = await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, hoverAt);
    out.hover = hovers.flatMap((h) => h.contents.map(text)).join('\n---\n');
    assert.ok(out.hover.includes(CASE.hoverText), `hover: ${out.hover}`);
    if (CASE.completion) {
      const completion = await vscode.commands.executeCommand(
        'vscode.executeCompletionItemProvider', uri, new vscode.Position(...CASE.completion));
      const labels = completion.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
      out.completion = { count: labels.length, first: labels.slice(0, 15) };
      assert.ok(labels.includes(CASE.completionLabel), `completion: ${labels.slice(0, 30)}`);
    }
    mark('hover+completion');

    // 3. the status bar item, from the server's vllmConfig/documentInfo (not the fallback);
    //    it and the hover say which vLLM release is used and why
    out.status = await api.refreshStatus();
    out.interpreter = api.interpreter();
    assert.ok(out.status.visible, 'status bar item hidden');
    assert.strictEqual(out.status.origin, 'documentInfo', `status from: ${out.status.origin}`);
    const client = api.client();
    out.documentInfo = await client.sendRequest('vllmConfig/documentInfo', {
      textDocument: { uri: client.code2ProtocolConverter.asUri(uri) },
    });
    assert.strictEqual(out.documentInfo.isConfig, true);
    assert.strictEqual(out.documentInfo.reason, CASE.reason);
    assert.match(out.documentInfo.vllmVersion, /^\d+\.\d+\.\d+/);
    assert.strictEqual(out.status.text, `$(check) vLLM ${out.documentInfo.vllmVersion}`);
    const why = out.documentInfo.versionSource.replace(/`/g, '');
    assert.ok(why && out.status.tooltip.includes(why), `status tooltip: ${out.status.tooltip}`);
    assert.ok(out.hover.replace(/`/g, '').includes(why), `no version note in the hover: ${out.hover}`);

    // 4. what a user sees: the squiggle, the Problems panel and the quick fix menu
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    await vscode.window.showTextDocument(document, { selection: diagnostic.range, preserveFocus: false });
    await sleep(500);
    await vscode.commands.executeCommand('editor.action.quickFix');
    await sleep(1500);
    const shot = process.env.VLLM_E2E_SCREENSHOT;
    if (shot) {
      console.log('E2E-SCREENSHOT-NOW');
      await waitFor(() => fs.existsSync(`${shot}.done`), 30000, 'the screenshot');
    }
    await vscode.commands.executeCommand('hideCodeActionWidget').then(undefined, () => undefined);
    mark('screenshot');

    // 5. the quick fix, through the code action provider and workspace.applyEdit
    const actions = await vscode.commands.executeCommand(
      'vscode.executeCodeActionProvider', uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
    out.actions = actions.map((a) => ({ title: a.title, kind: a.kind && a.kind.value, preferred: !!a.isPreferred }));
    const fix = actions.find((a) => a.isPreferred);
    assert.ok(fix, `no preferred quick fix: ${JSON.stringify(out.actions)}`);
    assert.strictEqual(fix.title, `${CASE.fixTitle} (${CODE})`); // the fix's words first, the code last
    assert.ok(await vscode.workspace.applyEdit(fix.edit), 'applyEdit failed');
    out.lineAfter = document.lineAt(RANGE[0]).text;
    assert.strictEqual(out.lineAfter, CASE.after);
    await waitFor(() => ours(uri).length === 0, 30000, 'the diagnostic to go away');
    assert.ok(await document.save(), 'save failed');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), fs.readFileSync(process.env.VLLM_E2E_EXPECTED, 'utf8'));
    mark('fixed+saved');

    // 6. the commands: Show Server Output, Restart Server (a new server answers again)
    const commands = await vscode.commands.getCommands(true);
    for (const id of ['vllmConfig.restartServer', 'vllmConfig.showOutput']) assert.ok(commands.includes(id), id);
    await vscode.commands.executeCommand('vllmConfig.showOutput');
    const before = api.client();
    await vscode.commands.executeCommand('vllmConfig.restartServer');
    const after = api.client();
    assert.ok(after && after !== before && after.isRunning(), 'restart gave no running client');
    const again = await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, hoverAt);
    assert.ok(again.length > 0, 'no hover after the restart');
    mark('restarted');

    // 7. the rule's page ships in the extension: the diagnostic's code links to
    //    vllmConfig.showRuleDocs with the code, which opens the page in the Markdown preview
    const link = vscode.Uri.parse(out.diagnostics[0].href);
    assert.deepStrictEqual([link.scheme, link.path, JSON.parse(link.query)], ['command', 'vllmConfig.showRuleDocs', [CODE]]);
    assert.ok(fs.existsSync(`${extension.extensionPath}/docs/rules/${CODE}.md`), 'the page is not in the .vsix');
    await vscode.commands.executeCommand(link.path, ...JSON.parse(link.query));
    const preview = await waitFor(() => {
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      return tab && tab.input instanceof vscode.TabInputWebview && tab.input.viewType.includes('markdown.preview') && tab;
    }, 30000, 'the Markdown preview');
    const page = await shows((dom) => dom.frames.some((f) => f.startsWith(`${CODE} `)), `the page of ${CODE}`);
    await driver([{ type: 'screenshot', name: 'rule-docs' }], 'a screenshot');
    out.docs = { tab: preview.label, text: page.frames.find((f) => f.startsWith(`${CODE} `)).slice(0, 120) };
    assert.strictEqual(preview.label, `Preview ${CODE}.md`);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    mark('rule docs');

    // 8. the status item opens the release picker: a release, then the workspace setting or
    //    the file's comment (typed into the quick picks, as a user does)
    const picked = await scratch('picker.vllm.yaml', 'model: Qwen/Qwen3-8B\n');
    const statusOf = async (version) =>
      waitFor(async () => ((await api.refreshStatus()).text === `$(check) vLLM ${version}` ? api.status() : null), 30000, `status ${version}`);
    const first = await waitFor(async () => ((await api.refreshStatus()).visible ? api.status() : null), 30000, 'the status item');
    assert.strictEqual(first.command, 'vllmConfig.selectRelease');
    const choose = async (release, where) => {
      const flow = vscode.commands.executeCommand(first.command);
      const releases = await shows(picking, 'the release picker');
      await driver([{ type: 'screenshot', name: `release-picker-${release}` }, { type: 'keys', text: release }], `typing ${release}`);
      const filtered = await shows((dom) => picking(dom) && dom.quickInput.rows[0].startsWith(release), `${release} first`);
      await driver([{ type: 'press', key: 'Enter' }, { type: 'wait', ms: 300 }], 'choosing the release');
      const targets = await shows((dom) => picking(dom) && dom.quickInput.rows.some((r) => r.includes(where)), 'where to write it');
      await driver([{ type: 'keys', text: where }, { type: 'press', key: 'Enter' }], `choosing "${where}"`);
      await flow;
      assert.match(releases.quickInput.rows[0], /^\d+\.\d+\.\d+, newest/); // newest first
      return { releases: releases.quickInput.rows.length, first: filtered.quickInput.rows[0], targets: targets.quickInput.rows };
    };
    const section = () => vscode.workspace.getConfiguration('vllmConfig', picked.document.uri);
    out.picker = { setting: await choose('0.11.2', 'Set vllmConfig.vllmVersion') };
    assert.ok(out.picker.setting.releases > 5, `releases: ${out.picker.setting.releases}`); // the rows in view
    await waitFor(() => section().inspect('vllmVersion').workspaceValue === '0.11.2', 10000, 'the workspace setting');
    await statusOf('0.11.2');
    out.picker.marker = await choose('0.10.2', 'Write');
    assert.strictEqual(picked.document.lineAt(0).text, '# vllm-config: version=0.10.2');
    await statusOf('0.10.2'); // the comment wins over the setting
    await section().update('vllmVersion', undefined, vscode.ConfigurationTarget.Workspace);
    await discard(picked);
    mark('release picker');

    // 9. the palette's commands on the active file
    const palette = ['vllmConfig.fixAllInFile', 'vllmConfig.migrateToRelease', 'vllmConfig.showCommandLine',
      'vllmConfig.selectRelease', 'vllmConfig.showRuleDocs'];
    const registered = await vscode.commands.getCommands(true);
    for (const id of palette) assert.ok(registered.includes(id), id);
    const advertised = api.client().initializeResult.capabilities.executeCommandProvider?.commands ?? [];
    out.serverCommands = advertised;
    const fixable = await scratch('fixall.vllm.yaml', 'model: Qwen/Qwen3-8B\nconfig: base.yaml\nmax-model: 8192\n');
    await waitFor(() => ours(fixable.document.uri).length >= 2, 30000, 'the problems to fix');
    await vscode.commands.executeCommand('vllmConfig.fixAllInFile');
    if (advertised.includes('vllmConfig.fixAll')) {
      await waitFor(() => fixable.document.getText() === 'model: Qwen/Qwen3-8B\nmax-model-len: 8192\n', 30000, 'fix all');
    } else { // a server without the command (before it lands): the failure is said, not swallowed
      await shows((dom) => ourToasts(dom, 'Fix all failed').length === 1, 'the Fix all failure');
    }
    await discard(fixable);
    const old = await scratch('migrate.vllm.yaml', '# vllm-config: version=0.10\nmodel: m\ncuda-graph-sizes: [1, 2, 4]\n');
    await waitFor(async () => (await api.refreshStatus()).text === '$(check) vLLM 0.10.2', 30000, 'the pinned release');
    const migration = vscode.commands.executeCommand('vllmConfig.migrateToRelease');
    const offered = await shows((dom) => picking(dom) && dom.quickInput.rows[0].startsWith('Migrate this config to vLLM'), 'the migration');
    await driver([{ type: 'press', key: 'Enter' }], 'migrating');
    await migration;
    out.migrated = { offered: offered.quickInput.rows, text: old.document.getText() };
    const target = /vLLM (\d[\w.]*)/.exec(offered.quickInput.rows[0])[1];
    assert.strictEqual(old.document.getText(), `# vllm-config: version=${target}\nmodel: m\ncudagraph-capture-sizes: [1, 2, 4]\n`);
    await discard(old);
    const script = await scratch('serve.sh', '#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-model-len 8k\n');
    await waitFor(async () => (await vscode.commands.executeCommand('vscode.executeCodeLensProvider', script.document.uri)).length > 0, 30000, 'the code lens');
    await vscode.commands.executeCommand('vllmConfig.showCommandLine');
    const shownDoc = await waitFor(() => {
      const active = vscode.window.activeTextEditor;
      return active && active.document.uri.scheme === 'vllm-command' && active.document;
    }, 30000, 'the command vLLM runs, as a read-only document');
    out.commandLine = shownDoc.getText();
    assert.ok(out.commandLine.startsWith('The command vLLM '), out.commandLine); // not refused: "runs"
    assert.ok(out.commandLine.includes('  --max-model-len  line 2'), out.commandLine); // one per line, with its origin
    assert.ok(out.commandLine.endsWith('As one line:\nvllm serve Qwen/Qwen3-8B --max-model-len 8k\n'), out.commandLine);
    await driver([{ type: 'screenshot', name: 'shown-command' }], 'a screenshot');
    assert.strictEqual(await vscode.commands.executeCommand('vllmConfig.copyCommandLine'), 'vllm serve Qwen/Qwen3-8B --max-model-len 8k');
    assert.strictEqual(await vscode.env.clipboard.readText(), 'vllm serve Qwen/Qwen3-8B --max-model-len 8k');
    assert.strictEqual(shownDoc.isDirty, false);
    assert.strictEqual(ourToasts(await driver([{ type: 'wait', ms: 100 }], 'no toast'), 'runs: vllm serve').length, 0);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.window.showTextDocument(script.document);
    await discard(script);
    await vscode.commands.executeCommand('notifications.clearAll');
    mark('palette');

    // 10. no usable Python: one notification, whose Open Settings shows the setting where it
    //     takes effect (Remote settings in a remote window: code-server is one); a restart
    //     with the same problem does not say it again
    const interpreter = vscode.workspace.getConfiguration('vllmConfig').inspect('interpreter').workspaceValue;
    const broken = api.interpreter();
    await vscode.workspace.getConfiguration('vllmConfig').update('interpreter', ['/nonexistent/python3'], vscode.ConfigurationTarget.Workspace);
    await waitFor(() => api.interpreter() !== broken && api.interpreter().ok === false, 60000, 'the failed start');
    const toast = await shows((dom) => ourToasts(dom, '/nonexistent/python3').length > 0, 'the no-interpreter notification');
    assert.strictEqual(ourToasts(toast, '/nonexistent/python3').length, 1);
    assert.deepStrictEqual(ourToasts(toast, '/nonexistent/python3')[0].buttons, ['Open Settings', 'Show Output']);
    assert.strictEqual(api.status().command, 'vllmConfig.showOutput');
    out.remoteName = vscode.env.remoteName ?? null;
    await driver([{ type: 'click', selector: '.notifications-toasts .monaco-button', text: 'Open Settings' }], 'Open Settings');
    const scope = out.remoteName ? 'Remote' : 'User';
    const settings = await shows(
      (dom) => dom.settings.tabs.some((t) => t.checked && t.label.startsWith(scope)) && (dom.settings.query || '').includes('vllmConfig.interpreter'),
      `the ${scope} settings filtered to vllmConfig.interpreter`,
    );
    await driver([{ type: 'screenshot', name: 'interpreter-settings' }], 'a screenshot');
    out.settingsEditor = settings.settings;
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const failed = api.interpreter();
    await vscode.commands.executeCommand('vllmConfig.restartServer');
    await waitFor(() => api.interpreter() !== failed && api.interpreter().ok === false, 60000, 'the second failed start');
    const quiet = await driver([{ type: 'wait', ms: 1500 }], 'after the restart');
    assert.strictEqual(ourToasts(quiet, '/nonexistent/python3').length, 0, JSON.stringify(quiet.notifications));
    await vscode.workspace.getConfiguration('vllmConfig').update('interpreter', interpreter, vscode.ConfigurationTarget.Workspace);
    await waitFor(() => api.interpreter().ok && api.client() && api.client().isRunning(), 60000, 'the server again');
    mark('no interpreter');
    out.ok = true;
  } catch (error) {
    out.error = String((error && error.stack) || error);
    throw error;
  } finally {
    fs.writeFileSync(process.env.VLLM_E2E_OUT, JSON.stringify(out, null, 1));
    console.log(`E2E-RESULT ${JSON.stringify(out).slice(0, 2000)}`);
  }
};
