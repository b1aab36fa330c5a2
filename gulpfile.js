const { src, dest, parallel, task } = require('gulp');

// tsc emits only JavaScript; icons and the nodes' codex files (X.node.json beside X.node.js, read
// by n8n's loader for categories, search aliases and documentation links) are copied beside it
// with their relative paths kept, so they resolve the same way from dist/ as from the sources.
const copyFiles = (glob, destination) => {
	const copy = () => src(glob, { encoding: false }).pipe(dest(destination));
	copy.displayName = `copy ${glob}`;
	return copy;
};

task(
	'build:assets',
	parallel(
		copyFiles('nodes/**/*.{png,svg}', 'dist/nodes'),
		copyFiles('nodes/**/*.node.json', 'dist/nodes'),
		copyFiles('credentials/**/*.{png,svg}', 'dist/credentials'),
		copyFiles('icons/**/*.{png,svg}', 'dist/icons'),
	),
);
