import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failedView, fallbackInfo, hasMarker, markerVersion, statusView, versionPhrase } from '../src/status';

test('the marker comment gives the version, like files.marker_options', () => {
  assert.equal(markerVersion('# vllm-config: version=0.32.1\nmodel: x\n'), '0.32.1');
  assert.equal(markerVersion('---\n  #vllm-config: strict, version=0.33.0\n'), '0.33.0');
  assert.equal(markerVersion('# vllm-config\nmodel: x\n'), null);
  assert.equal(markerVersion('model: x\n'.repeat(10) + '# vllm-config: version=1.0.0\n'), null);
  assert.equal(hasMarker('# vllm-config\n'), true);
  assert.equal(hasMarker('# vllm-configs\n'), false);
});

test('fallback order: marker, setting, default', () => {
  assert.deepEqual(fallbackInfo('# vllm-config: version=0.32.0\n', '0.31.0', '0.33.0').vllmVersion, '0.32.0');
  assert.deepEqual(fallbackInfo('model: x\n', '0.31.0', '0.33.0').versionSource, 'vllmVersion setting');
  assert.deepEqual(fallbackInfo('model: x\n', null, '0.33.0'), { isConfig: true, vllmVersion: '0.33.0', versionSource: 'default', reason: null, problems: [], commandLines: [] });
});

test('status bar text from the fallback', () => {
  assert.equal(statusView(null).visible, false);
  assert.equal(statusView({ isConfig: false }).visible, false);
  const view = statusView({ isConfig: true, vllmVersion: '0.33.0', versionSource: 'default' }, 'fallback');
  assert.deepEqual([view.visible, view.text, view.origin], [true, '$(check) vLLM 0.33.0', 'fallback']);
  assert.match(view.tooltip, /vLLM 0\.33\.0 \(default\)/);
});

test('status bar from vllmConfig/documentInfo: the version, why, and why the file is checked', () => {
  const marker = statusView({
    isConfig: true,
    reason: 'marker comment',
    vllmVersion: '0.10.2',
    versionSource: 'vLLM 0.10.2 (for 0.10), from the `# vllm-config: version=` comment',
  });
  assert.equal(marker.origin, 'documentInfo');
  assert.equal(marker.text, '$(check) vLLM 0.10.2');
  assert.equal(
    marker.tooltip,
    'vLLM Config: this file is checked against vLLM 0.10.2 (for 0.10), from the # vllm-config: version= comment. ' +
      'Checked as a vLLM config because it has a # vllm-config comment. Click to choose another release.',
  );
  assert.equal(marker.command, 'vllmConfig.selectRelease'); // the release picker, not the log
  const newest = statusView({
    isConfig: true,
    reason: 'file name',
    vllmVersion: '0.33.0',
    versionSource: 'newest known release (nothing names another)',
  });
  assert.match(newest.tooltip, /against vLLM 0\.33\.0: newest known release \(nothing names another\)\. Checked .* because of its file name\./);
  const hidden = statusView({ isConfig: false, reason: null, vllmVersion: '0.33.0', versionSource: 'x' });
  assert.deepEqual([hidden.visible, hidden.origin], [false, 'documentInfo']);
});

test('status bar says which settings the server ignored', () => {
  const problem = "vllmVersion: unknown vLLM version '0.99', ignored; known releases: 0.32.0, 0.33.0";
  const view = statusView({ isConfig: true, reason: 'file name', vllmVersion: '0.33.0', versionSource: 'x', problems: [problem] });
  assert.equal(view.text, '$(warning) vLLM 0.33.0');
  assert.ok(view.tooltip.includes(`Settings ignored: ${problem}.`), view.tooltip);
  const clean = statusView({ isConfig: true, reason: 'file name', vllmVersion: '0.33.0', versionSource: 'x', problems: [] });
  assert.equal(clean.text, '$(check) vLLM 0.33.0');
  assert.ok(!clean.tooltip.includes('Settings ignored'));
});

test('without a server the item opens the output', () => {
  const failed = failedView('vLLM Config: no Python 3.10 or newer found to run the server.');
  assert.deepEqual([failed.visible, failed.text, failed.command], [true, '$(error) vLLM Config', 'vllmConfig.showOutput']);
  assert.match(failed.tooltip, /^vLLM Config: no Python .* Click to show the output\.$/);
});

test('version phrase', () => {
  assert.equal(versionPhrase('0.33.0', 'vLLM 0.33.0, from vLLM installed in /w/.venv', 'documentInfo'), 'vLLM 0.33.0, from vLLM installed in /w/.venv');
  assert.equal(versionPhrase('0.33.0', 'vllmVersion setting', 'fallback'), 'vLLM 0.33.0 (vllmVersion setting)');
  assert.equal(versionPhrase('0.33.0', null, 'documentInfo'), 'vLLM 0.33.0');
});
