// Copies the machine contract (tools.json, openapi.json, llms-full.txt, the tools schema and the
// skills zip) from the repository root into public/, where the site serves it. The list is
// contracts.json, written by `cgt gen`; the copies are not committed (see .gitignore).
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const site = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(site, '..');
const { files } = JSON.parse(readFileSync(join(site, 'contracts.json'), 'utf8'));
for (const { repo, site: served } of files) {
  const to = join(site, 'public', served);
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(join(root, repo), to);
}
console.log(`copied ${files.length} contract files into public/`);
