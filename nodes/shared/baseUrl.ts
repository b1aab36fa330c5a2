/**
 * The service's base address always ends in the version segment `/v1` (spec: Versioning), and
 * every path is relative to it. A Base URL without it would send requests to paths the service
 * does not have, so it is rejected up front with the expected form instead of a puzzling 404.
 */
export const BASE_URL_EXAMPLE = 'https://api.example.com/v1';

// Scheme, a host (no user-info), any path prefix, then the version segment; no query or fragment.
const HTTP_URL_ENDING_IN_V1 = /^https?:\/\/[^\s/?#@]+(?:\/[^\s?#]*)?\/v1$/;

/** Trims the credential's Base URL, drops trailing slashes and checks it ends in `/v1`. */
export function normalizeBaseUrl(raw: string): string {
	const baseUrl = String(raw ?? '')
		.trim()
		.replace(/\/+$/, '');

	if (!HTTP_URL_ENDING_IN_V1.test(baseUrl)) {
		// User info in an address can be a password: never echo it.
		const shown = baseUrl === '' ? 'an empty value' : `"${baseUrl.replace(/\/\/[^/@]*@/, '//…@')}"`;
		throw new Error(
			`Base URL must be an http(s) address ending in /v1, like ${BASE_URL_EXAMPLE}, but the credential has ${shown}`,
		);
	}

	return baseUrl;
}
