import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DateTime } from 'luxon';
import type { BoundaryResult } from './boundaries.js';
import type { RowResult } from './ledger.runner.js';
import { DECISION_KEYS, type Worksheet, type WorksheetDecisions } from './worksheet.js';

/** "hostboard x.y.z", from the package.json above this file (source or dist). */
export function appVersion(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'hostboard') return `hostboard ${pkg.version ?? 'unknown'}`;
    } catch {
      // not here; keep climbing
    }
    if (dirname(dir) === dir) return 'hostboard (version unknown)';
  }
}

/** The observed-at instant in the venue's zone and in UTC. */
export function observedAt(sheet: Worksheet, at: Date): string {
  const local = DateTime.fromJSDate(at, { zone: sheet.timeZone }).toFormat("yyyy-LL-dd HH:mm:ss '(UTC'ZZ')'");
  return `${local} ${sheet.timeZone} / ${at.toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
}

const LABELS: Record<(typeof DECISION_KEYS)[number], string> = {
  whoMayCancel: 'Who may cancel or alter a reservation',
  retries: 'How retries are recognized',
  discrepancyOwner: 'Owner of unresolved discrepancies',
  ruleChanges: 'Your rule changes / expected effect',
  reviewer: 'Reviewer',
  reviewDate: 'Review date',
};

export interface OpenCheck {
  check: string;
  outcome: 'failed' | 'unverified';
  nextAction: string;
}

/** Each failed row or boundary case, and each unverified case, with the next action for it. */
export function openChecks(rows: RowResult[], boundaries: BoundaryResult[]): OpenCheck[] {
  const out: OpenCheck[] = [];
  for (const r of rows.filter((x) => !x.passed)) {
    const paper = r.worksheetIssues.length > 0;
    const app = r.appIssues.length > 0;
    out.push({
      check: `row ${r.op}`,
      outcome: 'failed',
      nextAction: paper
        ? `correct the worksheet's figures for ${r.op} (${r.worksheetIssues[0]}) or change the policy, then replay${app ? '; the app also disagreed with the policy' : ''}`
        : `the app disagreed with the policy (${r.appIssues[0] ?? 'see the row'}): keep registration closed and report it with this output`,
    });
  }
  for (const b of boundaries.filter((x) => x.outcome !== 'passed')) {
    out.push({
      check: `boundary "${b.test}"`,
      outcome: b.outcome === 'failed' ? 'failed' : 'unverified',
      nextAction:
        b.outcome === 'failed'
          ? `keep registration closed; investigate the evidence (${b.evidence}) and re-run with --boundaries`
          : `give the worksheet the starting point this case needs (${b.evidence}) and re-run with --boundaries`,
    });
  }
  return out;
}

/** The worksheet's closing lines, filled in: app and version, reviewer and observed-at, open checks. */
export function formatClosing(sheet: Worksheet, decisions: WorksheetDecisions | undefined, at: Date, open: OpenCheck[]): string {
  const d = decisions ?? {};
  const owner = d.discrepancyOwner ?? "not named (the worksheet's decisions.discrepancyOwner is empty)";
  const reviewer = d.reviewer ? `${d.reviewer}${d.reviewDate ? ` (${d.reviewDate})` : ''}` : 'not named';
  return [
    '## Worksheet decisions (section 1), as recorded with the sandbox venue',
    '',
    ...DECISION_KEYS.map((k) => `- ${LABELS[k]}: ${d[k] ?? 'not recorded'}`),
    '',
    `Test app / version: ${appVersion()}`,
    `Reviewer / observed at: ${reviewer} / ${observedAt(sheet, at)}`,
    'Failed or unverified check / owner / next action:',
    ...(open.length === 0 ? ['- none'] : open.map((o) => `- ${o.check} (${o.outcome}) / ${owner} / ${o.nextAction}`)),
  ].join('\n');
}
