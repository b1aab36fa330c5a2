// Module resolution of the n8n 1.x run (jest.n8n1.config.js).
//
// 1. The engine packages (n8n-workflow, n8n-core and the @n8n/* packages n8n-core brings) are
//    taken from the 1.x install wherever they are asked for: by the nodes and the credential, the
//    harness and the tests alike. So there is one n8n-workflow in the run, the one n8n-core 1.x
//    uses. The request is resolved as a package name from the install folder (not mapped to a
//    file path), so the packages' `exports` maps still apply to subpaths such as
//    `n8n-workflow/common`.
// 2. A module inside the 1.x install may only load modules from that install (or Node's own).
//    Otherwise a dependency missing there would silently come from the package's own
//    node_modules, the 2.x engine's, and the run would no longer show 1.x.
const { readdirSync } = require('node:fs');
const { join, sep } = require('node:path');

const { engineModules, installDir, repoRoot } = require('./paths');

const inside = (path, dir) => path === dir || path.startsWith(dir + sep);

const enginePackages = new Set([
	'n8n-workflow',
	'n8n-core',
	...readdirSync(join(engineModules, '@n8n')).map((name) => `@n8n/${name}`),
]);

function packageName(request) {
	const parts = request.split('/');
	return request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

module.exports = (request, options) => {
	const fromEngine = inside(options.basedir, engineModules);
	const redirect = !fromEngine && enginePackages.has(packageName(request));
	const resolved = options.defaultResolver(
		request,
		redirect ? { ...options, basedir: installDir } : options,
	);
	if (fromEngine && !inside(resolved, engineModules) && inside(resolved, repoRoot)) {
		throw new Error(
			`The n8n 1.x engine asked for "${request}" (from ${options.basedir}), which is not in ` +
				`${engineModules} and would come from ${resolved}: add it to test/compat/n8n1/package.json.`,
		);
	}
	return resolved;
};
