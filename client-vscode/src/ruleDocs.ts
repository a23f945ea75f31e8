// The rule pages shipped in the extension (docs/rules/, copied from the repository's
// docs/rules/ by scripts/build.mjs): which file a code opens, and the link a diagnostic's
// code carries. Pure: no `vscode` import, so node --test can run it.
import { SHOW_RULE_DOCS } from './commands';

/** Where the pages sit inside the extension. */
export const RULE_DOCS_DIR = ['docs', 'rules'] as const;

const CODE = /^VC\d{3}$/;

/** A rule code as the page's file name spells it, or null for anything else. */
export function ruleCode(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const code = value.trim().toUpperCase();
  return CODE.test(code) ? code : null;
}

/** The file name of a rule's page, `VC101.md`. */
export function pageName(code: string): string {
  return `${code}.md`;
}

/** The page listing every rule. */
export const INDEX_PAGE = 'README.md';

/** `command:` URI running SHOW_RULE_DOCS with the code: a diagnostic's code link in the hover
 * and the Problems panel (VS Code opens those with command URIs allowed). */
export function docsCommandUri(code: string): string {
  return `command:${SHOW_RULE_DOCS}?${encodeURIComponent(JSON.stringify([code]))}`;
}

export interface RuleEntry {
  code: string;
  name: string;
  summary: string;
}

/** The rules listed in the index page (tools/generate_rule_docs.py writes one table row each:
 * `| [VC101](VC101.md) | `unknown-flag` | what it finds |`). */
export function ruleIndex(readme: string): RuleEntry[] {
  const rows = readme.matchAll(/^\| \[(VC\d{3})\]\(VC\d{3}\.md\) \| `([^`]*)` \| (.*) \|$/gm);
  return [...rows].map((m) => ({ code: m[1], name: m[2], summary: m[3] }));
}
