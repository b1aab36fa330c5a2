// Opening hours: a week of time ranges in an IANA time zone with closed dates, and the open time
// between instants. Pure functions, shared by the Polling Trigger's wait and Lead → Assign's shifts.

export type { OpeningHours, OpeningHoursInput, OpenMinutes } from './parse';
export { checkTimeZone, parseOpeningHours } from './parse';
export { HORIZON_DAYS, isOpenAt, nextOpeningAt, openEndOf, openMsBetween } from './openTime';
