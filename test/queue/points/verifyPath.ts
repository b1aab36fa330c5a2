import { recordFigure } from '../support/figures';
import { post, runsPerEvent, signedEvent, waitForQuiet } from '../support/runs';
import { IDS, PATHS, suite } from '../support/suite';

// Point 3, the path that reaches zero with n8n's own means: n8n's Webhook node (Raw Body) →
// Event: Verify, which runs on the workers and records each verified event in n8n's
// Postgres-backed de-duplication store, so a copy that reaches the other webhook process, or
// arrives after a restart, comes out of the Rejected output as a duplicate (measured in
// lostAnswers.ts). Here: what is not the service's never comes out of Verified.

export const verifiedRuns = () => runsPerEvent(suite.sink, 'verified');

export function rejectedBy(reason: string, fromIndex = 0): number {
	return suite.sink
		.of('rejected')
		.slice(fromIndex)
		.filter((r) => r.reason === reason).length;
}

export function verifyPathSpecs(): void {
	beforeAll(async () => {
		await suite.cluster.activate(IDS.verify);
	});

	it('Webhook → Event: Verify: forged, unsigned and altered deliveries come out of Rejected with their reason, never verified', async () => {
		const url = `${suite.cluster.balancer.url}webhook/${PATHS.verify}`;
		const { secret } = suite.verifySubscription;
		const from = suite.sink.of('rejected').length;
		const forged = signedEvent('not-the-secret', 'lead_verify_forged');
		const unsigned = signedEvent(secret, 'lead_verify_unsigned');
		const altered = signedEvent(secret, 'lead_verify_altered');
		const answers = [
			await post(url, forged.body, { 'X-Service-Signature': forged.signature }),
			await post(url, unsigned.body),
			await post(url, altered.body.replace('"score":0', '"score":99'), {
				'X-Service-Signature': altered.signature,
			}),
		];
		await waitForQuiet(suite.sink, 'rejected', from + 3, { quietMs: 3_000, timeoutMs: 60_000 });
		const reasons = suite.sink
			.of('rejected')
			.slice(from)
			.map((r) => String(r.reason))
			.sort();
		const verified = [forged, unsigned, altered].filter((e) => verifiedRuns().has(e.key)).length;
		recordFigure({
			point: '3',
			test: 'Webhook → Verify: forged, unsigned, altered',
			figure: `answers ${answers.map((a) => a.status).join(', ')} (the Webhook node answers at once); rejected: ${reasons.join(', ')}; verified ${verified}`,
			target: 'each rejected with its reason, none verified',
		});
		expect(reasons).toEqual(['invalid_signature', 'invalid_signature', 'missing_signature']);
		expect(verified).toBe(0);
	});

	afterAll(async () => {
		await suite.cluster.deactivate(IDS.verify);
	});
}
