// Runs in a child process (lock-process.test.ts), from the transpiled copy of src/: the real acquireLock, driven
// over IPC. Messages out: ready, acquired, failed {message}, released. Messages in: go, release.
import { acquireLock } from './src/state/lock.js';

const [statePath, timeoutMs] = process.argv.slice(2);
const send = (message) => new Promise((resolve) => process.send(message, resolve));

process.on('message', async (message) => {
  if (message === 'go') {
    try {
      const lock = await acquireLock(statePath, {
        timeoutMs: Number(timeoutMs),
        retryMs: 5,
        command: 'lock-child',
      });
      process.on('message', async (next) => {
        if (next !== 'release') return;
        await lock.release();
        await send({ type: 'released' });
        process.disconnect();
      });
      await send({ type: 'acquired', holder: lock.holder });
    } catch (error) {
      await send({ type: 'failed', message: error.message });
      process.disconnect();
    }
  }
});
await send({ type: 'ready' });
