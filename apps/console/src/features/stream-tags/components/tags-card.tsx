import { messageOr } from '@streamcloud/api-client';
import { STREAM_TAGS_MAX, StreamTagAdd, streamTagRoutes } from '@streamcloud/contract';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { FormFailure } from '@/components/ui/form-failure';
import { TextField } from '@/components/ui/form-fields';
import { HeaderCard } from '@/components/ui/header-card';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { useRouteMutation } from '@/data/route-mutation';
import { useRouteQuery } from '@/data/route-query';
import { streamTagKeys } from '@/data/stream-tags/keys';
import { contractResolver, useSubmitForm } from '@/lib/forms';

export const TAG_TEXTS = {
  title: 'Tags',
  none: 'No tags yet.',
  label: 'Tag',
  help: `Up to ${STREAM_TAGS_MAX} a stream: 1 to 32 characters of a-z, 0-9 and -, e.g. studio-a.`,
  add: 'Add tag',
  remove: (tag: string) => `Remove tag ${tag}`,
  loadFailed: 'The tags could not be read',
  addFailed: 'The tag could not be added',
  removeFailed: (tag: string) => `The tag ${tag} could not be removed`,
};

/** The stream dashboard's Tags card: the stream's tags, each with its remove button, and the form adding one. */
export function TagsCard({ streamId }: { streamId: string }) {
  const key = streamTagKeys.stream(streamId);
  const tags = useRouteQuery(streamTagRoutes.list, key, { params: { id: streamId } });
  const add = useRouteMutation(streamTagRoutes.add, {
    toRequest: (body: StreamTagAdd) => ({ params: { id: streamId }, body }),
    sets: () => key,
  });
  const remove = useRouteMutation(streamTagRoutes.remove, {
    toRequest: (tag: string) => ({ params: { id: streamId, tag } }),
    invalidates: () => [key],
  });
  const notify = useNotify();
  const { form, field, onSubmit, failure } = useSubmitForm(
    { resolver: contractResolver(StreamTagAdd), defaultValues: { tag: '' } },
    {
      save: async (body) => {
        await add.mutateAsync(body);
        form.reset({ tag: '' });
      },
      failureOf: (error) => messageOr(error, TAG_TEXTS.addFailed),
    },
  );
  const removeTag = (tag: string) =>
    remove.mutate(tag, { onError: (error) => notify(messageOr(error, TAG_TEXTS.removeFailed(tag))) });

  return (
    <HeaderCard region title={TAG_TEXTS.title}>
      <Card.Body>
        {tags.isPending ? (
          <Loading />
        ) : tags.isError ? (
          <p className="text-danger">{messageOr(tags.error, TAG_TEXTS.loadFailed)}</p>
        ) : tags.data.tags.length === 0 ? (
          <p className="text-secondary">{TAG_TEXTS.none}</p>
        ) : (
          <ul className="list-unstyled d-flex flex-wrap gap-2" aria-label={TAG_TEXTS.title}>
            {tags.data.tags.map((tag) => (
              <li key={tag}>
                <Badge bg="secondary" className="d-inline-flex align-items-center gap-1 fs-6 fw-normal">
                  {tag}
                  <button
                    type="button"
                    className="btn-close btn-close-white btn-sm"
                    aria-label={TAG_TEXTS.remove(tag)}
                    disabled={remove.isPending && remove.variables === tag}
                    onClick={() => removeTag(tag)}
                  />
                </Badge>
              </li>
            ))}
          </ul>
        )}
        <form noValidate onSubmit={onSubmit} aria-label={TAG_TEXTS.add}>
          <FormFailure className="py-2">{failure}</FormFailure>
          <TextField
            id={`stream-tag-${streamId}`}
            label={TAG_TEXTS.label}
            autoComplete="off"
            help={TAG_TEXTS.help}
            // What is typed is taken in lower case, without the spaces around it; the contract's rule checks the rest.
            {...field('tag', { setValueAs: (value: string) => value.trim().toLowerCase() })}
          />
          <Button type="submit" variant="outline-primary" disabled={form.formState.isSubmitting}>
            {TAG_TEXTS.add}
          </Button>
        </form>
      </Card.Body>
    </HeaderCard>
  );
}
