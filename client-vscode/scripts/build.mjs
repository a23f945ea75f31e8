// Bundles the extension with esbuild (dist/extension.js) and copies the rule pages
// (docs/rules/*.md of the repository, written by tools/generate_rule_docs.py) into
// docs/rules/, where the extension opens them offline (`vllmConfig.showRuleDocs`); with
// --tests, also the unit tests (out/test/*.test.js, run by `node --test out/test/`).
import { build } from 'esbuild';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node18', logLevel: 'warning', legalComments: 'none' };

rmSync(join(root, 'dist'), { recursive: true, force: true });
rmSync(join(root, 'docs'), { recursive: true, force: true });
cpSync(join(root, '..', 'docs', 'rules'), join(root, 'docs', 'rules'), { recursive: true });
await build({
  ...common,
  entryPoints: [join(root, 'src', 'extension.ts')],
  outfile: join(root, 'dist', 'extension.js'),
  external: ['vscode'],
});

if (process.argv.includes('--tests')) {
  rmSync(join(root, 'out'), { recursive: true, force: true });
  const tests = readdirSync(join(root, 'test')).filter((name) => name.endsWith('.test.ts'));
  await build({
    ...common,
    entryPoints: tests.map((name) => join(root, 'test', name)),
    outdir: join(root, 'out', 'test'),
    external: ['vscode', 'node:*'],
  });
}
