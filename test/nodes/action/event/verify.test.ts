import { seededRandom } from '../../../../harness/support/random';
import { mutateSignedDelivery } from '../../trigger/mutations';
import {
	SECRET,
	VERIFY,
	eventBody,
	rejectedOf,
	runVerify,
	sign,
	signed,
	verifiedOf,
	type Delivery,
} from './verifyRun';

const MINUTE = 60_000;
const isoAgo = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('Event → Verify: signature', () => {
	it('outputs a correctly signed delivery as the parsed event, in the trigger’s whole-payload shape', async () => {
		const body = eventBody();
		const result = await runVerify([signed(body)]);

		expect(result.status).toBe('success');
		expect(verifiedOf(result)).toEqual([JSON.parse(body.toString())]);
		expect(rejectedOf(result)).toEqual([]);
		expect(result.output('Verified Sink')).toHaveLength(1);
		expect(result.output('Rejected Sink')).toHaveLength(0);
	});

	it('outputs only the data object with Output: Data Only', async () => {
		const body = eventBody({}, { id: 'lead_data01', score: 91 });
		const result = await runVerify([signed(body)], {
			parameters: { options: { output: 'data' } },
		});
		expect(verifiedOf(result)).toEqual([{ id: 'lead_data01', score: 91 }]);
	});

	it('accepts the digest in upper-case hex (the same bytes)', async () => {
		const body = eventBody();
		const result = await runVerify([{ body, header: sign(body).toUpperCase() }]);
		expect(verifiedOf(result)).toHaveLength(1);
	});

	it('rejects every kind of forged delivery the fuzzing makes, each with its reason, none verified', async () => {
		const random = seededRandom(20_251_124);
		const body = eventBody();
		const header = sign(body);
		const mutated = Array.from({ length: 140 }, () => mutateSignedDelivery(random, body, header));
		const kindOf = (how: string) =>
			[
				/^body byte/,
				/^byte inserted/,
				/^byte \d+ removed/,
				/^digest character/,
				/truncated/,
				/extended/,
				/non-hex/,
			].findIndex((pattern) => pattern.test(how));
		// changed byte, inserted byte, removed byte, digest character changed, truncated, extended, non-hex
		expect(new Set(mutated.map(({ how }) => kindOf(how)))).toEqual(new Set([0, 1, 2, 3, 4, 5, 6]));

		const result = await runVerify(
			mutated.map(({ body: b, header: h }) => ({ body: b, header: h })),
		);

		expect(verifiedOf(result)).toEqual([]);
		const rejected = rejectedOf(result);
		expect(rejected).toHaveLength(mutated.length);
		for (const item of rejected) {
			expect(['invalid_signature', 'missing_signature']).toContain(item.reason);
		}
		// A digest truncated to nothing is an empty header: "missing".
		const empty = mutated.filter(({ header: h }) => h === '').length;
		expect(rejected.filter((item) => item.reason === 'missing_signature')).toHaveLength(empty);
		expect(result.output(VERIFY, 1).map((item) => item.pairedItem)).toEqual(
			mutated.map((_, index) => ({ item: index })),
		);
	});

	it('rejects a missing header, a header sent twice, and a signature made with another secret', async () => {
		const body = eventBody();
		const deliveries: Delivery[] = [
			{ body },
			{ body, header: [sign(body), sign(body)] },
			signed(body, 'whsec_another_endpoint'),
		];
		const result = await runVerify(deliveries);
		expect(verifiedOf(result)).toEqual([]);
		expect(rejectedOf(result).map((item) => item.reason)).toEqual([
			'missing_signature',
			'invalid_signature',
			'invalid_signature',
		]);
	});

	it('rejects a signed body that is not an event', async () => {
		const bodies = ['not json', '[1,2]', '{"data":{}}'].map((text) => Buffer.from(text));
		const result = await runVerify(bodies.map((body) => signed(body)));
		expect(rejectedOf(result).map((item) => item.reason)).toEqual([
			'not_an_event',
			'not_an_event',
			'not_an_event',
		]);
	});

	it('never puts the signing secret in any output, error or log line', async () => {
		const body = eventBody();
		const forged = { body, header: sign(body, 'guess') };
		const outputs = await runVerify([forged, { body }, signed(Buffer.from('x'))]);
		const failed = await runVerify([forged], { parameters: { rejected: 'error' } });

		for (const result of [outputs, failed]) {
			const everything = JSON.stringify(result.run) + result.logs.join('\n');
			expect(everything).not.toContain(SECRET);
			// Nor the digest a forger would need.
			expect(everything).not.toContain(sign(body));
		}
		expect(failed.status).toBe('error');
		expect(failed.error?.message).toContain('X-Service-Signature');
		expect(JSON.stringify(rejectedOf(outputs))).not.toContain(SECRET);
	});
});

