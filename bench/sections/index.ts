// Raw results → the markdown tables `npm run bench` prints and writes to bench/results.md, every
// figure beside its target, ratios taken run by run; and the summary of targets met or missed.

export { assignEconomySection } from './assignEconomy';
export { contactedSection } from './contacted';
export { economySection } from './economy';
export { memorySection } from './memory';
export { n8nMemorySection } from './n8nMemory';
export { notContactedSection } from './notContacted';
export { queueSection } from './queue';
export { overheadSection, versusHttpSection } from './overhead';
export { pollEconomySection } from './pollEconomy';
export { rateLimitedSection } from './rateLimited';
export { returnAllInN8nSection, signatureSection } from './realN8n';
export { speedToLeadSection } from './speedToLead';
export { syncSection } from './sync';
export { webhooksSection } from './webhooks';
export { type Section, type Verdict } from './section';
