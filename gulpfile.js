const { src, dest, parallel, task } = require('gulp');

// tsc emits only JavaScript; icons are copied beside it with their relative paths kept, so the
// `file:` icon references resolve the same way from dist/ as from the sources.
const copyIcons = (glob, destination) => {
	const copy = () => src(glob, { encoding: false }).pipe(dest(destination));
	copy.displayName = `copy ${glob}`;
	return copy;
};

task(
	'build:icons',
	parallel(
		copyIcons('nodes/**/*.{png,svg}', 'dist/nodes'),
		copyIcons('credentials/**/*.{png,svg}', 'dist/credentials'),
		copyIcons('icons/**/*.{png,svg}', 'dist/icons'),
	),
);
