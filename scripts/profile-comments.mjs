// An esbuild plugin for the JSON data every compile loads (the built-in profiles, src/profiles/
// builtin/*.json, and the profile schema, src/profiles/schema.json): each module becomes
// `export default JSON.parse('…')` of its minified text, which V8 parses several times faster at start-up than the same data as an object
// literal (a JSON scanner, no JavaScript parse); and the top-level "$comment" of the built-in
// profiles is left out, a note for whoever reads the file, which loading a profile drops anyway
// (src/profiles/index.ts, merge), and 0.3 KB of a browser bundle's gzip. Every import of these
// files is a default import (`import x from './x.json' with { type: 'json' }`). The profiles' sources
// and self-test pages stay object literals: a bundler can leave out an unused literal, not a call
// (the build's whitespace minifier drops `@__PURE__` notes), and a bundle of `compile` uses neither.
const PROFILE_DATA = /[\\/]src[\\/]profiles[\\/](schema|builtin[\\/][^\\/]+)\.json$/;
const BUILTIN = /[\\/]src[\\/]profiles[\\/]builtin[\\/][^\\/]+\.json$/;

export function profileComments() {
  return {
    name: 'profile-comments',
    setup(build) {
      build.onLoad({ filter: PROFILE_DATA }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        const parsed = JSON.parse(await readFile(args.path, 'utf8'));
        const data = BUILTIN.test(args.path) ? (({ $comment: _note, ...rest }) => rest)(parsed) : parsed;
        // The text as a single-quoted JavaScript string: JSON.stringify makes it a valid string literal.
        return { contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(data))});`, loader: 'js' };
      });
    },
  };
}