describe('Event → Verify: rejected deliveries fail the item when chosen', () => {
	it('fails the execution, naming the reason', async () => {
		const body = eventBody();
		const result = await runVerify([signed(body), { body, header: sign(body, 'x') }], {
			parameters: { rejected: 'error' },
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toMatch(/Delivery refused: X-Service-Signature .* \[item 1\]/);
		expect(result.output('Verified Sink')).toHaveLength(0);
	});

	it('with On Error: Continue, turns the refused item into an error item and keeps the good one', async () => {
		const body = eventBody();
		const result = await runVerify([signed(body), { body }], {
			parameters: { rejected: 'error' },
			continueOnFail: true,
		});
		const items = verifiedOf(result);
		expect(items).toHaveLength(2);
		expect(items.filter((item) => item.reason === 'missing_signature')).toHaveLength(1);
		expect(items.filter((item) => item.event === 'lead.qualified' && !item.error)).toHaveLength(1);
		expect(result.run.data.resultData.runData[VERIFY][0].data?.main).toHaveLength(1);
	});

	it('drops a duplicate without failing (a retry is normal)', async () => {
		const delivery = signed(eventBody());
		const result = await runVerify([delivery, delivery], { parameters: { rejected: 'error' } });
		expect(result.status).toBe('success');
		expect(verifiedOf(result)).toHaveLength(1);
	});

	it('refuses an item without the raw body, naming the Webhook option to turn on', async () => {
		const result = await runVerify([signed(eventBody())], {
			parameters: { rawBodyField: 'rawBody' },
		});
		expect(result.status).toBe('error');
		expect(result.error?.message).toContain('no binary field "rawBody"');
		expect(result.error?.description).toContain('Raw Body');
	});
});

describe('Event → Verify: replay window', () => {
	it('accepts an event inside the default hour and refuses one outside it, or too far ahead', async () => {
		const deliveries = [
			signed(eventBody({ timestamp: isoAgo(59 * MINUTE) })),
			signed(eventBody({ timestamp: isoAgo(61 * MINUTE) })),
			signed(eventBody({ timestamp: isoAgo(-4 * MINUTE) })),
			signed(eventBody({ timestamp: isoAgo(-6 * MINUTE) })),
			signed(eventBody({ timestamp: 'yesterday' })),
			signed(eventBody({ timestamp: undefined })),
		];
		const result = await runVerify(deliveries);
		expect(result.output(VERIFY, 0).map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 2 },
		]);
		expect(rejectedOf(result).map((item) => item.reason)).toEqual(
			Array(4).fill('outside_replay_window'),
		);
		expect(rejectedOf(result)[0].message).toContain('more than the replay window of 60 minutes');
	});

	it("follows Maximum Event Age (Minutes), the trigger's option, never below the last retry", async () => {
		const old = signed(eventBody({ timestamp: isoAgo(45 * MINUTE) }));
		const forty = await runVerify([old], { parameters: { options: { maxEventAge: 40 } } });
		expect(rejectedOf(forty).map((item) => item.reason)).toEqual(['outside_replay_window']);

		const ninety = await runVerify([old], { parameters: { options: { maxEventAge: 90 } } });
		expect(verifiedOf(ninety)).toHaveLength(1);

		// A window shorter than the service's retries would refuse real retries: 5 reads as 40.
		const retry = signed(eventBody({ timestamp: isoAgo(36 * MINUTE) }));
		const five = await runVerify([retry], { parameters: { options: { maxEventAge: 5 } } });
		expect(verifiedOf(five)).toHaveLength(1);
	});
});

describe('Event → Verify: duplicates (static data, where n8n offers no store)', () => {
	it('lets one copy of a delivery through when it arrives twice in one execution', async () => {
		const delivery = signed(eventBody());
		const result = await runVerify([delivery, delivery, delivery]);
		expect(verifiedOf(result)).toHaveLength(1);
		expect(rejectedOf(result).map((item) => item.reason)).toEqual(['duplicate', 'duplicate']);
	});

	it('refuses a retry in a later execution, also when re-serialized with other spacing and key order', async () => {
		const timestamp = new Date().toISOString();
		const data = { id: 'lead_retry01', name: 'Rui', score: 70 };
		const first = await runVerify([signed(eventBody({ timestamp }, data))]);
		expect(verifiedOf(first)).toHaveLength(1);
		expect(JSON.stringify(first.staticData)).not.toContain('lead_retry01');

		const reordered = Buffer.from(
			JSON.stringify(
				{
					data: { score: 70, name: 'Rui', id: 'lead_retry01' },
					organization_id: 'org_alpha',
					timestamp,
					event: 'lead.qualified',
				},
				null,
				2,
			),
		);
		const retry = await runVerify([signed(reordered)], { staticData: first.staticData });
		expect(verifiedOf(retry)).toEqual([]);
		expect(rejectedOf(retry).map((item) => item.reason)).toEqual(['duplicate']);
	});

	it('lets two different events of one record in one millisecond both through', async () => {
		const timestamp = new Date().toISOString();
		const result = await runVerify([
			signed(eventBody({ timestamp }, { id: 'lead_same', score: 60 })),
			signed(eventBody({ timestamp }, { id: 'lead_same', score: 61 })),
		]);
		expect(verifiedOf(result)).toHaveLength(2);
	});

	it('does not record a refused delivery: the genuine one still passes afterwards', async () => {
		const body = eventBody();
		const forged = await runVerify([{ body, header: sign(body, 'x') }]);
		const genuine = await runVerify([signed(body)], { staticData: forged.staticData });
		expect(verifiedOf(genuine)).toHaveLength(1);
	});
});
