// 6b. Deliveries per second through five webhook paths in the real n8n, side by side.

import { targets } from '../config';
import { table, verdict } from '../lib/markdown';
import { fixed, medianRatio, withSpread } from '../lib/stats';
import type { RealN8nResult } from '../measures/realN8n';
import type { Burst } from '../n8n/deliveries';
import { DELIVERY_PATHS, type DeliveryPath } from '../n8n/webhookThroughput';
import { pendingSection, type Pending, type Section, type Verdict } from './section';

const PATH_LABELS: Record<DeliveryPath, string> = {
	verify: 'Webhook (Raw Body) → Lead Conversations, Event: Verify → No Operation',
	trigger:
		'Lead Conversations Trigger → No Operation (subscribed by itself: the secret the service returned)',
	triggerManual:
		'Lead Conversations Trigger, subscription Manual, secret in its Signing Secret credential → No Operation',
	chain: 'Webhook (Raw Body) → Crypto (HMAC-SHA256 hex) → IF (digest = header) → No Operation',
	webhook: 'Webhook → No Operation (no check at all)',
};

interface RatioCheck {
	measure: string;
	numerator: DeliveryPath;
	denominator: DeliveryPath;
	target: number;
	/** Which n8n configuration the target applies to (index in N8N_CONFIGURATIONS). */
	configuration: number;
}

const RATIO_CHECKS: RatioCheck[] = [
	{
		measure: '6b. Deliveries/s through the trigger ÷ n8n Webhook node',
		numerator: 'trigger',
		denominator: 'webhook',
		target: targets.webhookThroughputRatio,
		configuration: 0,
	},
	{
		measure: '6b. Deliveries/s, Webhook → Verify ÷ Webhook → Crypto → IF (n8n defaults)',
		numerator: 'verify',
		denominator: 'chain',
		target: targets.verifyVsChainRatio,
		configuration: 0,
	},
	{
		measure: '6b. Deliveries/s, trigger ÷ Webhook → Crypto → IF (both pay the expression isolate)',
		numerator: 'trigger',
		denominator: 'chain',
		target: targets.triggerVsChainEqualTerms,
		configuration: 1,
	},
	{
		measure:
			'6b. Deliveries/s, trigger (Manual, secret in a credential) ÷ Webhook → Crypto → IF (both pay the expression isolate)',
		numerator: 'triggerManual',
		denominator: 'chain',
		target: targets.triggerVsChainEqualTerms,
		configuration: 1,
	},
];

type Configuration = RealN8nResult['throughput'][number];

const roundsAt = (configuration: Configuration, concurrency: number) =>
	configuration.rounds.filter((round) => round.concurrency === concurrency);

function pathRows(configuration: Configuration, concurrencies: number[]): string[][] {
	return concurrencies.flatMap((concurrency) =>
		DELIVERY_PATHS.map((path) => {
			const bursts = roundsAt(configuration, concurrency).map((round) => round.bursts[path]);
			const spread = (pick: (burst: Burst) => number) => withSpread(bursts.map(pick), 1);
			return [
				`${concurrency}`,
				path,
				`**${spread((b) => b.perSecond)}**`,
				spread((b) => b.answeredPerSecond),
				spread((b) => b.cpuMsPerDelivery),
				bursts.map((b) => b.executions).join(' / '),
				String(bursts.reduce((sum, b) => sum + b.failed, 0)),
			];
		}),
	);
}

/** Median per-round ratio of a check, at each level of concurrency. */
function ratiosOf(
	configuration: Configuration,
	concurrencies: number[],
	check: RatioCheck,
	figure: (burst: Burst) => number,
): number[] {
	return concurrencies.map((concurrency) => {
		const rounds = roundsAt(configuration, concurrency);
		return medianRatio(
			rounds.map((round) => figure(round.bursts[check.numerator])),
			rounds.map((round) => figure(round.bursts[check.denominator])),
		);
	});
}

const joined = (ratios: number[]) => ratios.map((ratio) => fixed(ratio, 2)).join(' and ');

export function webhooksSection(result: RealN8nResult | Pending): Section {
	const title = '6b. Webhook throughput in the real n8n';
	if ('pending' in result) {
		return pendingSection(
			title,
			RATIO_CHECKS.map((check) => check.measure),
			RATIO_CHECKS.map((check) => `≥ ${check.target}`).join('; '),
			result.pending,
		);
	}
	const args = result.webhookArgs;
	const levels = args.concurrencies;
	const verdicts: Verdict[] = [];
	const parts: string[] = [
		`n8n ${result.n8nVersion} on Node ${result.nodeVersion} (http, sqlite, default execution saving), one ` +
			'instance with five active workflows receiving the same deliveries: ' +
			DELIVERY_PATHS.map((path) => `**${path}** = ${PATH_LABELS[path]}`).join('; ') +
			`. The trigger is version ${result.triggerVersion}: as it comes, it subscribed itself to the sandbox at ` +
			'activation and checks the secret the service returned (kept in its static data); with a Manual ' +
			'subscription it reads its Signing Secret credential on each delivery, as Verify does in its run. ' +
			`The Webhook nodes are version 2, POST, answering at once. Each burst sends ${args.deliveries} distinct deliveries of ` +
			`${fixed(args.bodyBytes / 1024, 0)} KB, correctly signed and timestamped now, to one workflow, ` +
			`${levels.join(' or ')} in flight; n8n is left to become idle before the next burst; the order of the ` +
			'paths rotates. "Processed/s" = executions finished ÷ time from the first delivery to the end of the ' +
			"last execution (from n8n's database): the whole path, and the figure the targets apply to. " +
			'"n8n CPU" = CPU time of the n8n process from the burst until idle again, per delivery: less ' +
			'sensitive than times to what else runs on the machine. Median of the rounds (min–max).',
	];
	result.throughput.forEach((configuration, index) => {
		parts.push('', `**${configuration.label}**`, '');
		parts.push(
			table(
				[
					'In flight',
					'Path',
					'Processed/s',
					'Answered/s',
					'n8n CPU (ms per delivery)',
					'Executions per round',
					'Non-2xx answers',
				],
				pathRows(configuration, levels),
			),
		);
		const ratioLines = RATIO_CHECKS.map((check) => {
			const ratios = ratiosOf(configuration, levels, check, (burst) => burst.perSecond);
			const byCpu = ratiosOf(configuration, levels, check, (burst) => 1 / burst.cpuMsPerDelivery);
			const applies = check.configuration === index;
			const met = ratios.every((ratio) => ratio >= check.target);
			if (applies) {
				verdicts.push({
					measure: check.measure,
					figure: joined(ratios),
					target: `≥ ${check.target}`,
					met,
				});
			}
			return (
				`- ${check.numerator} ÷ ${check.denominator} (${levels.join(' and ')} in flight): ` +
				`**${joined(ratios)}**` +
				(applies ? ` (target ≥ ${check.target}: ${verdict(met)})` : '') +
				`; by n8n CPU per delivery (${check.denominator}'s ÷ ${check.numerator}'s): ${joined(byCpu)}`
			);
		});
		parts.push('', 'Median ratios of the rounds, processed/s:', '', ...ratioLines);
	});
	return { title, markdown: parts.join('\n'), verdicts };
}
