// With TEST_CPU_PROFILE=<folder>, Jest workers record a CPU profile of each test file, from its
// environment's start (before the file's modules load) to its teardown, and write it there named
// after the file (`node --cpu-prof` is refused in NODE_OPTIONS, and Jest starts its workers itself).
// Open a .cpuprofile in Chrome's DevTools, or sum a folder of them with a script.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { basename, join } from 'node:path';

let session;

const post = (method, params) =>
  new Promise((resolve, reject) => session.post(method, params, (err, result) => (err ? reject(err) : resolve(result))));

export async function startCpuProfile() {
  if (!process.env['TEST_CPU_PROFILE']) return;
  if (!session) {
    session = new Session();
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 2000 });
  }
  await post('Profiler.start');
}

export async function stopCpuProfile(testPath) {
  const dir = process.env['TEST_CPU_PROFILE'];
  if (!dir || !session) return;
  const { profile } = await post('Profiler.stop');
  writeFileSync(join(dir, `${basename(testPath)}.cpuprofile`), JSON.stringify(profile));
}
