// Runs in a child process (lock-process.test.ts): records workflows one after another with the real StateStore
// until it is killed, reporting each index once its promise resolved (i.e. once it is durable).
import { StateStore } from './src/state/store.js';

const [statePath] = process.argv.slice(2);
const store = await StateStore.open(statePath, { target: 'prod', baseUrl: 'https://api.example.com' });
for (let i = 0; ; i++) {
  await store.recordWorkflow(`w-${String(i).padStart(6, '0')}`, {
    id: i.toString(16).padStart(24, '0'),
    hash: `sha256:${i.toString(16).padStart(64, '0')}`,
    origin: 'created',
    recordedAt: new Date().toISOString(),
  });
  process.send(i);
}
