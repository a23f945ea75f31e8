// Bundles the extension with esbuild (dist/extension.js); with --tests, also the unit tests
// (out/test/*.test.js, run by `node --test out/test/`).
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node18', logLevel: 'warning', legalComments: 'none' };

rmSync(join(root, 'dist'), { recursive: true, force: true });
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
