// The results file as `npm run format` would leave it, so that `format:check` passes on it.

import { join } from 'path';

import { REPO_ROOT } from './build';

export async function formatMarkdown(text: string): Promise<string> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const prettier = require('prettier') as typeof import('prettier');
	const file = join(REPO_ROOT, 'bench', 'results.md');
	const options = (await prettier.resolveConfig(file)) ?? {};
	return await prettier.format(text, { ...options, parser: 'markdown' });
}
