import { copyFileSync, mkdirSync, writeFileSync } from 'fs';
import { basename, join } from 'path';

import { installCommunityPackage, makeUserFolder } from './community-package';
import { n8nCli } from './n8n-cli';
import { credentialType } from './paths';

/** The id and name every workflow of the suite, the examples included, refers to. */
export const CREDENTIAL_ID = 'LcSandboxCred001';
export const CREDENTIAL_NAME = 'Lead Conversations account';

export interface ServiceAccess {
	baseUrl: string;
	apiKey: string;
}

/** The tarball the global setup packed. */
export function packedTarball(): string {
	const tarball = process.env.LC_E2E_TARBALL;
	if (!tarball) throw new Error('LC_E2E_TARBALL is not set: run the suite through its jest config');
	return tarball;
}

/**
 * A fresh n8n user folder with the packed package installed as a community package and the
 * credential stored (encrypted with the suite's fixed key), as a user would have after
 * installing the package and filling in the credential.
 */
export async function prepareUserFolder(label: string, service: ServiceAccess): Promise<string> {
	const userFolder = makeUserFolder(label);
	await installCommunityPackage(userFolder, packedTarball());
	await importCredential(userFolder, service);
	return userFolder;
}

/** Writes the file `n8n import:credentials` reads: the service credential, then `others`. */
export function writeCredentialsFile(
	userFolder: string,
	service: ServiceAccess,
	others: object[] = [],
): string {
	const file = join(userFolder, 'credentials.json');
	const credential = {
		id: CREDENTIAL_ID,
		name: CREDENTIAL_NAME,
		type: credentialType,
		data: { apiKey: service.apiKey, baseUrl: service.baseUrl },
	};
	writeFileSync(file, JSON.stringify([credential, ...others]));
	return file;
}

export async function importCredential(userFolder: string, service: ServiceAccess): Promise<void> {
	const file = writeCredentialsFile(userFolder, service);
	await n8nCli(userFolder, ['import:credentials', `--input=${file}`]);
}

/** Imports workflow JSON files in one CLI run (each run boots most of n8n). */
export async function importWorkflows(userFolder: string, files: string[]): Promise<void> {
	const dir = join(userFolder, 'workflows-to-import');
	mkdirSync(dir, { recursive: true });
	for (const file of files) copyFileSync(file, join(dir, basename(file)));
	await n8nCli(userFolder, ['import:workflow', '--separate', `--input=${dir}`]);
}

/** Writes workflow objects to JSON files (for workflows a test builds) and returns their paths. */
export function writeWorkflowFiles(userFolder: string, workflows: Array<{ id: string }>): string[] {
	const dir = join(userFolder, 'generated-workflows');
	mkdirSync(dir, { recursive: true });
	return workflows.map((workflow) => {
		const file = join(dir, `${workflow.id}.json`);
		writeFileSync(file, JSON.stringify(workflow, null, 2));
		return file;
	});
}
