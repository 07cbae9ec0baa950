// The dependency rule of docs/architecture.md, checked by `npm run depcheck` (part of `npm test`).
// Layers, bottom up: kernel <- domains, transports <- host <- entry <- electron/main.
// shared/ (the contracts) depends on nothing but zod; the renderer reaches the core only through shared/.
const CORE = '^electron/core/';
const KERNEL = '^electron/core/kernel/';
const DOMAINS = '^electron/core/domains/';
const TRANSPORTS = '^electron/core/transports/';
const HOST = '^electron/core/host/';
const ENTRY = '^electron/core/entry/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Import cycles (type-only ones included) tie modules together; split the shared part out.',
      from: { path: '^(electron|shared|renderer)/' },
      to: { circular: true },
    },
    {
      name: 'kernel-imports-nothing-above',
      severity: 'error',
      comment: 'The kernel (errors, logger, clock, events, fs, db, defineTool, Domain types) imports only itself and shared/.',
      from: { path: KERNEL },
      to: { path: CORE, pathNot: KERNEL },
    },
    {
      name: 'domains-not-upward',
      severity: 'error',
      comment: 'A domain imports the kernel, shared/ and other domains (through their index.ts) only; never a transport, the host or an entry point.',
      from: { path: DOMAINS },
      to: { path: [TRANSPORTS, HOST, ENTRY] },
    },
    {
      name: 'transports-not-upward',
      severity: 'error',
      comment: 'Transports (http, hub, mcp) build on the kernel; they never import the host, an entry point or a domain.',
      from: { path: TRANSPORTS },
      to: { path: [HOST, ENTRY, DOMAINS] },
    },
    {
      name: 'host-not-upward',
      severity: 'error',
      comment: 'The host composes domains and transports; it never imports an entry point.',
      from: { path: HOST },
      to: { path: ENTRY },
    },
    {
      name: 'domain-public-face',
      severity: 'error',
      comment: 'A domain reaches another domain only through its index.ts (its public face).',
      from: { path: '^electron/core/domains/([^/]+)/' },
      to: { path: '^electron/core/domains/[^/]+/', pathNot: ['^electron/core/domains/$1/', '^electron/core/domains/[^/]+/index\\.ts$'] },
    },
    {
      name: 'domain-public-face-outside',
      severity: 'error',
      comment: 'Outside the domains, reach a domain only through its index.ts (its public face).',
      from: { path: '^electron/', pathNot: DOMAINS },
      to: { path: '^electron/core/domains/[^/]+/', pathNot: '^electron/core/domains/[^/]+/index\\.ts$' },
    },
    {
      name: 'shared-is-pure',
      severity: 'error',
      comment: 'shared/ holds the contracts: it imports only zod and itself (no Node, no DOM, no core).',
      from: { path: '^shared/' },
      to: { pathNot: ['^shared/', '^node_modules/zod/'] },
    },
    {
      name: 'renderer-only-shared',
      severity: 'error',
      comment: 'The renderer talks to the core only through the clients derived from shared/.',
      from: { path: '^renderer/' },
      to: { path: '^(electron|bench|models|tests)/' },
    },
    {
      name: 'only-main-and-preload-import-electron',
      severity: 'error',
      comment: "Only electron/main and electron/preload may import 'electron'.",
      from: { path: '^(electron/core|shared|renderer)/' },
      to: { path: '^electron$|^node_modules/electron/' },
    },
    {
      name: 'core-not-main',
      severity: 'error',
      comment: 'The core never imports the Electron shell.',
      from: { path: CORE },
      to: { path: '^electron/(main|preload)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.node.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
    exclude: { path: '^(out|node_modules)/' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
