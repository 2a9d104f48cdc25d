// The density bench's pushes in a process of their own (forked with IPC): at 200 pushes the publisher's timer and
// sockets took ~60 % of a core, and sharing the bench's process delayed both its publishes' handshakes and the
// bench's own polls of the API, so a late admission could be the bench's. Asked `{ uris, spreadMs }`, it starts a
// push to each URI within `spreadMs` and answers each one's `{ index, startedAt }` (when nginx said
// NetStream.Publish.Start, on this machine's clock) or `{ index, error }`; it stops its pushes and exits when the
// bench lets go of it.
import { createScheduler, publish, readFlvTags } from './rtmp-publisher.mjs';

const flv = readFlvTags(process.argv[2]);
const scheduler = createScheduler();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

process.on('message', ({ uris, spreadMs }) => {
  uris.forEach(async (uri, index) => {
    await sleep(Math.random() * spreadMs);
    try {
      const push = await publish(uri, flv, scheduler);
      process.send({ index, startedAt: push.startedAt });
    } catch (error) {
      process.send({ index, error: String(error) });
    }
  });
});

process.on('disconnect', () => {
  scheduler.close();
  process.exit(0);
});
