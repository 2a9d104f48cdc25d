const time = (seconds: number) => `00:00:${seconds.toFixed(3).padStart(6, '0')}`;

/**
 * A storyboard's WebVTT as a node or the API serves it: one 160 × 90 tile per cue on sheet 0, row by row, the first
 * from 0 and each until the next of `ends` (seconds); each sheet URI with `query` (a session's or a link's token).
 */
export function storyboardVtt(ends: number[], o: { query: string; programDate?: string }): string {
  const lines = ['WEBVTT', ...(o.programDate ? [`X-PROGRAM-DATE-TIME=${o.programDate}`] : []), ''];
  ends.forEach((end, slot) => {
    lines.push(
      `${time(ends[slot - 1] ?? 0)} --> ${time(end)}`,
      `storyboard-0.jpg?${o.query}#xywh=${slot * 160},0,160,90`,
      '',
    );
  });
  return lines.join('\n');
}
