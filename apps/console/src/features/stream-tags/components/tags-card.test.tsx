import { emptyResponse, errorResponse, jsonResponse } from '@streamcloud/api-client/testing';
import { STREAM_TAG_MESSAGES, STREAM_TAG_RULE } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPiece } from '@/test/render-piece';
import { TAG_TEXTS, TagsCard } from './tags-card';

const STREAM_ID = '00000000-0000-4000-8000-000000000061';
const TAGS = `/api/v1/inputs/${STREAM_ID}/tags`;

function renderCard(tags: string[], handlers = {}) {
  return renderPiece(<TagsCard streamId={STREAM_ID} />, {
    [`GET ${TAGS}`]: () => jsonResponse({ streamId: STREAM_ID, tags }),
    ...handlers,
  });
}

describe('the Tags card', () => {
  it("lists the stream's tags and adds one, taken in lower case", async () => {
    const { user, mock } = renderCard(['sports'], {
      [`POST ${TAGS}`]: () => jsonResponse({ streamId: STREAM_ID, tags: ['sports', 'studio-a'] }, 201),
    });
    const card = await screen.findByRole('region', { name: TAG_TEXTS.title });
    expect(await within(card).findByRole('button', { name: TAG_TEXTS.remove('sports') })).toBeTruthy();
    await user.type(within(card).getByLabelText(TAG_TEXTS.label), ' Studio-A ');
    await user.click(within(card).getByRole('button', { name: TAG_TEXTS.add }));
    expect(await within(card).findByRole('button', { name: TAG_TEXTS.remove('studio-a') })).toBeTruthy();
    expect(mock.requests.find((request) => request.method === 'POST')?.body).toEqual({ tag: 'studio-a' });
    expect(within(card).getByLabelText(TAG_TEXTS.label)).toHaveProperty('value', '');
  });

  it('says what is wrong with a tag before sending it, and shows a refusal', async () => {
    const { user, mock } = renderCard([], {
      [`POST ${TAGS}`]: () => errorResponse(409, STREAM_TAG_MESSAGES.duplicate),
    });
    const card = await screen.findByRole('region', { name: TAG_TEXTS.title });
    expect(await within(card).findByText(TAG_TEXTS.none)).toBeTruthy();
    await user.type(within(card).getByLabelText(TAG_TEXTS.label), 'studio a');
    await user.click(within(card).getByRole('button', { name: TAG_TEXTS.add }));
    expect(await within(card).findByText(STREAM_TAG_RULE)).toBeTruthy();
    expect(mock.requests.some((request) => request.method === 'POST')).toBe(false);

    await user.clear(within(card).getByLabelText(TAG_TEXTS.label));
    await user.type(within(card).getByLabelText(TAG_TEXTS.label), 'live');
    await user.click(within(card).getByRole('button', { name: TAG_TEXTS.add }));
    expect((await within(card).findByRole('alert')).textContent).toBe(STREAM_TAG_MESSAGES.duplicate);
  });

  it('removes a tag with its own button', async () => {
    let tags = ['news', 'sports'];
    const { user, mock } = renderPiece(<TagsCard streamId={STREAM_ID} />, {
      [`GET ${TAGS}`]: () => jsonResponse({ streamId: STREAM_ID, tags }),
      [`DELETE ${TAGS}/news`]: () => {
        tags = ['sports'];
        return emptyResponse();
      },
    });
    const card = await screen.findByRole('region', { name: TAG_TEXTS.title });
    await user.click(await within(card).findByRole('button', { name: TAG_TEXTS.remove('news') }));
    await waitFor(() => expect(within(card).queryByRole('button', { name: TAG_TEXTS.remove('news') })).toBeNull());
    expect(within(card).getByRole('button', { name: TAG_TEXTS.remove('sports') })).toBeTruthy();
    expect(mock.requests.filter((request) => request.method === 'DELETE')).toHaveLength(1);
  });
});
