import { errorResponse, jsonResponse, type RecordedRequest } from '@streamcloud/api-client/testing';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderPiece } from '@/test/render-piece';
import { qualityRule, uuid } from '@/test/stream-fixtures';
import { QualityRulePanel } from './quality-rule-panel';

const STREAM = uuid(7);
const RULE_PATH = `/api/v1/inputs/${STREAM}/quality-rule`;

describe('Quality alert', () => {
  it('shows the rule and that it is Degraded now, with the last check', async () => {
    renderPiece(<QualityRulePanel streamId={STREAM} />, {
      [`GET ${RULE_PATH}`]: () =>
        jsonResponse(
          qualityRule(STREAM, {
            enabled: true,
            state: 'Degraded',
            since: '2026-11-29T08:00:00.000Z',
            checkedAt: '2026-11-29T08:00:30.000Z',
            value: 10,
            viewers: 7,
          }),
        ),
    });
    expect((await screen.findByText(/^Degraded/)).textContent).toMatch(/^Degraded since /);
    expect(
      screen.getByText(/^quality\.degraded when Rebuffer ratio is above 2 % over the last 5 minutes/).textContent,
    ).toBe(
      'quality.degraded when Rebuffer ratio is above 2 % over the last 5 minutes (with at least 5 viewers), ' +
        'quality.recovered when it no longer is. Last check: 10 % over 7 viewers.',
    );
  });

  it('saves the edited rule and shows it; a refusal is shown under its field', async () => {
    const sent: unknown[] = [];
    const { user } = renderPiece(<QualityRulePanel streamId={STREAM} />, {
      [`GET ${RULE_PATH}`]: () => jsonResponse(qualityRule(STREAM)),
      [`PUT ${RULE_PATH}`]: async (request: RecordedRequest) => {
        const body = request.body as { windowMinutes: number };
        sent.push(body);
        if (body.windowMinutes === 30) {
          return errorResponse(400, 'Validation failed', {
            errors: [{ path: 'body.windowMinutes', message: 'windowMinutes is refused by the server' }],
          });
        }
        return jsonResponse(qualityRule(STREAM, body as object));
      },
    });
    expect(await screen.findByText('Off: no quality.degraded or quality.recovered webhook is sent.')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Edit alert' }));
    const form = screen.getByRole('form', { name: 'Quality alert rule' });
    await user.click(within(form).getByRole('checkbox', { name: 'Send quality alerts' }));
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Metric' }), 'Time to first frame (p95)');
    const threshold = within(form).getByRole('textbox', { name: 'Threshold' });

    // The contract's own rule, before anything is sent.
    await user.clear(threshold);
    await user.type(threshold, '700000');
    await user.click(within(form).getByRole('button', { name: 'Save alert' }));
    expect(
      await within(form).findByText('threshold must be at most 600000 for ttffP95Ms (milliseconds)'),
    ).toBeDefined();
    expect(threshold.getAttribute('aria-invalid')).toBe('true');
    expect(sent).toEqual([]);

    // The server's refusal, under the field it names.
    await user.clear(threshold);
    await user.type(threshold, '2000');
    const window = within(form).getByRole('textbox', { name: 'Window (minutes)' });
    await user.clear(window);
    await user.type(window, '30');
    await user.click(within(form).getByRole('button', { name: 'Save alert' }));
    expect(await within(form).findByText('windowMinutes is refused by the server')).toBeDefined();
    expect(screen.getByRole('alert').textContent).toBe('Validation failed');

    await user.clear(window);
    await user.type(window, '10');
    await user.click(within(form).getByRole('button', { name: 'Save alert' }));
    expect(
      await screen.findByText(
        /^quality\.degraded when Time to first frame \(p95\) is above 2\.0 s over the last 10 minutes/,
      ),
    ).toBeDefined();
    expect(screen.queryByRole('form', { name: 'Quality alert rule' })).toBeNull();
    expect(sent.at(-1)).toEqual({ enabled: true, metric: 'ttffP95Ms', threshold: 2000, windowMinutes: 10 });
  });

  it("says why the rule could not be loaded (role alert), in the server's words", async () => {
    renderPiece(<QualityRulePanel streamId={STREAM} />, {
      [`GET ${RULE_PATH}`]: () => errorResponse(404, 'Stream not found'),
    });
    expect((await screen.findByRole('alert')).textContent).toBe('Stream not found');
  });
});
