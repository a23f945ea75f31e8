import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandLineOf, fileCommandsWhen, previewedPath } from '../src/commands';

test('a command run with a Markdown preview active is about the file it previews', () => {
  const open = ['/w/notes/serve.md', '/w/recipe.md', '/w/deploy.yaml'];
  assert.equal(previewedPath('Preview recipe.md', open), '/w/recipe.md');
  assert.equal(previewedPath('[Preview] serve.md', open), '/w/notes/serve.md');
  assert.equal(previewedPath('Preview VC101.md', open), undefined); // a rule page: not an open file
  assert.equal(previewedPath('deploy.yaml', open), undefined); // not a preview
  assert.equal(previewedPath(undefined, open), undefined);
  // and the palette offers the file commands there
  assert.match(fileCommandsWhen(), /\|\| activeWebviewPanelId == 'markdown\.preview'$/);
});

test('the copy button of a shown command copies its one line', () => {
  const shown = 'The command vLLM 0.33.0 runs:\n\nArguments…\n  vllm serve  the entry point\n\nAs one line:\nvllm serve m --max-num-seqs 8\n';
  assert.equal(commandLineOf(shown), 'vllm serve m --max-num-seqs 8');
  assert.equal(commandLineOf('nothing'), undefined);
});
