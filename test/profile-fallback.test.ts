// On a Node that cannot require() TypeBox (an ES module) synchronously, a bad profile is still a
// ProfileError, naming the first bad value, instead of a crash.
import { describe, expect, it, vi } from 'vitest';
import { loadProfile, ProfileError } from '../src/index.js';

vi.mock('../src/profiles/typebox-verdict.js', () => ({ typeboxVerdict: () => undefined }));

describe('profile errors without TypeBox', () => {
  it('names the first value that does not match the schema', () => {
    expect(() => loadProfile({ extends: 5, commands: { drawer: '1B 70 0' } })).toThrow(ProfileError);
    expect(() => loadProfile({ extends: 5, commands: { drawer: '1B 70 0' } })).toThrow(
      'invalid printer profile "MAKER5T20": /commands/drawer does not match the profile schema',
    );
    expect(loadProfile({ extends: 5, feedLines: 4 }).feedLines).toBe(4);
  });
});
