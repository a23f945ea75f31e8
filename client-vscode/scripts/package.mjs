// `npm run package`: the .vsix, in one command, the same bytes for the same inputs.
//   1. LICENSE from the repository root; 2. esbuild bundle (dist/extension.js);
//   3. the Python server and its dependencies into bundled/libs (scripts/bundle_python.py,
//      run with $PYTHON or python3); 4. vsce package with SOURCE_DATE_EPOCH (sorted entries,
//      fixed timestamps); 5. a check of what is inside.
// No marketplace access: vsce packages locally; --no-dependencies because esbuild bundled
// the node dependencies. Pass --wheelhouse DIR to build without the package index.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const REPO_URL = manifest.repository.url.replace(/\.git$/, '');
const out = join(root, `${manifest.name}-${manifest.version}.vsix`);

function run(command, args, options = {}) {
  console.log(`+ ${command} ${args.join(' ')}`);
  const done = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (done.status !== 0) throw new Error(`${command} failed (${done.error ?? done.status})`);
}

function sourceDateEpoch() {
  if (process.env.SOURCE_DATE_EPOCH) return process.env.SOURCE_DATE_EPOCH;
  try {
    return execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' }).trim() || '315532800';
  } catch {
    return '315532800'; // 1980-01-01, the zip format's first day
  }
}

const wheelhouse = process.argv.indexOf('--wheelhouse');
copyFileSync(join(root, '..', 'LICENSE'), join(root, 'LICENSE'));
run(process.execPath, [join(root, 'scripts', 'build.mjs')]);
run(process.env.PYTHON || (process.platform === 'win32' ? 'python' : 'python3'), [
  join(root, 'scripts', 'bundle_python.py'),
  ...(wheelhouse > 0 ? ['--wheelhouse', process.argv[wheelhouse + 1]] : []),
]);
rmSync(out, { force: true });
run(process.execPath, [require.resolve('@vscode/vsce/vsce'), 'package', '--no-dependencies', '--out', out,
  '--baseContentUrl', `${REPO_URL}/blob/main/client-vscode`, '--baseImagesUrl', `${REPO_URL}/raw/main/client-vscode`], {
  env: { ...process.env, SOURCE_DATE_EPOCH: sourceDateEpoch() },
});

// what is inside
const yauzl = require(require.resolve('yauzl', { paths: [require.resolve('@vscode/vsce/package.json')] }));
const entries = await new Promise((resolve, reject) => {
  const names = [];
  yauzl.open(out, { lazyEntries: true }, (error, zip) => {
    if (error) return reject(error);
    zip.on('entry', (entry) => { names.push(entry.fileName); zip.readEntry(); });
    zip.on('end', () => resolve(names));
    zip.readEntry();
  });
});
const required = [
  'extension/package.json',
  'extension/readme.md',
  'extension/LICENSE.txt',
  'extension/dist/extension.js',
  'extension/bundled/tool/launcher.py',
  'extension/bundled/libs/vllm_config_lsp/server.py',
  'extension/bundled/libs/vllm_config_lsp/schemas/vllm-0.33.0.schema.json',
  'extension/bundled/libs/pygls/__init__.py',
  'extension/bundled/libs/lsprotocol/types.py',
  'extension/bundled/libs/yaml/__init__.py',
];
const missing = required.filter((name) => !entries.some((e) => e.toLowerCase() === name.toLowerCase()));
const unwanted = entries.filter((e) => /\/(src|test|node_modules|scripts)\/|\.(ts|map|so|pyd|pyc)$/.test(e));
if (missing.length || unwanted.length) {
  throw new Error(`bad .vsix: missing ${JSON.stringify(missing)}, unwanted ${JSON.stringify(unwanted.slice(0, 10))}`);
}
const bytes = readFileSync(out);
console.log(`${out}: ${entries.length} files, ${(statSync(out).size / 1024).toFixed(0)} KiB, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
