// Copies the browser app (web/dist, built by `make web`) into public/app/, where the site
// serves it at /app/. The copy is not committed (see .gitignore). `make docs` builds the app
// first; run on its own, this fails with what to do when web/dist is missing.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const site = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(site, '..', 'web', 'dist');
const to = join(site, 'public', 'app');
if (!existsSync(join(from, 'index.html')) || !existsSync(join(from, 'cgt.wasm'))) {
  console.error(`${from} has no built app: run "make web" at the repository root (make docs does it first)`);
  process.exit(1);
}
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
console.log('copied the browser app (web/dist) into public/app/');
