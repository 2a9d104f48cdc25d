import { WEBRTC_PLAYBACK_FAILED } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { webrtcPlaybackProblem } from './webrtc-problem';

const at = '2026-11-28T14:00:00.000Z';
const failed = { at, level: 'error' as const, text: `${WEBRTC_PLAYBACK_FAILED}: encoding for WebRTC failed` };
const started = { at, level: 'info' as const, text: 'Push started over RTMP from 127.0.0.1' };

describe('webrtcPlaybackProblem', () => {
  it("answers the node's reason of the current push, not of an earlier one", () => {
    expect(webrtcPlaybackProblem([failed, started])).toBe(failed.text);
    expect(webrtcPlaybackProblem([started, failed])).toBeNull();
    expect(webrtcPlaybackProblem([])).toBeNull();
  });
});
