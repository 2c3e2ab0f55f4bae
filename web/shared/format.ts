/** en-GB formatting shared by every browser bundle (money in pounds, dates as 23 Nov 2026). */
const POUNDS = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: 0 });
const PENCE = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' });
const DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' });
const MOMENT = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/London',
});

/** Whole pounds unless the amount has pence. */
export function formatMoney(amount: number): string {
  return Number.isInteger(amount) ? POUNDS.format(amount) : PENCE.format(amount);
}

/** A calendar date (YYYY-MM-DD or ISO timestamp) as "23 Nov 2026"; an unparsable value is shown as given. */
function formatDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : DAY.format(date);
}

export function formatMoment(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : MOMENT.format(date);
}
