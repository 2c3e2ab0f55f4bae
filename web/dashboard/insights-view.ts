/**
 * The pipeline at a glance: applications by status per day or week, each lender's time to
 * acknowledgement and to offer (median and 90th percentile), and (staff) the review queue's size and
 * ageing and each lender's webhook delivery success rate (the deliveries view's summary). Every
 * number is counted by the server in SQL over what the signed-in user may see (staff: all;
 * integrator users: their account's); the browser only draws them. Charts are Chart.js
 * (bundled by the project's build, drawn on canvas: nothing the page's CSP forbids), and each chart
 * has its numbers as a table behind a toggle, for screen readers and for anyone who wants the figures.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { ref } from 'lit/directives/ref.js';
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip, type ChartConfiguration } from 'chart.js';
import type {
  ApplicationsByStatusQuery,
  ApplicationsByStatusQueryVariables,
  DeliverySummaryQuery,
  DeliverySummaryQueryVariables,
  LenderResponseTimesQuery,
  LenderResponseTimesQueryVariables,
  ReviewQueueStandingQuery,
} from './generated/graphql.js';
import { graphql } from './graphql-api.js';
import { APPLICATIONS_BY_STATUS, LENDER_RESPONSE_TIMES, REVIEW_QUEUE_STANDING } from './insights-queries.js';
import { DELIVERY_SUMMARY } from './deliveries-queries.js';
import { app, attempt, token } from './app.js';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);

type Bucket = 'DAY' | 'WEEK';
type Pipeline = ApplicationsByStatusQuery['applicationsByStatus'];
type ResponseTimes = LenderResponseTimesQuery['lenderResponseTimes'];
type QueueStanding = ReviewQueueStandingQuery['reviewQueueStanding'];
type DeliveryHealth = DeliverySummaryQuery['webhookDeliverySummary'];

/** Days or weeks shown, ending with the current one. */
const PERIODS: Record<Bucket, { count: number; label: string }> = {
  DAY: { count: 14, label: 'Last 14 days, by day' },
  WEEK: { count: 12, label: 'Last 12 weeks, by week' },
};

/** Status colours (never the only signal: the legend and the tables name every status). */
const STATUS_COLOURS: Record<string, string> = {
  'In Review': '#0b5cad',
  Offered: '#116329',
  Failed: '#b35900',
  Rejected: '#a40e26',
  'Client Accepted': '#1a7f37',
  'Client Declined': '#57606a',
};

/** First acknowledgements: shown beside the statuses, since an acknowledgement leaves the status In Review (spec 3). */
const ACKNOWLEDGED_LABEL = 'First acknowledged';
const ACKNOWLEDGED_COLOUR = '#6f42c1';

const insights = {
  bucket: 'DAY' as Bucket,
  pipeline: null as Pipeline | null,
  responseTimes: [] as ResponseTimes,
  queue: null as QueueStanding | null,
  deliveries: null as DeliveryHealth | null,
};

/** Hours a window spans, from its start to now: the delivery summary counts deliveries made since. */
const windowHours = (bucket: Bucket) => Math.ceil((Date.now() - new Date(windowStart(bucket)).getTime()) / 3_600_000);

/** The window's start: UTC midnight of the first day, or Monday 00:00 UTC of the first week (as the server buckets). */
function windowStart(bucket: Bucket, now = new Date()): string {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (bucket === 'WEEK') start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7) - 7 * (PERIODS.WEEK.count - 1));
  else start.setUTCDate(start.getUTCDate() - (PERIODS.DAY.count - 1));
  return start.toISOString();
}

export async function loadInsights(): Promise<void> {
  const window = { bucket: insights.bucket, since: windowStart(insights.bucket) };
  const staff = app.session?.staff === true;
  const [pipeline, times, queue, deliveries] = await Promise.all([
    graphql<ApplicationsByStatusQuery, ApplicationsByStatusQueryVariables>(token(), APPLICATIONS_BY_STATUS, { window }),
    graphql<LenderResponseTimesQuery, LenderResponseTimesQueryVariables>(token(), LENDER_RESPONSE_TIMES, { window }),
    staff ? graphql<ReviewQueueStandingQuery>(token(), REVIEW_QUEUE_STANDING) : Promise.resolve(null),
    // Deliveries are the platform's to lenders: staff only, as in the deliveries view.
    staff
      ? graphql<DeliverySummaryQuery, DeliverySummaryQueryVariables>(token(), DELIVERY_SUMMARY, { hours: windowHours(insights.bucket) })
      : Promise.resolve(null),
  ]);
  insights.pipeline = pipeline.applicationsByStatus;
  insights.responseTimes = times.lenderResponseTimes;
  insights.queue = queue?.reviewQueueStanding ?? null;
  insights.deliveries = deliveries?.webhookDeliverySummary ?? null;
}

