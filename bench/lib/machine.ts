import { readFileSync } from 'fs';
import { cpus, totalmem, type as osType, release } from 'os';
import { join } from 'path';

import { REPO_ROOT } from './build';

function versionOf(packageName: string): string {
	try {
		const manifest = JSON.parse(
			readFileSync(join(REPO_ROOT, 'node_modules', packageName, 'package.json'), 'utf8'),
		) as { version: string };
		return manifest.version;
	} catch {
		return 'not installed';
	}
}

export interface MachineInfo {
	cpu: string;
	cores: number;
	ramGiB: number;
	os: string;
	node: string;
	n8nCore: string;
	n8nWorkflow: string;
	n8nNodesBase: string;
	date: string;
}

export function machineInfo(): MachineInfo {
	return {
		cpu: cpus()[0]?.model ?? 'unknown',
		cores: cpus().length,
		ramGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
		os: `${osType()} ${release()}`,
		node: process.version,
		n8nCore: versionOf('n8n-core'),
		n8nWorkflow: versionOf('n8n-workflow'),
		n8nNodesBase: versionOf('n8n-nodes-base'),
		date: new Date().toISOString(),
	};
}
