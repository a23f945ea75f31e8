import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLIENT_COMMANDS, COPY_COMMAND_LINE, COPY_COMMAND_WHEN, FILE_COMMANDS, SERVER_FIX_ALL, SERVER_SHOW_COMMAND, fileCommandsWhen } from '../src/commands';
import { CLIENT_ONLY, LEVELS, needsRestart, serverSettings } from '../src/settings';
import { activationEvents, documentSelector, isServed } from '../src/languages';

const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const properties: Record<string, { default: unknown; enum?: string[]; additionalProperties?: { enum: string[] } }> =
  manifest.contributes.configuration.properties;

const defaults = (key: string) => properties[`vllmConfig.${key}`]?.default;

test('defaults map to the server defaults', () => {
  assert.deepEqual(serverSettings(defaults), {
    vllmVersion: null,
    associations: { globs: [], exclude: [] },
    detection: true,
    debounceMs: null,
    severityOverrides: {},
    disabledCodes: [],
    modelDirs: [],
    gpu: null,
    gpuCount: null,
    plugins: [],
  });
});

test('user values are mapped to the server section', () => {
  const values: Record<string, unknown> = {
    vllmVersion: ' 0.33.0 ',
    'associations.globs': ['deploy/*.yaml', ''],
    'associations.exclude': 'charts/**',
    detection: false,
    debounceMs: 50.4,
    severityOverrides: { vc302: 'Warning', VC900: 'off', bad: 3 },
    disabledCodes: ['vc900'],
    modelDirs: ['/data/models', ' ~/models ', 3],
    gpu: ' H100-80GB ',
    gpuCount: 8,
    plugins: [' vllm-ascend@0.23.0 ', ''],
    interpreter: ['/usr/bin/python3'],
    'trace.server': 'verbose',
  };
  const mapped = serverSettings((key) => values[key]);
  assert.deepEqual(mapped, {
    vllmVersion: '0.33.0',
    associations: { globs: ['deploy/*.yaml'], exclude: ['charts/**'] },
    detection: false,
    debounceMs: 50,
    severityOverrides: { VC302: 'warning', VC900: 'off' },
    disabledCodes: ['VC900'],
    modelDirs: ['/data/models', '~/models'],
    gpu: 'H100-80GB',
    gpuCount: 8,
    plugins: ['vllm-ascend@0.23.0'],
  });
  assert.equal('interpreter' in mapped, false);
});

test('nonsense shapes fall back to defaults', () => {
  const values: Record<string, unknown> = { debounceMs: -1, severityOverrides: ['x'], disabledCodes: 7, vllmVersion: 33, gpu: 7, gpuCount: 'x' };
  const mapped = serverSettings((key) => values[key]);
  assert.equal(mapped.debounceMs, null);
  assert.deepEqual(mapped.severityOverrides, {});
  assert.deepEqual(mapped.disabledCodes, []);
  assert.equal(mapped.vllmVersion, null);
  assert.equal(mapped.gpu, null);
  assert.equal(mapped.gpuCount, null);
});

