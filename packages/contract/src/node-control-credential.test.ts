import { describe, expect, it } from 'vitest';
import {
  NODE_CONTROL_TTL_SECONDS,
  nodeControlKeyOf,
  nodeTokenHash,
  signNodeControl,
  verifyNodeControl,
} from './node-control-credential.js';

const key = nodeControlKeyOf(nodeTokenHash('scn_node-one'));
const otherNode = nodeControlKeyOf(nodeTokenHash('scn_node-two'));
const now = new Date('2026-01-01T00:00:00Z');
const refresh = { method: 'POST', path: '/refresh', body: '{"mode":"ALL"}' };

describe('node control credentials', () => {
  it('are valid for the call they sign, on the node whose token keys them, for a short while', () => {
    const token = signNodeControl(key, refresh, now);
    expect(token).toMatch(/^nc1\.\d+\.[\w-]+$/);
    expect(verifyNodeControl(key, refresh, token, now)).toBe(true);
    const later = new Date(now.getTime() + NODE_CONTROL_TTL_SECONDS * 1000);
    expect(verifyNodeControl(key, refresh, token, later)).toBe(false);
  });

  it('are refused on another node, for another call, altered, signed far ahead or missing', () => {
    const token = signNodeControl(key, refresh, now);
    expect(verifyNodeControl(otherNode, refresh, token, now)).toBe(false);
    expect(verifyNodeControl(key, { ...refresh, body: '{"mode":"EmergencyCleanup"}' }, token, now)).toBe(false);
    expect(verifyNodeControl(key, { method: 'GET', path: '/metadata' }, token, now)).toBe(false);
    expect(verifyNodeControl(key, refresh, `${token}x`, now)).toBe(false);
    const ahead = signNodeControl(key, refresh, new Date(now.getTime() + 3600_000));
    expect(verifyNodeControl(key, refresh, ahead, now)).toBe(false);
    expect(verifyNodeControl(key, refresh, null, now)).toBe(false);
    expect(verifyNodeControl(key, refresh, 'scn_node-one', now)).toBe(false);
  });

  it('hash node tokens as the control plane stores them (SHA-256, hex)', () => {
    expect(nodeTokenHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
