// A simulated skewed host, for tests only: loaded into a spawned process with
// NODE_OPTIONS="--import <this file>" and HB_TEST_CLOCK_SHIFT_MS, it moves everything that reads the
// wall clock through Date (Date.now(), new Date(), Date()) by that many ms, as a host whose clock runs
// ahead (positive) or behind (negative) would. PostgreSQL and Redis keep their own clocks.
const shift = Number(process.env.HB_TEST_CLOCK_SHIFT_MS ?? 0);
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
if (shift !== 0) globalThis.Date = ShiftedDate;
