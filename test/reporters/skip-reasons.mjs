// Prints, after Jest's summary, each skipped test with the reason its suite gives (suites that need a
// real PostgreSQL server or Redis name the reason in their title). Jest's own summary only counts them.
export default class SkipReasonsReporter {
  onRunComplete(_contexts, results) {
    const skipped = [];
    for (const file of results.testResults) {
      for (const test of file.testResults) {
        if (test.status === 'pending' || test.status === 'skipped' || test.status === 'todo') {
          skipped.push(test.ancestorTitles.concat(test.title).join(' › '));
        }
      }
    }
    if (skipped.length === 0) return;
    const suites = new Map();
    for (const name of skipped) {
      const reason = /\[skipped: ([^\]]+)\]/.exec(name)?.[1] ?? 'skipped in its file';
      suites.set(reason, (suites.get(reason) ?? 0) + 1);
    }
    console.log(`\nSkipped tests (${skipped.length}), by reason:`);
    for (const [reason, count] of suites) console.log(`  ${count} × ${reason}`);
  }
}
