// Types of scripts/notices.mjs, for the test that checks THIRD-PARTY-NOTICES.md.
export declare function bundledPackages(metafile: { outputs: Record<string, { inputs?: Record<string, { bytesInOutput: number }> }> }): string[];
export declare function notices(): string;
