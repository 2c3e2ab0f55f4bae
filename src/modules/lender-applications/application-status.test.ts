/** The lender application status machine: every legal move, and illegal ones refused. */
import { describe, expect, it } from 'vitest';
import { nextStatus, type ApplicationEvent } from './application-status.js';

describe('the status machine', () => {
  it.each<[string, ApplicationEvent, string]>([
    ['Submitted', 'acknowledge', 'Acknowledged'],
    ['Acknowledged', 'acknowledge', 'Acknowledged'],
    ['Submitted', 'offer', 'Offered'],
    ['Acknowledged', 'offer', 'Offered'],
    ['Offered', 'offer', 'Offered'],
    ['Submitted', 'fail', 'Failed'],
    ['Failed', 'resubmit', 'Submitted'],
    ['Offered', 'reject', 'Rejected'],
    ['Offered', 'accept', 'Client Accepted'],
    ['Offered', 'decline', 'Client Declined'],
  ])('%s --%s--> %s', (from, event, to) => {
    expect(nextStatus(from, event)).toBe(to);
  });

  it.each<[string, ApplicationEvent]>([
    ['Rejected', 'offer'],
    ['Client Declined', 'accept'],
    ['Client Accepted', 'accept'],
    ['Offered', 'acknowledge'],
    ['Rejected', 'acknowledge'],
    ['Offered', 'fail'],
    ['Submitted', 'accept'],
    ['Rejected', 'resubmit'],
  ])('%s refuses %s with a 409', (from, event) => {
    expect(() => nextStatus(from, event)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });
});
