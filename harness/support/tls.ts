// Self-signed certificates for loopback HTTPS endpoints: the service delivers only to https://
// addresses, so every stand-in for n8n's webhook endpoint (and n8n itself in the end-to-end
// runs) needs one. Made with openssl; nothing here trusts them, the senders accept any.

import { execFileSync } from 'child_process';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

export interface CertificateFiles {
	keyPath: string;
	certPath: string;
}

export interface Certificate {
	key: Buffer;
	cert: Buffer;
}

/** Writes a self-signed certificate for localhost and 127.0.0.1, valid for two days, into `dir`. */
export function writeSelfSignedCertificate(dir: string): CertificateFiles {
	const keyPath = join(dir, 'localhost.key');
	const certPath = join(dir, 'localhost.crt');
	execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'ec',
			'-pkeyopt',
			'ec_paramgen_curve:prime256v1',
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
		// stderr is kept so that a failure says why.
		{ stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 },
	);
	return { keyPath, certPath };
}

/** A throw-away self-signed certificate for localhost and 127.0.0.1, in memory. */
export function selfSignedCertificate(): Certificate {
	const dir = mkdtempSync(join(tmpdir(), 'lc-tls-'));
	try {
		const { keyPath, certPath } = writeSelfSignedCertificate(dir);
		return { key: readFileSync(keyPath), cert: readFileSync(certPath) };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
