// `npm run package`: one .vsix per platform, in one command, the same bytes for the same inputs.
//   1. LICENSE from the repository root; 2. esbuild bundle (dist/extension.js) and the rule
//      pages (docs/rules/, scripts/build.mjs); the README with its images inlined as data:
//      URIs (dist/readme.md): VS Code shows an installed extension's README offline and loads
//      only https: and data: images there, so a relative image would be broken and a link to
//      the repository needs the network (and a repository that exists);
//   3. the Python server and its dependencies for every target (scripts/bundle_python.py,
//      run with $PYTHON or python3), staged in a temporary folder: the native wheels
//      (tree-sitter, PyYAML with libyaml, tree-sitter-bash) differ per platform;
//   4. per target: its stage copied to bundled/libs, `vsce package --target T` with
//      SOURCE_DATE_EPOCH (sorted entries, fixed timestamps); 5. a check of what is inside.
// Output: vllm-config-<target>-<version>.vsix beside package.json, e.g.
// vllm-config-linux-x64-0.1.0.vsix (the one CI installs in code-server). The machine's own
// target is packaged last, so bundled/libs is left holding the bundle that runs here.
// No marketplace access: vsce packages locally; --no-dependencies because esbuild bundled
// the node dependencies; --no-rewrite-relative-links: nothing in the README points to the
// repository. Options: --target T (repeatable; default all five),
// --wheelhouse DIR (build without the package index).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** The README that goes into each package (vsce --readme-path; the .vscodeignore keeps the
 * original out). */
const PACKAGED_README = join('dist', 'readme.md');
/** Markdown images `![alt](target)` and HTML `<img src="target">`. */
const IMAGE = /!\[([^\]]*)\]\(([^)\s]+)\)|<img\s[^>]*src=["']([^"']+)["']/g;
/** VS Code targets, and the file names of their native extension modules for CPython 3.NN. */
const TARGETS = {
  'linux-x64': { module: (nn) => `.cpython-3${nn}-x86_64-linux-gnu.so`, abi3: '.abi3.so' },
  'linux-arm64': { module: (nn) => `.cpython-3${nn}-aarch64-linux-gnu.so`, abi3: '.abi3.so' },
  'darwin-x64': { module: (nn) => `.cpython-3${nn}-darwin.so`, abi3: '.abi3.so' },
  'darwin-arm64': { module: (nn) => `.cpython-3${nn}-darwin.so`, abi3: '.abi3.so' },
  'win32-x64': { module: (nn) => `.cp3${nn}-win_amd64.pyd`, abi3: '.pyd' },
};
/** CPython minors with native modules in bundled/libs/cp3NN/ (bundle_python.py: PYTHONS). */
const PYTHON_MINORS = [10, 11, 12, 13, 14];
const vsixPath = (target) => join(root, `${manifest.name}-${target}-${manifest.version}.vsix`);

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

function option(name) {
  const values = [];
  process.argv.forEach((arg, i) => {
    if (arg === name && i + 1 < process.argv.length) values.push(process.argv[i + 1]);
  });
  return values;
}

function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath ?? entry.path, entry.name)).split(sep).join('/'));
}

/** README.md with each image (a file of the extension, e.g. images/screenshot.png) as a data:
 * URI; an image from elsewhere fails the build. */
function packagedReadme() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  return readme.replace(IMAGE, (whole, alt, target, src) => {
    const file = target ?? src;
    if (/^[a-z][\w+.-]*:/i.test(file) || !/\.png$/i.test(file)) throw new Error(`README.md: image ${file} is not a PNG file of the extension`);
    const data = `data:image/png;base64,${readFileSync(join(root, file)).toString('base64')}`;
    return target ? `![${alt}](${data})` : whole.replace(file, data);
  });
}

const yauzl = require(require.resolve('yauzl', { paths: [require.resolve('@vscode/vsce/package.json')] }));
function zipEntries(file) {
  return new Promise((resolve, reject) => {
    const names = [];
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on('entry', (entry) => { names.push(entry.fileName); zip.readEntry(); });
      zip.on('end', () => resolve(names));
      zip.readEntry();
    });
  });
}

function zipText(file, name) {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      zip.on('entry', (entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        zip.openReadStream(entry, (failed, stream) => {
          if (failed) return reject(failed);
          const parts = [];
          stream.on('data', (part) => parts.push(part));
          stream.on('end', () => { zip.close(); resolve(Buffer.concat(parts).toString('utf8')); });
        });
      });
      zip.on('end', () => resolve(null));
      zip.readEntry();
    });
  });
}

/** What in the packaged README would need the network or a file outside it: images that are
 * not data: URIs, links that are neither web addresses nor anchors. */
