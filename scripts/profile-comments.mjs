// An esbuild plugin that leaves the top-level "$comment" of the built-in profiles
// (src/profiles/builtin/*.json) out of the build: a note for whoever reads the file, which loading
// a profile drops anyway (src/profiles/index.ts, merge), and 0.3 KB of a browser bundle's gzip.
const BUILTIN = /[\\/]src[\\/]profiles[\\/]builtin[\\/][^\\/]+\.json$/;

export function profileComments() {
  return {
    name: 'profile-comments',
    setup(build) {
      build.onLoad({ filter: BUILTIN }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        const { $comment: _note, ...data } = JSON.parse(await readFile(args.path, 'utf8'));
        return { contents: JSON.stringify(data), loader: 'json' };
      });
    },
  };
}
