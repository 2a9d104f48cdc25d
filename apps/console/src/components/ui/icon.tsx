/**
 * An inline SVG icon of Bootstrap Icons. The place that shows an icon imports its file raw
 * (`import broadcastIcon from 'bootstrap-icons/icons/broadcast.svg?raw'`), so every chunk carries exactly
 * the icons it draws and no icon font is downloaded. The icon is decorative (hidden from assistive
 * technology: the text or the label of its control says what it means) unless it has a `label`, which
 * makes it an image with that name.
 */
export function Icon({ svg, label, className }: { svg: string; label?: string; className?: string }) {
  const accessibility = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox="0 0 16 16"
      width="1em"
      height="1em"
      fill="currentColor"
      focusable="false"
      className={className ? `bi ${className}` : 'bi'}
      {...accessibility}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the shapes of an icon file of the bootstrap-icons package, fixed at build time; never data
      dangerouslySetInnerHTML={{ __html: iconShapes(svg) }}
    />
  );
}

/** What is inside the file's outer <svg> element. */
function iconShapes(svg: string): string {
  return svg.slice(svg.indexOf('>') + 1, svg.lastIndexOf('</svg>')).trim();
}