function readmeProblems(readme) {
  const problems = [...readme.matchAll(IMAGE)].map((m) => m[2] ?? m[3]).filter((target) => !target.startsWith('data:image/png;base64,'));
  const links = [...readme.matchAll(/(?<!!)\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]);
  return [...problems.map((t) => `image ${t.slice(0, 80)}`), ...links.filter((t) => !/^(https:\/\/|#)/.test(t)).map((t) => `link ${t}`)];
}

/** What must be inside the .vsix of `target`, and what must not. */
async function check(file, target, libsDir) {
  const entries = await zipEntries(file);
  const { module, abi3 } = TARGETS[target];
  const libs = 'extension/bundled/libs';
  const required = [
    'extension/package.json',
    'extension/readme.md',
    'extension/LICENSE.txt',
    'extension/dist/extension.js',
    `extension/${manifest.icon}`,
    ...readdirSync(join(root, 'docs', 'rules')).map((page) => `extension/docs/rules/${page}`),
    'extension/bundled/tool/launcher.py',
    `${libs}/vllm_config_lsp/__init__.py`,
    `${libs}/vllm_config_lsp/__main__.py`,
    `${libs}/vllm_config_lsp/schemas/vllm-0.33.0.schema.json`,
    `${libs}/pygls/__init__.py`,
    `${libs}/lsprotocol/types.py`,
    `${libs}/markdown_it/__init__.py`,
    `${libs}/mdurl/__init__.py`,
    `${libs}/tree_sitter_bash/__init__.py`,
    `${libs}/tree_sitter_bash/_binding${abi3}`,
    `${libs}/tree_sitter_containerfile/__init__.py`,
    `${libs}/tree_sitter_containerfile/_binding${abi3}`,
    ...PYTHON_MINORS.flatMap((nn) => [
      `${libs}/cp3${nn}/tree_sitter/__init__.py`,
      `${libs}/cp3${nn}/tree_sitter/_binding${module(nn)}`,
      `${libs}/cp3${nn}/yaml/__init__.py`,
      `${libs}/cp3${nn}/yaml/_yaml${module(nn)}`,
    ]),
  ];
  const lower = new Set(entries.map((e) => e.toLowerCase()));
  const missing = required.filter((name) => !lower.has(name.toLowerCase()));
  // everything bundle_python.py put in bundled/libs made it into the .vsix (no ignore rule ate it)
  const dropped = filesUnder(libsDir).filter((name) => !lower.has(`${libs}/${name}`.toLowerCase()));
  const wrongKind = target.startsWith('win32-') ? /\.(so|dylib)$/ : /\.(pyd|dll)$/;
  const unwanted = entries.filter(
    (e) => /\/(src|test|node_modules|scripts|__pycache__)\/|\.(ts|map|pyc)$/.test(e) || wrongKind.test(e),
  );
  const manifestXml = entries.includes('extension.vsixmanifest');
  const readme = await zipText(file, 'extension/readme.md');
  const offline = readme === null ? ['no readme'] : readmeProblems(readme);
  const pages = entries.filter((e) => /^extension\/docs\/rules\/VC\d{3}\.md$/.test(e)).length;
  if (missing.length || dropped.length || unwanted.length || !manifestXml || offline.length || pages < 100) {
    throw new Error(
      `bad ${file}: missing ${JSON.stringify(missing)}, left out ${JSON.stringify(dropped.slice(0, 10))}, ` +
        `unwanted ${JSON.stringify(unwanted.slice(0, 10))}, README needs ${JSON.stringify(offline)}, ${pages} rule pages`,
    );
  }
  const bytes = readFileSync(file);
  console.log(`${file}: ${entries.length} files, ${(statSync(file).size / 1024).toFixed(0)} KiB, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
}

const hostTarget = `${process.platform}-${process.arch}`;
const chosen = option('--target');
for (const target of chosen) if (!(target in TARGETS)) throw new Error(`unknown --target ${target}; one of ${Object.keys(TARGETS)}`);
const targets = (chosen.length ? [...new Set(chosen)] : Object.keys(TARGETS)).sort(
  (a, b) => (a === hostTarget) - (b === hostTarget), // the machine's own last (stable sort)
);
const [wheelhouse] = option('--wheelhouse');

const started = Date.now();
copyFileSync(join(root, '..', 'LICENSE'), join(root, 'LICENSE'));
run(process.execPath, [join(root, 'scripts', 'build.mjs')]);
writeFileSync(join(root, PACKAGED_README), packagedReadme());
const stage = mkdtempSync(join(tmpdir(), 'vllm-config-bundle-'));
try {
  run(process.env.PYTHON || (process.platform === 'win32' ? 'python' : 'python3'), [
    join(root, 'scripts', 'bundle_python.py'),
    '--stage', stage,
    ...targets.flatMap((t) => ['--platform', t]),
    ...(wheelhouse ? ['--wheelhouse', wheelhouse] : []),
  ]);
  const epoch = sourceDateEpoch();
  const libsDir = join(root, 'bundled', 'libs');
  rmSync(join(root, `${manifest.name}-${manifest.version}.vsix`), { force: true }); // the former universal one
  for (const target of targets) {
    rmSync(libsDir, { recursive: true, force: true });
    cpSync(join(stage, target, 'libs'), libsDir, { recursive: true });
    const out = vsixPath(target);
    rmSync(out, { force: true });
    run(process.execPath, [require.resolve('@vscode/vsce/vsce'), 'package', '--no-dependencies', '--target', target, '--out', out,
      '--readme-path', PACKAGED_README.split(sep).join('/'), '--no-rewrite-relative-links'], {
      env: { ...process.env, SOURCE_DATE_EPOCH: epoch },
    });
    await check(out, target, libsDir);
  }
} finally {
  rmSync(stage, { recursive: true, force: true });
}
console.log(`packaged ${targets.length} target(s) in ${((Date.now() - started) / 1000).toFixed(0)} s: ${targets.map((t) => relative(root, vsixPath(t))).join(', ')}`);
