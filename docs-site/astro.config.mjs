// @ts-check
import { defineConfig } from 'astro/config';
import starlight from '@astrojs/starlight';
import starlightLinksValidator from 'starlight-links-validator';

// The command pages (src/content/docs/commands/*.md), the guides generated from docs/
// public/llms.txt and contracts.json are written by `cgt gen`; the build copies the contract files
// named in contracts.json into public/ (scripts/copy-contracts.mjs). Everything else is hand-written.
export default defineConfig({
  // Pages are served as /path/ (directory index), which the sidebar and the links use.
  trailingSlash: 'ignore',
  telemetry: false,
  integrations: [
    starlight({
      title: 'cgt',
      social: [{ icon: 'github', label: 'Source code', href: 'https://github.com/cgt-tools/cgt' }],
      customCss: ['./src/styles/custom.css'],
      description:
        'UK Capital Gains Tax on shares and funds, for people filing Self Assessment and for the AI agents helping them.',
      // `npm run build` fails on a broken internal link or a link to a missing heading.
      plugins: [starlightLinksValidator({ errorOnFallbackPages: false, exclude: ['/app/', '/app/**'] })],
      lastUpdated: false,
      pagination: true,
      sidebar: [
        {
          label: 'Start',
          items: [
            { label: 'Overview', slug: 'index' },
            { label: 'Quickstart', slug: 'quickstart' },
            // The browser app itself (web/dist, copied into public/app/ by the build).
            { label: 'Open the app in your browser', link: '/app/', attrs: { 'data-app': 'cgt' } },
          ],
        },
        {
          // For a person filing a return (not only agents): start here, the SA108, the FAQ.
          label: 'Filing your return',
          autogenerate: { directory: 'people' },
        },
        {
          label: 'Guides',
          items: [
            { label: 'Ledger syntax', slug: 'guides/ledger-syntax' },
            { label: 'Tax rules', slug: 'guides/tax-rules' },
            { label: 'Worked example: ledger to SA108', slug: 'guides/worked-example' },
            { label: 'Agent guide', slug: 'guides/agent-guide' },
            { label: 'MCP setup', slug: 'guides/mcp-setup' },
            { label: 'tool-cli', slug: 'guides/tool-cli' },
          ],
        },
        {
          // One page per broker in guides/brokers/: a new importer's page appears by itself.
          label: 'Broker imports',
          autogenerate: { directory: 'guides/brokers' },
        },
        {
          label: 'Reference',
          items: [
            {
              label: 'Commands',
              autogenerate: { directory: 'commands' },
            },
            { label: 'Results and error codes', slug: 'reference/results-and-errors' },
          ],
        },
        {
          label: 'Contract files',
          items: [
            { label: 'tools.json', link: '/tools.json', attrs: { 'data-contract': 'tools.json' } },
            { label: 'openapi.json', link: '/openapi.json', attrs: { 'data-contract': 'openapi.json' } },
            { label: 'llms.txt', link: '/llms.txt', attrs: { 'data-contract': 'llms.txt' } },
            { label: 'llms-full.txt', link: '/llms-full.txt', attrs: { 'data-contract': 'llms-full.txt' } },
          ],
        },
      ],
    }),
  ],
});