function flatKeys(value: object, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, v]) =>
    v && typeof v === 'object' && !Array.isArray(v) && key !== 'severityOverrides' ? flatKeys(v, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

test('package.json contributes exactly the server settings plus the client-only ones', () => {
  const contributed = Object.keys(properties).map((k) => k.replace(/^vllmConfig\./, '')).sort();
  const expected = [...flatKeys(serverSettings(defaults)), ...CLIENT_ONLY].sort();
  assert.deepEqual(contributed, expected);
  for (const [key, property] of Object.entries(properties)) {
    assert.ok((property as { markdownDescription?: string }).markdownDescription, `${key} has a description`);
  }
  assert.deepEqual(properties['vllmConfig.severityOverrides'].additionalProperties?.enum, [...LEVELS]);
});

/** The server's settings module: lsp/settings.py (formerly lsp_settings.py). */
function serverSettingsSource(): string {
  const server = join(root, '..', 'server', 'vllm_config_lsp');
  const found = [join(server, 'lsp', 'settings.py'), join(server, 'lsp_settings.py')].find((path) => existsSync(path));
  assert.ok(found, `no settings module in ${server}`);
  return readFileSync(found, 'utf8');
}

test('the server reads every setting the extension sends (server/vllm_config_lsp/lsp/settings.py)', () => {
  const source = serverSettingsSource();
  const top = [...source.matchAll(/raw\.get\("(\w+)"/g)].map((m) => m[1]);
  const nested = [...source.matchAll(/assoc\.get\("(\w+)"/g)].map((m) => `associations.${m[1]}`);
  const read = new Set([...top.filter((k) => k !== 'associations'), ...nested]);
  assert.deepEqual([...read].sort(), flatKeys(serverSettings(defaults)).sort());
  const levels = /LEVELS = \(([^)]*)\)/.exec(source)?.[1].match(/"(\w+)"/g)?.map((s) => s.slice(1, -1));
  assert.deepEqual(levels, [...LEVELS]);
});

test('only an interpreter change restarts the server', () => {
  assert.equal(needsRestart((s) => s === 'vllmConfig.interpreter'), true);
  assert.equal(needsRestart((s) => s === 'vllmConfig' || s === 'vllmConfig.vllmVersion'), false);
});

test('no yamlValidation contribution: the server alone reports (nothing twice with Red Hat YAML)', () => {
  assert.equal(manifest.contributes.yamlValidation, undefined);
});

test('the palette: every command the client registers, the file ones only for the files it serves', () => {
  const commands: { command: string; title: string; category: string }[] = manifest.contributes.commands;
  assert.deepEqual(
    commands.map((c) => `${c.category}: ${c.title}`),
    [
      'vLLM Config: Restart Server',
      'vLLM Config: Show Server Output',
      'vLLM Config: Fix All Problems in This File',
      'vLLM Config: Migrate to Release…',
      'vLLM Config: Show the Command vLLM Runs',
      'vLLM Config: Choose the vLLM Release…',
      'vLLM Config: Show Rule Documentation…',
      'vLLM Config: Copy the Command Line',
    ],
  );
  assert.deepEqual(commands.map((c) => c.command), [...CLIENT_COMMANDS]);
  const when = fileCommandsWhen();
  assert.deepEqual(manifest.contributes.menus.commandPalette, [
    ...FILE_COMMANDS.map((command) => ({ command, when })),
    { command: COPY_COMMAND_LINE, when: COPY_COMMAND_WHEN }, // in a shown command's document
  ]);
  assert.deepEqual(manifest.contributes.menus['editor/title'], [{ command: COPY_COMMAND_LINE, when: COPY_COMMAND_WHEN, group: 'navigation' }]);
  // none is a server command: vscode-languageclient registers those under their own names
  for (const server of [SERVER_FIX_ALL, SERVER_SHOW_COMMAND]) assert.ok(!(CLIENT_COMMANDS as readonly string[]).includes(server), server);
});

test('the client serves YAML, Compose, shell, Dockerfile, Markdown, Makefiles, justfiles, TOML files, Python and Jinja templates, saved or untitled, notebook code cells, and Triton model.json', () => {
  const languages = ['yaml', 'dockercompose', 'shellscript', 'dockerfile', 'markdown', 'makefile', 'just', 'toml', 'python', 'jinja', 'jinja-yaml', 'jinja-toml', 'jinja-shell', 'jinja-dockerfile'];
  assert.deepEqual(documentSelector(), [
    ...languages.flatMap((language) => [
      { scheme: 'file', language },
      { scheme: 'untitled', language },
    ]),
    { scheme: 'vscode-notebook-cell', language: 'python' },
    { scheme: 'file', language: 'json', pattern: '**/model.json' },
  ]);
  assert.deepEqual(manifest.activationEvents, [
    ...languages.map((language) => `onLanguage:${language}`),
    'workspaceContains:**/model.json',
  ]);
  assert.deepEqual(manifest.activationEvents, activationEvents());
  assert.equal(isServed('shellscript'), true);
  assert.equal(isServed('python', '/repo/launch.py'), true);
  assert.equal(isServed('json', '/repo/vllm_model/1/model.json'), true);
  assert.equal(isServed('json', '/repo/package.json'), false);
  assert.equal(isServed('json'), false);
});
