/** The lender application status machine: every legal move, and illegal ones refused. */
import { describe, expect, it } from 'vitest';
import { nextStatus, type ApplicationEvent } from './application-status.js';

describe('the status machine', () => {
  it.each<[string, ApplicationEvent, string]>([
    // Spec 3: an acknowledgement leaves the status unchanged.
    ['In Review', 'acknowledge', 'In Review'],
    ['In Review', 'offer', 'Offered'],
    ['Offered', 'offer', 'Offered'],
    ['In Review', 'fail', 'Failed'],
    ['In Review', 'reject', 'Rejected'],
    ['Failed', 'resubmit', 'In Review'],
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
    ['In Review', 'accept'],
    ['Failed', 'acknowledge'],
    // The names this machine no longer has (migrated to In Review) move nowhere.
    ['Submitted', 'acknowledge'],
    ['Acknowledged', 'offer'],
    ['Rejected', 'resubmit'],
  ])('%s refuses %s with a 409', (from, event) => {
    expect(() => nextStatus(from, event)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
  });
});
