import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runBoundaries, formatBoundaries, type BoundaryResult } from './boundaries.js';
import { formatClosing, openChecks } from './ledger.closing.js';
import { LedgerHost } from './ledger.host.js';
import { formatRows } from './ledger.report.js';
import { runLedger } from './ledger.runner.js';
import { parseWorksheet, type WorksheetDecisions } from './worksheet.js';

const USAGE = 'usage: npm run ledger -- <worksheet.json> [--boundaries]\n';

/** Set by SIGINT or SIGTERM: the signal's handler ends the process once its clean-up is done, not the run's own failure. */
let interrupted = false;

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
  const sheet = parseWorksheet(readJson(file));
  const host = new LedgerHost();
  // Interrupted (Ctrl-C, a stop from a supervisor), or its reader gone (piped into `head`, which exits
  // after its lines: the next write fails with EPIPE, and the run crashed on it before cleaning up):
  // the temporary database and folder go with the run.
  const stop = (why: string, code: number): void => {
    if (interrupted) return;
    interrupted = true;
    say(`ledger: ${why}: stopping, and removing its temporary database and folder\n`);
    void host.dispose(true).then(
      () => process.exit(code),
      (err: unknown) => {
        say(`ledger: the clean-up failed: ${(err as Error)?.message ?? String(err)}\n`);
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop(signal, signal === 'SIGINT' ? 130 : 143));
  // Every later write to a closed stream fails too: the listener stays, so none of them crashes the run.
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (err: NodeJS.ErrnoException) => {
      // 141: as a process ended by SIGPIPE, so a pipeline with pipefail still sees the run did not finish.
      if (err.code === 'EPIPE') stop(`its output was closed (${err.code})`, 141);
      else stop(`its output failed (${err.code ?? err.message})`, 1);
    });
  try {
    for (const line of await host.removeLeftovers()) process.stderr.write(`ledger: ${line}\n`);
    await host.start();
    const client = await host.client();
    process.stdout.write(
      `${sheet.name}: ledger replay in a fresh sandbox venue (${sheet.date}, ${sheet.timeZone}; ${host.where}; sample data, no message sent)\n` +
        'Each row: worksheet / policy / app as confirmed/held/available [active waiting queue]\n',
    );
    const { rows, session } = await runLedger(client, sheet, 'ledger-main');
    const observedAt = host.now();
    process.stdout.write(`${formatRows(rows)}\n`);
    // The decisions as the venue stored them, not as the file says: the report shows what was recorded.
    const venue = await client.must<{ decisions?: WorksheetDecisions | null }>('GET', session.path(''));
    let failed = rows.some((r) => !r.passed);
    let results: BoundaryResult[] = [];
    if (values.boundaries) {
      results = await runBoundaries(host, sheet);
      process.stdout.write(`\n${formatBoundaries(results)}\n`);
      failed = failed || results.some((r) => r.outcome === 'failed');
    }
    process.stdout.write(`\n${formatClosing(sheet, venue.decisions ?? undefined, observedAt, openChecks(rows, results))}\n`);
    return failed ? 1 : 0;
  } finally {
    await host.dispose();
  }
}

/** The file as JSON, or one line saying which file could not be read or where its JSON breaks (no stack). */
function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`worksheet: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, {
      cause: err,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    // JSON.parse names a character position; an organizer finds a line and column in any editor.
    const at = /position (\d+)/.exec((err as Error).message)?.[1];
    const before = at === undefined ? undefined : text.slice(0, Number(at)).split('\n');
    const where = before ? ` (line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1})` : '';
    throw new Error(`worksheet: ${file} is not valid JSON${where}: ${(err as Error).message}`, { cause: err });
  }
}

/** To stderr, unless stderr itself is gone (`2>&1 | head`): a write there would only fail again. */
function say(text: string): void {
  if (!process.stderr.destroyed && process.stderr.writable) process.stderr.write(text);
}

main().then(
  (code) => {
    if (!interrupted) process.exit(code);
  },
  (err: unknown) => {
    if (interrupted) return;
    say(`${(err as Error)?.message ?? String(err)}\n`);
    process.exit(1);
  },
);
