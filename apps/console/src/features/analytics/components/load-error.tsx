import { messageOr } from '@streamcloud/api-client';

/** A read that failed, said in the page (`role="alert"`), with the server's message when it gave one. */
export function LoadError({ error, fallback }: { error: unknown; fallback: string }) {
  return (
    <p role="alert" className="text-danger">
      {messageOr(error, fallback)}
    </p>
  );
}