export function closeInsights(): void {
  for (const chart of charts.values()) chart.destroy();
  charts.clear();
  insights.pipeline = null;
  insights.responseTimes = [];
  insights.queue = null;
  insights.deliveries = null;
}

// ------------------------------------------------------------------------------------ charts

const charts = new Map<string, Chart>();

/**
 * A lit `ref` that draws `config` on its canvas: a new chart when the canvas is new (first render,
 * or the view was left and opened again), else the same chart with new data (a window change).
 */
function chartOf(name: string, config: () => ChartConfiguration<'bar'>) {
  return ref((element) => {
    if (!(element instanceof HTMLCanvasElement)) return;
    // lit calls a ref while its template is still a detached fragment on first render: Chart.js
    // measures the canvas's container, so it draws once the canvas is in the page.
    requestAnimationFrame(() => {
      if (!element.isConnected) return;
      const existing = charts.get(name);
      if (existing && existing.canvas === element) {
        existing.data = config().data;
        existing.update();
        return;
      }
      existing?.destroy();
      charts.set(name, new Chart(element, config()));
    });
  });
}

const BASE_OPTIONS = {
  responsive: true,
  maintainAspectRatio: false,
  animation: false,
  plugins: { legend: { position: 'bottom' } },
} as const;

const periodLabel = (start: string, bucket: Bucket) => {
  const date = new Date(start);
  const day = date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
  return bucket === 'WEEK' ? `Week of ${day}` : day;
};

