export interface MutatedDelivery {
	body: Buffer;
	header: string;
	how: string;
}

const HEX = '0123456789abcdef';

/**
 * One random change to a signed delivery that must make it invalid: a body byte changed,
 * added or removed, or the digest changed, truncated, extended or replaced by non-hex.
 * Changing a hex digit only in case is not a mutation: that is the same digest.
 */
export function mutateSignedDelivery(
	random: () => number,
	body: Buffer,
	header: string,
): MutatedDelivery {
	const pick = (n: number) => Math.floor(random() * n);
	const kind = pick(7);
	switch (kind) {
		case 0: {
			const copy = Buffer.from(body);
			const at = pick(copy.length);
			copy[at] = (copy[at] + 1 + pick(255)) % 256;
			return { body: copy, header, how: `body byte ${at} changed` };
		}
		case 1: {
			const at = pick(body.length + 1);
			const inserted = Buffer.from([pick(256)]);
			const copy = Buffer.concat([body.subarray(0, at), inserted, body.subarray(at)]);
			return { body: copy, header, how: `byte inserted at ${at}` };
		}
		case 2: {
			const at = pick(body.length);
			const copy = Buffer.concat([body.subarray(0, at), body.subarray(at + 1)]);
			return { body: copy, header, how: `byte ${at} removed` };
		}
		case 3: {
			const at = pick(header.length);
			const current = header[at].toLowerCase();
			const replacement = HEX.replace(current, '')[pick(15)];
			return {
				body,
				header: header.slice(0, at) + replacement + header.slice(at + 1),
				how: `digest character ${at} changed`,
			};
		}
		case 4: {
			const length = pick(header.length);
			return { body, header: header.slice(0, length), how: `digest truncated to ${length}` };
		}
		case 5: {
			const extra = Array.from({ length: 1 + pick(4) }, () => HEX[pick(16)]).join('');
			return { body, header: header + extra, how: `digest extended by ${extra}` };
		}
		default: {
			const at = pick(header.length);
			const junk = 'gxz-+ /'[pick(7)];
			return {
				body,
				header: header.slice(0, at) + junk + header.slice(at + 1),
				how: `non-hex "${junk}" at ${at}`,
			};
		}
	}
}
