import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Candidate, ProbeResult, candidates, chooseInterpreter, expandVariables, interpreterSettings, parseProbe, settingCommand, tooOld } from '../src/interpreter';

const found = (version: [number, number, number], executable = '/usr/bin/python3'): ProbeResult => ({ ok: true, version, executable });

function fakeProbe(answers: Record<string, ProbeResult>) {
  const asked: string[] = [];
  const probe = async (command: string[]) => {
    asked.push(command.join(' '));
    return answers[command.join(' ')] ?? { ok: false, error: 'not found' };
  };
  return { probe, asked };
}

test('the setting wins, alone: an explicit interpreter is never replaced', () => {
  const list = candidates({ setting: ['/opt/py/bin/python', '-X', 'utf8'], pythonExtension: ['/venv/bin/python'], platform: 'linux' });
  assert.deepEqual(list, [{ command: ['/opt/py/bin/python', '-X', 'utf8'], source: 'setting' }]);
});

test('a plain string setting is accepted; empty values count as unset', () => {
  assert.deepEqual(settingCommand('/usr/bin/python3.12'), ['/usr/bin/python3.12']);
  assert.deepEqual(settingCommand('   '), []);
  assert.deepEqual(settingCommand([]), []);
  assert.deepEqual(settingCommand(undefined), []);
  assert.deepEqual(settingCommand(['', 'python3']), ['python3']);
});

test('without the setting: the Python extension, then python3 on PATH', () => {
  const list = candidates({ setting: [], pythonExtension: ['/venv/bin/python'], platform: 'linux' });
  assert.deepEqual(
    list.map((c) => [c.source, c.command.join(' ')]),
    [['python-extension', '/venv/bin/python'], ['path', 'python3']],
  );
  assert.deepEqual(candidates({ setting: undefined, platform: 'darwin' }).map((c) => c.command.join(' ')), ['python3']);
  assert.deepEqual(candidates({ setting: undefined, platform: 'win32' }).map((c) => c.command.join(' ')), ['py -3', 'python']);
});

test('variables in the setting are expanded', () => {
  const list = candidates({
    setting: ['${workspaceFolder}/.venv/bin/python'],
    platform: 'linux',
    expand: (v) => expandVariables(v, { home: '/home/u', workspaceFolder: '/ws', env: {} }),
  });
  assert.deepEqual(list[0].command, ['/ws/.venv/bin/python']);
  assert.equal(expandVariables('~/py/bin/python', { home: '/home/u', env: {} }), '/home/u/py/bin/python');
  assert.equal(expandVariables('${env:PYHOME}/bin/python', { home: '/h', env: { PYHOME: '/opt/p' } }), '/opt/p/bin/python');
  assert.equal(expandVariables('${userHome}/x', { home: '/h', env: {} }), '/h/x');
});

test('the first interpreter that runs and is 3.10+ is chosen', async () => {
  const list: Candidate[] = [
    { command: ['/venv/bin/python'], source: 'python-extension' },
    { command: ['python3'], source: 'path' },
  ];
  const { probe, asked } = fakeProbe({ '/venv/bin/python': found([3, 8, 18], '/venv/bin/python'), python3: found([3, 12, 1]) });
  const choice = await chooseInterpreter(list, probe);
  if (!choice.ok) throw new Error(choice.message);
  assert.equal(choice.candidate.source, 'path');
  assert.equal(choice.version, '3.12.1');
  assert.deepEqual(asked, ['/venv/bin/python', 'python3']);
  assert.match(choice.log[0], /3\.8\.18 is too old/);
});

test('nothing usable: one clear message naming what was tried', async () => {
  const { probe } = fakeProbe({ python3: found([3, 9, 2]) });
  const choice = await chooseInterpreter(candidates({ setting: [], platform: 'linux' }), probe);
  if (choice.ok) throw new Error('chose ' + choice.executable);
  assert.match(choice.message, /no Python 3\.10 or newer found/);
  assert.match(choice.message, /python3 \(from PATH\): Python 3\.9\.2 is too old/);
  assert.match(choice.message, /vllmConfig\.interpreter/);
});

test('a broken setting says so, and does not fall back', async () => {
  const { probe, asked } = fakeProbe({ python3: found([3, 12, 0]) });
  const choice = await chooseInterpreter(candidates({ setting: ['/nope/python'], platform: 'linux' }), probe);
  if (choice.ok) throw new Error('chose ' + choice.executable);
  assert.deepEqual(asked, ['/nope/python']);
  assert.match(choice.message, /setting vllmConfig\.interpreter cannot run the server .*\/nope\/python .*not found/);
});

test('versions and probe output', () => {
  assert.equal(tooOld([3, 9, 20]), true);
  assert.equal(tooOld([3, 10, 0]), false);
  assert.equal(tooOld([4, 0, 0]), false);
  assert.equal(tooOld([2, 7, 18]), true);
  assert.deepEqual(parseProbe('/usr/bin/python3\n3.11.2\n'), { ok: true, executable: '/usr/bin/python3', version: [3, 11, 2] });
  assert.deepEqual(parseProbe('C:\\Python312\\python.exe\r\n3.12.4\r\n'), { ok: true, executable: 'C:\\Python312\\python.exe', version: [3, 12, 4] });
  assert.equal(parseProbe('garbage').ok, false);
});

test('"Open Settings" opens the Remote settings in a remote window, else the User settings', () => {
  assert.deepEqual(interpreterSettings('ssh-remote'), {
    command: 'workbench.action.openRemoteSettings',
    args: [{ query: 'vllmConfig.interpreter' }],
  });
  assert.deepEqual(interpreterSettings(undefined), { command: 'workbench.action.openSettings', args: ['vllmConfig.interpreter'] });
});
