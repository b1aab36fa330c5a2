// Writes each check's outcome on this run's n8n line to LC_COMPAT_RESULTS (a JSON file run.mjs
// reads to print the table of every line), and prints this line's table at the end.
const { readFileSync, writeFileSync } = require('fs');
const { join } = require('path');

function n8nVersion(rootDir) {
	const install = process.env.LC_N8N_INSTALL || 'install';
	const manifest = join(
		rootDir,
		'harness',
		'real-n8n',
		install,
		'node_modules',
		'n8n',
		'package.json',
	);
	return JSON.parse(readFileSync(manifest, 'utf8')).version;
}

class TableReporter {
	constructor(globalConfig) {
		this.rootDir = globalConfig.rootDir;
		this.checks = [];
	}

	onTestResult(_test, result) {
		for (const test of result.testResults) {
			this.checks.push({
				check: [...test.ancestorTitles, test.title].join(': '),
				status: test.status,
				seconds: Math.round((test.duration ?? 0) / 100) / 10,
			});
		}
		if (result.testExecError) {
			this.checks.push({ check: 'set-up', status: 'failed', seconds: 0 });
		}
	}

	onRunComplete(_contexts, results) {
		const version = n8nVersion(this.rootDir);
		const record = {
			version,
			seconds: Math.round((Date.now() - results.startTime) / 1000),
			checks: this.checks,
		};
		if (process.env.LC_COMPAT_RESULTS)
			writeFileSync(process.env.LC_COMPAT_RESULTS, JSON.stringify(record));
		process.stdout.write(`\n${formatTable([record])}\n`);
	}
}

/** One line per check and n8n version. */
function formatTable(records) {
	const lines = [];
	for (const record of records) {
		for (const { check, status, seconds } of record.checks) {
			const mark =
				status === 'passed' ? 'PASS' : status === 'failed' ? 'FAIL' : status.toUpperCase();
			lines.push(
				`n8n ${record.version.padEnd(9)} ${mark.padEnd(5)} ${String(seconds).padStart(5)} s  ${check}`,
			);
		}
		lines.push(`n8n ${record.version.padEnd(9)} run took ${record.seconds} s`);
	}
	return lines.join('\n');
}

module.exports = TableReporter;
module.exports.formatTable = formatTable;
