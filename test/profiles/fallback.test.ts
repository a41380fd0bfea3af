// On a Node that cannot require() TypeBox (an ES module) synchronously, a bad profile is still a
// ProfileError, instead of a crash.
import { describe, expect, it, vi } from 'vitest';
import { loadProfile, ProfileError } from '../../src/index.js';

vi.mock('../../src/profiles/typebox-verdict.js', () => ({ typeboxVerdict: () => undefined }));

describe('profile errors without TypeBox', () => {
  it('still refuses a profile that does not match the schema', () => {
    expect(() => loadProfile({ extends: 5, commands: { drawer: '1B 70 0' } })).toThrow(ProfileError);
    expect(() => loadProfile({ extends: 5, commands: { drawer: '1B 70 0' } })).toThrow(
      'invalid printer profile "MAKER5T20": it does not match the profile schema (run on Node 20.19+ or 22.12+ for the details)',
    );
    expect(loadProfile({ extends: 5, feedLines: 4 }).feedLines).toBe(4);
  });
});
