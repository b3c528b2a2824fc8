export const TABLE_READY_TEMPLATE = 'table-ready';

/**
 * "Your table is ready — {venue}": the hold's email, in the spec's words, with the deadline as a
 * venue-local stamp.
 */
export function tableReadyEmail(f: { venueName: string; partyName: string; expiresAtLocal: string }): {
  subject: string;
  body: string;
} {
  return {
    subject: `Your table is ready — ${f.venueName}`,
    body: [
      `Hello ${f.partyName},`,
      '',
      `Your table is ready — ${f.venueName}`,
      `Please confirm within 5 minutes — the offer expires at ${f.expiresAtLocal}.`,
      'Confirm through your queue link so we can seat you.',
    ].join('\n'),
  };
}
