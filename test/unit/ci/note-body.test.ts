import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildNoteBody, buildSummaryMarkdown } from '../../../src/ci/note-body.js';
import { PR_COMMENT_MARKER, prCommentMarker } from '../../../src/report/plan/markdown.js';
import { runs } from '../../helpers/fc-runs.js';

const body = (markdown: string, target: string | undefined, code = 4) =>
  buildNoteBody({ markdown, code, target, log: undefined });

describe('the comment or note body', () => {
  it("a plan that printed nothing: wfsync's own target marker finds the earlier one", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (target) => {
        const built = body('', target);
        expect(built.marker).toBe(prCommentMarker(target));
        expect(built.body.startsWith(`${PR_COMMENT_MARKER}\n${prCommentMarker(target)}\n`)).toBe(true);
      }),
      { numRuns: runs(300) },
    );
    expect(body('', undefined).marker).toBe(PR_COMMENT_MARKER);
    expect(body('', undefined, 4).body).toContain("exited 4 without printing a plan: see this job's log.");
  });

  it('the printed plan: its own target marker, whatever target the relay was told; the rest neutralised', () => {
    const printed = `${PR_COMMENT_MARKER}\n${prCommentMarker('a b-->')}\n## plan\n@everyone ${PR_COMMENT_MARKER}\n`;
    const built = body(printed, 'other');
    expect(built.marker).toBe(prCommentMarker('a b-->'));
    expect(built.body.split(PR_COMMENT_MARKER)).toHaveLength(2);
    expect(built.body).toContain('@\u200beveryone');
    expect(buildSummaryMarkdown(printed)).toBe(built.body);
  });
});