/** Seconds as the largest unit that keeps them readable: 45 min, 5.5 h, 2.1 days. */
function duration(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86_400) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86_400).toFixed(1)} days`;
}

const hours = (seconds: number | null) => (seconds === null ? null : Math.round((seconds / 3600) * 100) / 100);

// -------------------------------------------------------------------------------------- view

function windowSelector(): TemplateResult {
  const changed = (event: Event) => {
    insights.bucket = (event.target as HTMLSelectElement).value as Bucket;
    void attempt(loadInsights);
  };
  return html`<div class="filters">
    <div><label for="insights-window">Window</label>
      <select id="insights-window" @change=${changed}>
        ${(Object.keys(PERIODS) as Bucket[]).map((b) => html`<option value=${b} ?selected=${insights.bucket === b}>${PERIODS[b].label}</option>`)}
      </select></div>
    <div><button type="button" @click=${() => attempt(loadInsights)}>Refresh</button></div>
  </div>`;
}

/** A chart and its numbers: the canvas is an image with a summary; the table behind the toggle holds every figure. */
function figure(id: string, title: string, summary: string, canvas: TemplateResult, table: TemplateResult): TemplateResult {
  return html`<figure class="insight" data-testid=${id} aria-labelledby="${id}-title">
    <figcaption id="${id}-title"><h3>${title}</h3><p class="muted">${summary}</p></figcaption>
    <div class="chart-box">${canvas}</div>
    <details><summary>Show the numbers as a table</summary>${table}</details>
  </figure>`;
}

function pipelineFigure(pipeline: Pipeline): TemplateResult {
  const bucket = pipeline.bucket as Bucket;
  const statuses = pipeline.periods[0]?.counts.map((c) => c.status) ?? [];
  const total = pipeline.periods.reduce((sum, p) => sum + (p.counts.find((c) => c.status === 'In Review')?.applications ?? 0), 0);
  const config = (): ChartConfiguration<'bar'> => ({
    type: 'bar',
    data: {
      labels: pipeline.periods.map((p) => periodLabel(p.start, bucket)),
      datasets: [
        ...statuses.map((status) => ({
          label: status,
          data: pipeline.periods.map((p) => p.counts.find((c) => c.status === status)?.applications ?? 0),
          backgroundColor: STATUS_COLOURS[status] ?? '#57606a',
        })),
        { label: ACKNOWLEDGED_LABEL, data: pipeline.periods.map((p) => p.acknowledged), backgroundColor: ACKNOWLEDGED_COLOUR },
      ],
    },
    options: { ...BASE_OPTIONS, scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, ticks: { precision: 0 } } } },
  });
  const table = html`<table class="stacked" data-testid="pipeline-table">
    <caption class="sr-only">Applications that moved into each status, per ${bucket === 'WEEK' ? 'week' : 'day'}</caption>
    <thead><tr><th scope="col">${bucket === 'WEEK' ? 'Week' : 'Day'}</th>${statuses.map((s) => html`<th scope="col">${s}</th>`)}<th scope="col">${ACKNOWLEDGED_LABEL}</th></tr></thead>
    <tbody>${pipeline.periods.map(
      (p) =>
        html`<tr data-period=${p.start}><th scope="row" data-label=${bucket === 'WEEK' ? 'Week' : 'Day'}>${periodLabel(p.start, bucket)}</th>${p.counts.map(
          (c) => html`<td data-label=${c.status} data-status=${c.status}>${c.applications}</td>`,
        )}<td data-label=${ACKNOWLEDGED_LABEL} data-value="acknowledged">${p.acknowledged}</td></tr>`,
    )}</tbody>
  </table>`;
  return figure(
    'pipeline',
    'Applications by status',
    `How many applications moved into each status, per ${bucket === 'WEEK' ? 'week' : 'day'}: ${total} submitted in the window.`,
    html`<canvas role="img" aria-label="Stacked bar chart of applications moving into each status per ${bucket === 'WEEK' ? 'week' : 'day'}; the numbers are in the table below" ${chartOf('pipeline', config)}></canvas>`,
    table,
  );
}

function responseTimesFigure(rows: ResponseTimes): TemplateResult {
  const config = (): ChartConfiguration<'bar'> => ({
    type: 'bar',
    data: {
      labels: rows.map((r) => r.lenderName),
      datasets: [
        { label: 'Acknowledgement, median (h)', data: rows.map((r) => hours(r.acknowledgement.medianSeconds)), backgroundColor: '#6f42c1' },
        { label: 'Acknowledgement, 90th percentile (h)', data: rows.map((r) => hours(r.acknowledgement.p90Seconds)), backgroundColor: '#b8a1e3' },
        { label: 'Offer, median (h)', data: rows.map((r) => hours(r.offer.medianSeconds)), backgroundColor: '#116329' },
        { label: 'Offer, 90th percentile (h)', data: rows.map((r) => hours(r.offer.p90Seconds)), backgroundColor: '#8fd19e' },
      ],
    },
    options: { ...BASE_OPTIONS, indexAxis: 'y', scales: { x: { beginAtZero: true, title: { display: true, text: 'Hours from submission' } } } },
  });
  const table = html`<table class="stacked" data-testid="response-times-table">
    <caption class="sr-only">Time from submission to each lender's first acknowledgement and first offer</caption>
    <thead><tr><th scope="col">Lender</th><th scope="col">Acknowledged</th><th scope="col">Acknowledgement median</th><th scope="col">Acknowledgement 90th percentile</th><th scope="col">Offered</th><th scope="col">Offer median</th><th scope="col">Offer 90th percentile</th></tr></thead>
    <tbody>${rows.map(
      (r) => html`<tr data-lender-id=${r.lenderId}>
        <th scope="row" data-label="Lender">${r.lenderName}</th>
        <td data-label="Acknowledged" data-value="ack-answered">${r.acknowledgement.answered}</td>
        <td data-label="Acknowledgement median" data-value="ack-median" data-seconds=${r.acknowledgement.medianSeconds ?? ''}>${duration(r.acknowledgement.medianSeconds)}</td>
        <td data-label="Acknowledgement 90th percentile" data-value="ack-p90" data-seconds=${r.acknowledgement.p90Seconds ?? ''}>${duration(r.acknowledgement.p90Seconds)}</td>
        <td data-label="Offered" data-value="offer-answered">${r.offer.answered}</td>
        <td data-label="Offer median" data-value="offer-median" data-seconds=${r.offer.medianSeconds ?? ''}>${duration(r.offer.medianSeconds)}</td>
        <td data-label="Offer 90th percentile" data-value="offer-p90" data-seconds=${r.offer.p90Seconds ?? ''}>${duration(r.offer.p90Seconds)}</td>
      </tr>`,
    )}</tbody>
  </table>`;
  return figure(
    'response-times',
    'Time to acknowledgement and to offer',
    rows.length === 0
      ? 'No lender answered in the window.'
      : 'Per lender, from submission to its first acknowledgement and first offer that came in the window: median and 90th percentile.',
    html`<canvas role="img" aria-label="Bar chart of each lender's median and 90th percentile hours to acknowledgement and to offer; the numbers are in the table below" ${chartOf('response-times', config)}></canvas>`,
    table,
  );
}

function reviewQueueFigure(queue: QueueStanding): TemplateResult {
  const config = (): ChartConfiguration<'bar'> => ({
    type: 'bar',
    data: {
      labels: queue.ageBands.map((b) => b.label),
      datasets: [{ label: 'Selections waiting', data: queue.ageBands.map((b) => b.selections), backgroundColor: '#0b5cad' }],
    },
    options: { ...BASE_OPTIONS, plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
  });
  const table = html`<table class="stacked" data-testid="review-queue-table">
    <caption class="sr-only">Selections waiting in the review queue by how long they have waited</caption>
    <thead><tr><th scope="col">Waiting for</th><th scope="col">Selections</th></tr></thead>
    <tbody>${queue.ageBands.map((b) => html`<tr><th scope="row" data-label="Waiting for">${b.label}</th><td data-label="Selections">${b.selections}</td></tr>`)}</tbody>
  </table>`;
  return figure(
    'review-queue-ageing',
    'Review queue',
    `${queue.waiting} waiting (${queue.pendingReview} pending review, ${queue.inReview} in review); the oldest has waited ${queue.waiting === 0 ? '—' : duration(queue.oldestAgeSeconds)}.`,
    html`<canvas role="img" aria-label="Bar chart of the selections waiting in the review queue by how long they have waited; the numbers are in the table below" ${chartOf('review-queue', config)}></canvas>`,
    table,
  );
}

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 1000) / 10}%`);

