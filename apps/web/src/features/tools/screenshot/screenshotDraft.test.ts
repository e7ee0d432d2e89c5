import { SCREENSHOT_MESSAGES } from '@parley/shared';
import { describe, expect, it } from 'vitest';
import { canAddMessage, draftProblems, fileIdOf, initialDraft, screenshotSearch, withMessage, type ScreenshotDraft } from './screenshotDraft';

describe('the screenshot draft', () => {
  it('starts with two messages that need nothing more, and adds up to 5, each on the other side', () => {
    let draft = initialDraft();
    expect(draftProblems(draft)).toBeNull();
    for (let i = 0; i < 4; i += 1) draft = withMessage(draft);
    expect(draft.messages.map((m) => m.outgoing)).toEqual([false, true, false, true, false]);
    expect(new Set(draft.messages.map((m) => m.key)).size).toBe(5);
    expect(canAddMessage(draft)).toBe(false);
    expect(withMessage(draft)).toBe(draft);
  });

  it('writes one messages, outgoing and pictures value per message, in order', () => {
    const draft: ScreenshotDraft = {
      name: 'Ada',
      time: '9:41',
      messages: [
        { key: 1, outgoing: false, text: 'Hi & bye', picture: null },
        { key: 2, outgoing: true, text: '', picture: { id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', name: 'a.png' } },
      ],
    };
    const params = new URLSearchParams(screenshotSearch(draft, 2));
    expect(params.getAll('messages')).toEqual(['Hi & bye', '']);
    expect(params.getAll('outgoing')).toEqual(['false', 'true']);
    expect(params.getAll('pictures')).toEqual(['', '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b']);
    expect([params.get('name'), params.get('time'), params.get('scale')]).toEqual(['Ada', '9:41', '2']);
    expect(draftProblems(draft)).toBeNull();
  });

  it("names each problem with the server's own messages", () => {
    const draft: ScreenshotDraft = { ...initialDraft(), name: ' ', time: '9.41' };
    const second = draft.messages[1];
    if (second) draft.messages[1] = { ...second, text: '   ' };
    expect(draftProblems(draft)).toEqual({ name: 'Required', time: SCREENSHOT_MESSAGES.time, messages: { 1: SCREENSHOT_MESSAGES.empty } });
  });

  it('reads the file id of an upload link', () => {
    expect(fileIdOf('https://parley.example/v1/accounts/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/media/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c')).toBe(
      '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c',
    );
    expect(fileIdOf('https://elsewhere.example/picture.png')).toBeNull();
  });
});
