import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

// scripts/check-pack.mjs on a small package laid out like this one: it passes when the tarball
// holds exactly what n8n loads and names what is extra or missing otherwise.

const script = resolve(__dirname, '../../scripts/check-pack.mjs');

let directory: string;
const write = (path: string, text: string) => {
	mkdirSync(dirname(join(directory, path)), { recursive: true });
	writeFileSync(join(directory, path), text);
};
const check = () => {
	const result = spawnSync(process.execPath, [script, directory], { encoding: 'utf8' });
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), 'lc-check-pack-'));
	write(
		'package.json',
		JSON.stringify({
			name: 'n8n-nodes-example',
			version: '1.0.0',
			files: [
				'dist/nodes/**/*.js',
				'dist/nodes/**/*.node.json',
				'dist/credentials/**/*.js',
				'dist/icons/*.svg',
			],
			n8n: {
				n8nNodesApiVersion: 1,
				nodes: ['dist/nodes/Example/Example.node.js'],
				credentials: ['dist/credentials/ExampleApi.credentials.js'],
			},
		}),
	);
	write('README.md', '# example\n');
	write('LICENSE', 'MIT\n');
	write(
		'dist/nodes/Example/Example.node.js',
		'const h = require("./helpers/format");\nconst s = require("../shared");\nconst icon = "file:../../icons/example.svg";\n',
	);
	write('dist/nodes/Example/helpers/format.js', 'module.exports = {};\n');
	write('dist/nodes/shared/index.js', 'module.exports = {};\n');
	write('dist/nodes/Example/Example.node.json', '{"alias":["example"]}\n');
	write(
		'dist/credentials/ExampleApi.credentials.js',
		'const icon = "file:../icons/example.svg";\n',
	);
	write('dist/icons/example.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

it('passes when the tarball holds exactly the files n8n loads', () => {
	const result = check();
	expect(result.output).toContain('n8n-nodes-example@1.0.0, 9 files');
	expect(result.status).toBe(0);
});

it.each<[string, () => void, string]>([
	[
		'a compiled file that nothing requires',
		() => write('dist/nodes/Example/helpers/unused.js', 'module.exports = {};\n'),
		'FAIL: in the tarball but n8n never loads it: dist/nodes/Example/helpers/unused.js',
	],
	[
		'a node without its codex file',
		() => unlinkSync(join(directory, 'dist/nodes/Example/Example.node.json')),
		'FAIL: not built: dist/nodes/Example/Example.node.json (codex of dist/nodes/Example/Example.node.js)',
	],
	[
		'files the "files" list lets in but n8n does not read',
		() => write('dist/icons/unused.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>\n'),
		'FAIL: in the tarball but n8n never loads it: dist/icons/unused.svg',
	],
])('refuses %s', (_case, spoil, failure) => {
	spoil();
	const result = check();
	expect(result.output).toContain(failure);
	expect(result.status).toBe(1);
});
