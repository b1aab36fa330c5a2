import { join } from 'path';

import { runCommand } from './processes';

export interface Certificate {
	keyPath: string;
	certPath: string;
}

/** A self-signed certificate for localhost and 127.0.0.1, valid for two days. */
export async function makeSelfSignedCertificate(dir: string): Promise<Certificate> {
	const keyPath = join(dir, 'localhost.key');
	const certPath = join(dir, 'localhost.crt');
	const result = await runCommand(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-sha256',
			'-days',
			'2',
			'-subj',
			'/CN=localhost',
			'-addext',
			'subjectAltName=DNS:localhost,IP:127.0.0.1',
			'-keyout',
			keyPath,
			'-out',
			certPath,
		],
		{ timeoutMs: 30_000 },
	);
	if (result.code !== 0) throw new Error(`openssl failed: ${result.stderr}`);
	return { keyPath, certPath };
}
