import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import { RTCPeerConnection, MediaStreamTrack } from 'werift';
const server = createServer(async (req, res) => {
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('access-control-allow-headers', '*');
  if (req.method === 'OPTIONS') return res.end();
  if (req.url === '/') { res.setHeader('content-type', 'text/html'); return res.end('<html></html>'); }
  if (req.method !== 'POST') return res.end();
  let body = ''; for await (const c of req) body += c;
  const t0 = performance.now();
  const pc = new RTCPeerConnection({ iceServers: [], iceUseIpv6: false, iceAdditionalHostAddresses: ['127.0.0.1'] });
  const track = new MediaStreamTrack({ kind: 'video' });
  pc.addTransceiver(track, { direction: 'sendonly' });
  pc.iceConnectionStateChange.subscribe((s) => console.log('node ice', s, Math.round(performance.now() - t0)));
  pc.connectionStateChange.subscribe((s) => console.log('node conn', s, Math.round(performance.now() - t0)));
  await pc.setRemoteDescription({ type: 'offer', sdp: body });
  if (process.env.PASSIVE) for (const t of pc.getTransceivers()) t.dtlsTransport.role = 'server';
  await pc.setLocalDescription(await pc.createAnswer());
  console.log('node answered', Math.round(performance.now() - t0));
  res.end(pc.localDescription.sdp);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const page = await browser.newPage();
await page.goto(url);
for (let i = 0; i < 5; i++) {
  const r = await page.evaluate(async (url) => {
    const pc = new RTCPeerConnection();
    pc.addTransceiver('video', { direction: 'recvonly' });
    const t = {}; const t0 = performance.now();
    pc.oniceconnectionstatechange = () => { t['ice ' + pc.iceConnectionState] = Math.round(performance.now() - t0); };
    const done = new Promise((r) => { pc.onconnectionstatechange = () => { t['conn ' + pc.connectionState] = Math.round(performance.now() - t0); if (pc.connectionState === 'connected') r(); }; });
    await pc.setLocalDescription(await pc.createOffer());
    const answer = await (await fetch(url + '/whep', { method: 'POST', body: pc.localDescription.sdp })).text();
    t.answer = Math.round(performance.now() - t0);
    await pc.setRemoteDescription({ type: 'answer', sdp: answer });
    await done; pc.close();
    return t;
  }, url);
  console.log('browser', JSON.stringify(r));
}
await browser.close(); server.close(); process.exit(0);
