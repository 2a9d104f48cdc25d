/**
 * The node list reads the nodes again this often while it is shown (the spec is silent; the stream dashboard's pace):
 * a node that stops reporting shows Offline, and Reporting again, within one read (docs/decisions.md).
 */
export const NODES_POLL_MS = 5_000;
