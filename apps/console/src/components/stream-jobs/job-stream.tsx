/** What the info view reads of the job's stream query. */
export interface JobStreamQuery {
  data: { id: string; caption: string | null; name: string } | undefined;
  isPending: boolean;
}

/**
 * The job's stream: its caption (or id) over its name; its id alone when it could not be loaded, and while
 * it loads `loadingText` if given, else the id too.
 */
export function JobStream({
  streamId,
  stream,
  loadingText,
}: {
  streamId: string;
  stream: JobStreamQuery;
  loadingText?: string;
}) {
  if (stream.data) {
    return (
      <>
        {stream.data.caption ?? <code>{stream.data.id}</code>}
        <div className="small text-secondary font-monospace">{stream.data.name}</div>
      </>
    );
  }
  if (loadingText !== undefined && stream.isPending) return loadingText;
  return <code>{streamId}</code>;
}
