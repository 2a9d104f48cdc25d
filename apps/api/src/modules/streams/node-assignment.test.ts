import { describe, expect, it } from 'vitest';
import { type CandidateNode, chooseNode, distanceKm } from './node-assignment.js';

const node = (
  id: string,
  regionCode: string | null,
  geo: CandidateNode['geo'] = null,
  streamCount = 0,
): CandidateNode => ({
  id,
  regionCode,
  geo,
  streamCount,
});
const london = { latitude: 51.5, longitude: -0.12 };
const frankfurt = { latitude: 50.1, longitude: 8.68 };
const newYork = { latitude: 40.7, longitude: -74 };

describe('chooseNode', () => {
  it('answers null without candidates', () => {
    expect(chooseNode([], { geo: london, region: 'EU' })).toBeNull();
  });

  it('takes the nearest node when both places are known', () => {
    const chosen = chooseNode([node('ny', 'NA', newYork), node('fra', 'EU', frankfurt)], { geo: london, region: 'EU' });
    expect(chosen?.id).toBe('fra');
    expect(
      chooseNode([node('ny', 'NA', newYork), node('fra', 'EU', frankfurt)], { geo: newYork, region: 'NA' })?.id,
    ).toBe('ny');
  });

  it("prefers the streamer's region when node places are unknown", () => {
    expect(chooseNode([node('eu', 'EU'), node('as', 'AS')], { geo: null, region: 'AS' })?.id).toBe('as');
  });

  it('falls back to the region order EU, NA, SA, AS, AF, AN, OC, then others', () => {
    const nodes = [node('x', 'XX'), node('oc', 'OC'), node('sa', 'SA'), node('na', 'NA')];
    expect(chooseNode(nodes, { geo: null, region: null })?.id).toBe('na');
    expect(chooseNode([node('x', null), node('oc', 'oc')], { geo: null, region: null })?.id).toBe('oc');
  });

  it('breaks ties by the number of inputs', () => {
    expect(
      chooseNode([node('busy', 'EU', null, 5), node('calm', 'EU', null, 1)], { geo: null, region: null })?.id,
    ).toBe('calm');
  });

  it('measures great-circle distances', () => {
    expect(distanceKm(london, newYork)).toBeCloseTo(5570, -2);
  });
});
