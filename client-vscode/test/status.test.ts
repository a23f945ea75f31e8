import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fallbackInfo, hasMarker, markerVersion, newestSchemaVersion, statusView } from '../src/status';

test('the marker comment gives the version, like files.marker_options', () => {
  assert.equal(markerVersion('# vllm-config: version=0.32.1\nmodel: x\n'), '0.32.1');
  assert.equal(markerVersion('---\n  #vllm-config: strict, version=0.33.0\n'), '0.33.0');
  assert.equal(markerVersion('# vllm-config\nmodel: x\n'), null);
  assert.equal(markerVersion('model: x\n'.repeat(10) + '# vllm-config: version=1.0.0\n'), null);
  assert.equal(hasMarker('# vllm-config\n'), true);
  assert.equal(hasMarker('# vllm-configs\n'), false);
});

test('newest bundled schema version is the default', () => {
  assert.equal(newestSchemaVersion(['vllm-0.9.2.schema.json', 'vllm-0.33.0.schema.json', 'vllm-0.10.1.schema.json', 'x.json']), '0.33.0');
  assert.equal(newestSchemaVersion([]), null);
});

test('fallback order: marker, setting, default', () => {
  assert.deepEqual(fallbackInfo('# vllm-config: version=0.32.0\n', '0.31.0', '0.33.0').vllmVersion, '0.32.0');
  assert.deepEqual(fallbackInfo('model: x\n', '0.31.0', '0.33.0').versionSource, 'vllmVersion setting');
  assert.deepEqual(fallbackInfo('model: x\n', null, '0.33.0'), { isConfig: true, vllmVersion: '0.33.0', versionSource: 'default', reason: null });
});

test('status bar text', () => {
  assert.equal(statusView(null).visible, false);
  assert.equal(statusView({ isConfig: false }).visible, false);
  const view = statusView({ isConfig: true, vllmVersion: '0.33.0', versionSource: 'default' });
  assert.deepEqual([view.visible, view.text], [true, '$(check) vLLM 0.33.0']);
  assert.match(view.tooltip, /vLLM 0\.33\.0 \(default\)/);
});
