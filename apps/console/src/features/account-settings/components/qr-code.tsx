import qrcode from 'qrcode-generator';
import { useMemo } from 'react';

/** Modules of blank border around the code (the QR specification's quiet zone). */
const QUIET_ZONE = 4;

/**
 * A QR code of `text` drawn as one SVG path (a square per dark module), so it scales crisply and needs
 * neither a canvas nor markup injected as HTML. Error correction M: what authenticator apps read well.
 */
export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const { path, extent } = useMemo(() => {
    const code = qrcode(0, 'M');
    code.addData(text);
    code.make();
    const count = code.getModuleCount();
    let d = '';
    for (let row = 0; row < count; row += 1) {
      for (let column = 0; column < count; column += 1) {
        if (code.isDark(row, column)) d += `M${column + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
      }
    }
    return { path: d, extent: count + 2 * QUIET_ZONE };
  }, [text]);
  return (
    <svg
      role="img"
      aria-label={label}
      width={size}
      height={size}
      viewBox={`0 0 ${extent} ${extent}`}
      shapeRendering="crispEdges"
    >
      <rect width={extent} height={extent} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
