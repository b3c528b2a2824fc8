import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runBoundaries, formatBoundaries } from './boundaries.js';
import { LedgerHost } from './ledger.host.js';
import { formatRows } from './ledger.report.js';
import { runLedger } from './ledger.runner.js';
import { parseWorksheet } from './worksheet.js';

const USAGE = 'usage: npm run ledger -- <worksheet.json> [--boundaries]\n';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { boundaries: { type: 'boolean', default: false } },
  });
  const file = positionals[0];
  if (!file) {
    process.stderr.write(USAGE);
    return 2;
  }
  const sheet = parseWorksheet(JSON.parse(readFileSync(file, 'utf8')));
  const host = new LedgerHost();
  await host.start();
  try {
    const client = await host.client();
    process.stdout.write(
      `${sheet.name}: ledger replay in a fresh sandbox venue (${sheet.date}, ${sheet.timeZone}; sample data, no message sent)\n`,
    );
    const { rows } = await runLedger(client, sheet, 'ledger-main');
    process.stdout.write(`${formatRows(rows)}\n`);
    let failed = rows.some((r) => !r.passed);
    if (values.boundaries) {
      const results = await runBoundaries(host, sheet);
      process.stdout.write(`\n${formatBoundaries(results)}\n`);
      failed = failed || results.some((r) => r.outcome === 'failed');
    }
    return failed ? 1 : 0;
  } finally {
    await host.dispose();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${(err as Error)?.message ?? String(err)}\n`);
    process.exit(1);
  },
);
