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
    out.ok = true;
  } catch (error) {
    out.error = String((error && error.stack) || error);
    throw error;
  } finally {
    fs.writeFileSync(process.env.VLLM_E2E_OUT, JSON.stringify(out, null, 1));
    console.log(`E2E-RESULT ${JSON.stringify(out).slice(0, 2000)}`);
  }
};
