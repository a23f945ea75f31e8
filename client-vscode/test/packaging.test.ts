import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

// scripts/package.mjs drives scripts/bundle_python.py: both must name the same targets and
// CPython versions, and every pin must carry hashes for every wheel that can be picked.
const root = join(__dirname, '..', '..');
const packageScript = readFileSync(join(root, 'scripts', 'package.mjs'), 'utf8');
const bundleScript = readFileSync(join(root, 'scripts', 'bundle_python.py'), 'utf8');
const requirements = readFileSync(join(root, 'bundled-requirements.txt'), 'utf8');

const TARGETS = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64', 'win32-x64'];

test('package.mjs and bundle_python.py build the same five targets', () => {
  const block = /const TARGETS = \{([\s\S]*?)\n\};/.exec(packageScript)?.[1] ?? '';
  assert.deepEqual([...block.matchAll(/^\s*'([\w-]+)':/gm)].map((m) => m[1]), TARGETS);
  const platforms = /PLATFORMS: dict\[str, Platform\] = \{([\s\S]*?)\n\}/.exec(bundleScript)?.[1] ?? '';
  assert.deepEqual([...platforms.matchAll(/^\s*"([\w-]+)": Platform\(/gm)].map((m) => m[1]), TARGETS);
});

test('package.mjs checks the CPython versions bundle_python.py bundles', () => {
  const minors = /const PYTHON_MINORS = \[([\d, ]+)\]/.exec(packageScript)?.[1].split(',').map((s) => `3.${s.trim()}`);
  const pythons = /^PYTHONS = \(([^)]*)\)/m.exec(bundleScript)?.[1].match(/"3\.\d+"/g)?.map((s) => s.slice(1, -1));
  assert.ok(pythons && pythons.length >= 4, 'PYTHONS');
  assert.deepEqual(minors, pythons);
});

test('bundled-requirements.txt: every pin exact, with hashes; per-Python pins have one per platform and Python', () => {
  const logical = requirements.replace(/\\\r?\n/g, ' ').split(/\r?\n/).filter((l) => l.trim() && !l.startsWith('#'));
  const pins = new Map(logical.map((line) => [line.split('==')[0].toLowerCase().replace(/[-_.]+/g, '-'), line]));
  for (const [name, line] of pins) {
    assert.match(line, /^[\w.-]+==[\w.]+ /, name);
    assert.ok((line.match(/--hash=sha256:[0-9a-f]{64}/g) ?? []).length >= 1, `${name} has hashes`);
  }
  const perPython = /^PER_PYTHON = frozenset\(\{([^}]*)\}\)/m.exec(bundleScript)?.[1].match(/"[\w-]+"/g)?.map((s) => s.slice(1, -1));
  assert.deepEqual(perPython?.sort(), ['pyyaml', 'tree-sitter']);
  const pythons = /^PYTHONS = \(([^)]*)\)/m.exec(bundleScript)?.[1].match(/"3\.\d+"/g) ?? [];
  for (const name of perPython ?? []) {
    const hashes = pins.get(name)?.match(/--hash=/g)?.length ?? 0;
    assert.equal(hashes, TARGETS.length * pythons.length, `${name}: one wheel per platform and Python`);
  }
  for (const name of ['tree-sitter-bash', 'markdown-it-py', 'mdurl']) assert.ok(pins.has(name), name);
});

test('the icon: a 128x128 PNG, what scripts/make_icon.mjs draws', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  assert.equal(manifest.icon, 'images/icon.png');
  const png = readFileSync(join(root, manifest.icon));
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(png.toString('ascii', 12, 16), 'IHDR');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
  execFileSync(process.execPath, [join(root, 'scripts', 'make_icon.mjs'), '--check'], { stdio: 'pipe' });
});