function deliveryFigure(rows: DeliveryHealth): TemplateResult {
  const attempted = rows.filter((r) => r.successRate !== null);
  const config = (): ChartConfiguration<'bar'> => ({
    type: 'bar',
    data: {
      labels: attempted.map((r) => r.lenderName),
      datasets: [
        {
          label: 'Delivered (%)',
          data: attempted.map((r) => Math.round(r.successRate! * 1000) / 10),
          backgroundColor: attempted.map((r) => (r.successRate! < 0.95 ? '#a40e26' : '#116329')),
        },
      ],
    },
    options: {
      ...BASE_OPTIONS,
      indexAxis: 'y',
      plugins: { legend: { display: false } },
      scales: { x: { beginAtZero: true, max: 100, title: { display: true, text: 'Deliveries delivered (%)' } } },
    },
  });
  const table = html`<table class="stacked" data-testid="delivery-success-table">
    <caption class="sr-only">Each lender's webhook deliveries in the window by outcome, and the share delivered</caption>
    <thead><tr><th scope="col">Lender</th><th scope="col">Delivered</th><th scope="col">Retrying</th><th scope="col">Dead</th><th scope="col">Pending</th><th scope="col">Success rate</th></tr></thead>
    <tbody>${rows.map(
      (r) => html`<tr data-lender-id=${r.lenderId}>
        <th scope="row" data-label="Lender">${r.lenderName}</th>
        <td data-label="Delivered">${r.delivered}</td><td data-label="Retrying">${r.failing}</td><td data-label="Dead">${r.dead}</td><td data-label="Pending">${r.pending}</td>
        <td data-label="Success rate" data-value="success-rate">${percent(r.successRate)}</td>
      </tr>`,
    )}</tbody>
  </table>`;
  return figure(
    'delivery-success',
    'Webhook delivery success',
    rows.length === 0
      ? 'No deliveries in the window.'
      : 'Per lender, the share of deliveries made in the window that reached it (delivered / delivered, retrying and dead); under 95% in red, failing lenders first.',
    html`<canvas role="img" aria-label="Bar chart of each lender's webhook delivery success rate; the numbers are in the table below" ${chartOf('delivery-success', config)}></canvas>`,
    table,
  );
}

export function insightsView(): TemplateResult {
  const { pipeline, responseTimes, queue, deliveries } = insights;
  return html`<section aria-labelledby="insights-title" data-testid="insights" data-since=${pipeline?.since ?? ''} data-until=${pipeline?.until ?? ''}>
    <h2 id="insights-title">Insights</h2>
    <p class="muted">${app.session?.staff ? 'Every application of the environment.' : "Your account's applications."} Times in UTC.</p>
    ${windowSelector()}
    <div class="insights-grid">
      ${pipeline ? pipelineFigure(pipeline) : nothing}
      ${pipeline ? responseTimesFigure(responseTimes) : nothing}
      ${queue ? reviewQueueFigure(queue) : nothing}
      ${deliveries ? deliveryFigure(deliveries) : nothing}
    </div>
  </section>`;
}
