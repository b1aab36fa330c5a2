// The words the seed builds its records from: names, vehicles, notes, agent settings, and the
// dialogue and summary of a conversation. Exported as tables; nothing here draws at random but
// through the generator it is handed.

import type { ConversationStatus, LeadStatus } from '../constants';
import type { Prng } from '../prng';

export const FIRST_NAMES = [
	'Sofía',
	'Mateo',
	'Valentina',
	'Santiago',
	'Camila',
	'Lucas',
	'Isabella',
	'Benjamín',
	'Martina',
	'Thiago',
	'Lucía',
	'Joaquín',
	'Mariana',
	'Gabriel',
	'Ana',
	'Diego',
	'Beatriz',
	'Rafael',
	'Emily',
	'James',
	'Olivia',
	'Daniel',
	'Paula',
	'Andrés',
	'Fernanda',
	'João',
];
export const LAST_NAMES = [
	'García',
	'Rodríguez',
	'Fernández',
	'López',
	'Martínez',
	'González',
	'Pérez',
	'Sánchez',
	'Romero',
	'Silva',
	'Souza',
	'Oliveira',
	'Castro',
	'Vargas',
	'Rojas',
	'Mora',
	'Jiménez',
	'Smith',
	'Johnson',
	'Brown',
	'Herrera',
	'Medina',
	'Álvarez',
	'Torres',
];
export const VEHICLES = [
	'Compact SUV, automatic, 2025',
	'Pickup 4x4 diesel',
	'Hybrid sedan',
	'Electric hatchback',
	'Seven-seat family SUV',
	'Used city car under 20,000',
	'Light commercial van',
	'Sports coupe',
	'Mid-size sedan, manual',
	'Crossover with panoramic roof',
];
export const NOTES = [
	'Prefers contact after 6 pm.',
	'Has a trade-in: 2017 hatchback, 80,000 km.',
	'Asked about financing over 48 months.',
	'Wants a test drive on Saturday.',
	'Referred by an existing customer.',
];
export const EMAIL_DOMAINS = ['example.com', 'example.org', 'example.net'];
export const HANDOFF_TRIGGERS = [
	'price negotiation',
	'trade-in valuation',
	'financing approval',
	'complaint',
	'test drive scheduling',
	'asks for a human',
];
export const ALLOWED_TOPICS = [
	'vehicle specifications',
	'availability',
	'pricing',
	'financing',
	'test drives',
	'trade-ins',
	'service appointments',
	'warranty',
];
export const ASCII_FIRST = FIRST_NAMES.map(ascii);
export const ASCII_LAST = LAST_NAMES.map(ascii);
export const AGENT_NAMES = [
	'Sofía',
	'Lucas',
	'Valentina',
	'Mateo',
	'Camila',
	'Joaquín',
	'Ana',
	'Rafael',
];

interface PhonePlan {
	prefix: string;
	digits: number;
	/** 10 ** digits */
	limit: number;
}
// Country code plus a national number of valid length, so every phone is E.164.
export const PHONE_PLANS: PhonePlan[] = [
	{ prefix: '+54911', digits: 8 },
	{ prefix: '+521', digits: 10 },
	{ prefix: '+5068', digits: 7 },
	{ prefix: '+573', digits: 9 },
	{ prefix: '+55119', digits: 8 },
	{ prefix: '+1415', digits: 7 },
].map((plan) => ({ ...plan, limit: 10 ** plan.digits }));

export const STATUS_WEIGHTS: Array<[LeadStatus, number]> = [
	['new', 0.25],
	['in_conversation', 0.25],
	['qualified', 0.15],
	['assigned', 0.15],
	['closed', 0.1],
	['lost', 0.1],
];

export function dialogue(
	rng: Prng,
	firstName: string,
	vehicle: string,
): Array<{ lead: boolean; text: string }> {
	const lines = [
		{ lead: true, text: `Hi, I saw your ad. I am interested in ${vehicle}.` },
		{
			lead: false,
			text: `Hello ${firstName}! Thanks for reaching out. Is it for personal use or for work?`,
		},
		{
			lead: true,
			text: rng.pick([
				'Personal use, for the family.',
				'For work, I drive a lot.',
				'Both, really.',
			]),
		},
		{ lead: false, text: 'Great. Do you have a budget in mind, and would you consider financing?' },
		{ lead: true, text: `Around ${rng.int(15, 45)},000. Financing could work.` },
		{
			lead: false,
			text: 'We have options in that range. Would you like to book a test drive this week?',
		},
		{
			lead: true,
			text: rng.pick([
				'Yes, Saturday morning if possible.',
				'Maybe next week.',
				'Let me think about it.',
			]),
		},
	];
	return lines.slice(0, rng.int(3, lines.length));
}

export function summary(rng: Prng, vehicle: string, status: ConversationStatus): string {
	const budget = `${rng.int(15, 45)},000`;
	const urgency = rng.pick([
		'wants to buy within 30 days',
		'plans to buy within 90 days',
		'is browsing',
	]);
	const action =
		status === 'transferred'
			? 'human advisor to call back with a financing quote'
			: status === 'closed'
				? 'none, conversation closed'
				: 'offer a test drive and send financing options';
	return `Vehicle interest: ${vehicle}. Budget: about ${budget}. Urgency: the lead ${urgency}. Action items: ${action}.`;
}

function ascii(text: string): string {
	return text
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase();
}
