import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { SHOW_RULE_DOCS } from '../src/commands';
import { INDEX_PAGE, docsCommandUri, pageName, ruleCode, ruleIndex } from '../src/ruleDocs';

// the repository's pages, which scripts/build.mjs copies into the extension
const docs = join(__dirname, '..', '..', '..', 'docs', 'rules');

test('rule codes as the pages name them', () => {
  assert.equal(ruleCode('VC101'), 'VC101');
  assert.equal(ruleCode(' vc301 '), 'VC301');
  for (const bad of ['VC1', 'VC1011', '../README', 'X101', '', 101, null, undefined, ['VC101']]) assert.equal(ruleCode(bad), null, String(bad));
  assert.equal(pageName('VC101'), 'VC101.md');
});

test("the diagnostic link runs the command with the code (VS Code's command URI format)", () => {
  const uri = new URL(docsCommandUri('VC101'));
  assert.equal(uri.protocol, 'command:');
  assert.equal(uri.pathname, SHOW_RULE_DOCS);
  assert.deepEqual(JSON.parse(decodeURIComponent(uri.search.slice(1))), ['VC101']);
});

test('the index lists every page, with names and summaries', () => {
  const pages = readdirSync(docs).filter((name) => /^VC\d{3}\.md$/.test(name));
  const rules = ruleIndex(readFileSync(join(docs, INDEX_PAGE), 'utf8'));
  assert.ok(pages.length > 100, `${pages.length} pages`);
  assert.deepEqual(rules.map((rule) => pageName(rule.code)).sort(), pages.sort());
  const unknown = rules.find((rule) => rule.code === 'VC101');
  assert.deepEqual(unknown, { code: 'VC101', name: 'unknown-flag', summary: 'A key is not a `vllm serve` flag (misspelt, removed, or a short alias like `tp`)' });
});
