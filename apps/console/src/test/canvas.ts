import { vi } from 'vitest';

/** happy-dom has no 2D canvas: charts draw on a context that accepts everything. */
function fakeContext(): CanvasRenderingContext2D {
  const noop = () => undefined;
  return new Proxy({} as Record<string | symbol, unknown>, {
    get: (target, key) => (key in target ? target[key] : key === 'measureText' ? () => ({ width: 0 }) : noop),
    set: (target, key, value) => {
      target[key] = value;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
}

/** Nor Path2D: a path that records nothing. */
class FakePath2D {
  moveTo() {}
  lineTo() {}
  rect() {}
  arc() {}
  closePath() {}
  bezierCurveTo() {}
  addPath() {}
}

/** Gives every test a canvas to draw on; restored by `restoreMocks` and `unstubAllGlobals`. */
export function installFakeCanvas(): void {
  vi.stubGlobal('Path2D', FakePath2D);
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(
    fakeContext as unknown as typeof HTMLCanvasElement.prototype.getContext,
  );
}
