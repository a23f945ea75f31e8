import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { LineEdit, canHoldMarker, knownReleases, markerEdit } from '../src/releases';
import { markerVersion } from '../src/status';

/** `text` with `edit` applied (lines split as VS Code does). */
function applied(text: string, edit: LineEdit): string {
  const lines = text.split('\n');
  const line = lines[edit.line];
  lines[edit.line] = line.slice(0, edit.start) + edit.newText + line.slice(edit.end);
  return lines.join('\n');
}

test('the releases of the bundled catalogues, newest first', () => {
  const names = ['catalogue-0.9.2.json', 'catalogue-0.33.0.json', 'catalogue-0.6.6.post1.json', 'catalogue-0.10.2.json'];
  const others = ['shared-definitions.json', 'vllm-0.33.0.schema.json', 'vllm-0.33.0.models.json', 'catalogue-.json'];
  assert.deepEqual(knownReleases([...names, ...others]), ['0.33.0', '0.10.2', '0.9.2', '0.6.6.post1']);
  assert.deepEqual(knownReleases([]), []);
});

test("the repository's catalogues: the releases the server knows", () => {
  const releases = knownReleases(readdirSync(join(__dirname, '..', '..', '..', 'schemas')));
  assert.ok(releases.length > 20, String(releases));
  assert.equal(releases[0], '0.33.0');
  assert.ok(releases.includes('0.11.2') && releases.includes('0.6.6.post1'), String(releases));
});

test('a file without the comment gets one at the top', () => {
  const text = 'model: Qwen/Qwen3-8B\n';
  assert.equal(applied(text, markerEdit(text, '0.11.2')), '# vllm-config: version=0.11.2\nmodel: Qwen/Qwen3-8B\n');
  assert.equal(markerEdit('a: 1\r\nb: 2\r\n', '0.11.2').newText, '# vllm-config: version=0.11.2\r\n');
  assert.deepEqual(markerEdit('', '0.11.2'), { line: 0, start: 0, end: 0, newText: '# vllm-config: version=0.11.2\n' });
});

test('the shebang and Dockerfile parser directives stay first', () => {
  const script = '#!/bin/sh\nvllm serve x\n';
  assert.equal(applied(script, markerEdit(script, '0.10.2')), '#!/bin/sh\n# vllm-config: version=0.10.2\nvllm serve x\n');
  const dockerfile = '# syntax=docker/dockerfile:1\n# escape=`\nFROM vllm/vllm-openai\n';
  assert.equal(markerEdit(dockerfile, '0.10.2').line, 2);
  const python = '#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nimport subprocess\n';
  assert.equal(markerEdit(python, '0.10.2').line, 2); // PEP 263: the encoding line stays on line 2
  const only = '#!/bin/sh';
  assert.equal(applied(only, markerEdit(only, '0.10.2')), '#!/bin/sh\n# vllm-config: version=0.10.2');
});

test('an existing comment gets its version replaced or added', () => {
  const cases: [string, string][] = [
    ['# vllm-config: version=0.9.2\nmodel: x\n', '# vllm-config: version=0.33.0\nmodel: x\n'],
    ['  #vllm-config: strict, version=0.9.2 disable=VC104\n', '  #vllm-config: strict, version=0.33.0 disable=VC104\n'],
    ['# vllm-config: disable=VC104\n', '# vllm-config: version=0.33.0, disable=VC104\n'],
    ['# vllm-config:\n', '# vllm-config: version=0.33.0\n'],
    ['# vllm-config\nmodel: x\n', '# vllm-config: version=0.33.0\nmodel: x\n'],
    ['---\n# top\n# vllm-config: version=\n', '---\n# top\n# vllm-config: version=0.33.0\n'],
  ];
  for (const [before, after] of cases) {
    const result = applied(before, markerEdit(before, '0.33.0'));
    assert.equal(result, after, before);
    assert.equal(markerVersion(result), '0.33.0', result); // what the status item (and the server) read
  }
});

test('a comment below the first ten lines is not the marker: a new one is written', () => {
  const text = 'a: 1\n'.repeat(10) + '# vllm-config: version=0.9.2\n';
  assert.deepEqual(markerEdit(text, '0.33.0'), { line: 0, start: 0, end: 0, newText: '# vllm-config: version=0.33.0\n' });
});

test('only languages with # comments can hold the comment', () => {
  assert.deepEqual(['yaml', 'dockercompose', 'shellscript', 'dockerfile', 'makefile', 'toml', 'python', 'markdown', 'json'].map(canHoldMarker), [true, true, true, true, true, true, true, false, false]);
});
