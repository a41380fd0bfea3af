// Types of scripts/offline-install.mjs.
export declare function writeProject(root: string, dir: string): void;
export declare function packAndInstall(root: string, work: string): { tarball: string; files: string[]; app: string; log: string };
export interface InstalledPackage {
  name: string;
  path: string;
  pkg: { version: string; engines?: { node?: string }; scripts?: Record<string, string> };
}
export declare function installedPackages(dir: string): InstalledPackage[];
export declare function bytesUnder(path: string): number;
