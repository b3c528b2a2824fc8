/**
 * Whether a process with this pid runs on this machine (EPERM: it runs, as another user). For marks
 * a process leaves behind (a data folder's lock, a ledger run's database) to tell a live owner from a dead one.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
