// A simulated skewed host, for tests only: loaded into a spawned process with
// NODE_OPTIONS="--import <this file>" and HB_TEST_CLOCK_SHIFT_MS, it moves everything that reads the
// wall clock through Date (Date.now(), new Date(), Date()) by that many ms, as a host whose clock runs
// ahead (positive) or behind (negative) would. PostgreSQL and Redis keep their own clocks.
// With HB_TEST_CLOCK_STEP_MS and HB_TEST_CLOCK_STEP_FILE too, the clock steps by that many ms at once
// when that file appears (looked for every 50 ms), as NTP steps a host's clock; monotonic time
// (performance.now()) does not move, as on a real host. (Not a signal: Nest's shutdown hooks stop the
// app on SIGUSR2 and the like.)
let shift = Number(process.env.HB_TEST_CLOCK_SHIFT_MS ?? 0);
const step = Number(process.env.HB_TEST_CLOCK_STEP_MS ?? 0);
const RealDate = globalThis.Date;
const shiftedNow = () => RealDate.now() + shift;

function ShiftedDate(...args) {
  if (!new.target) return new RealDate(shiftedNow()).toString();
  return Reflect.construct(RealDate, args.length === 0 ? [shiftedNow()] : args, new.target);
}
// The same prototype: a date made before or elsewhere (Node's internals) is still `instanceof Date`.
ShiftedDate.prototype = RealDate.prototype;
ShiftedDate.now = shiftedNow;
ShiftedDate.parse = RealDate.parse;
ShiftedDate.UTC = RealDate.UTC;
if (shift !== 0 || step !== 0) globalThis.Date = ShiftedDate;
const stepFile = process.env.HB_TEST_CLOCK_STEP_FILE;
if (step !== 0 && stepFile) {
  const { existsSync } = await import('node:fs');
  const poll = setInterval(() => {
    if (!existsSync(stepFile)) return;
    clearInterval(poll);
    shift += step;
    process.stdout.write(`${JSON.stringify({ level: 30, msg: `test clock stepped by ${step} ms` })}\n`);
  }, 50);
  poll.unref();
}
