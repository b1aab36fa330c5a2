// Lint for what ships (nodes/, credentials/, package.json): the union of
//   1. `n8n-node lint`'s own configuration (@n8n/node-cli's `config`: ESLint and
//      typescript-eslint recommended, import-x, the community-nodes rules, n8n-nodes-base), and
//   2. the rules the community-package scanner (@n8n/scan-community-package 0.32.0,
//      scanner/scanner.mjs `buildScanConfig`) enforces, which it also applies to .js and .json.
// Why this file is not the one-line default of `n8n-node lint --strict`: see the README,
// "Lint: how this package meets n8n-node lint". `npm run scan` checks that every rule of both
// sources is set here at the same level; `npm run lint:n8n-node` runs the real `n8n-node lint`
// in strict mode on a copy of the shipped sources. The scanner ignores inline `eslint-disable`
// comments: don't rely on them.
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import { config as n8nNodeCliConfig } from '@n8n/node-cli/eslint';
import tsParser from '@typescript-eslint/parser';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import { defineConfig } from 'eslint/config';

// Not shipped, never loaded by n8n: tests, the simulator, tooling. They run on Node and may use
// what a node must not (process.env, sockets, the file system).
const NOT_SHIPPED = [
	'dist/**',
	'node_modules/**',
	'coverage/**',
	'bench/**',
	'harness/**',
	'sandbox/**',
	'scripts/**',
	'test/**',
	'examples/**',
	'docs/**',
	'icons/**',
	'**/*.js',
	'**/*.mjs',
	'**/*.cjs',
	'tsconfig*.json',
	'package-lock.json',
];

export default defineConfig(
	{ ignores: NOT_SHIPPED },
	n8nNodeCliConfig,
	// The scanner's configuration, in its order.
	n8nCommunityNodesPlugin.configs.recommended,
	{ rules: { 'no-console': 'error' } },
	{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
	{
		files: ['package.json'],
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['**/credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['**/nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{ files: ['**/*.json'], languageOptions: { parser: tsParser } },
	{ files: ['**/*.ts'], languageOptions: { parser: tsParser } },
);
