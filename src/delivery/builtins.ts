// Node built-ins, taken on first use: importing bobina must not load them. A static ESM import of
// node:fs alone costs ~20 M instructions at start-up (its namespace reads fs.promises, which loads
// the promise API); node:net, node:http and node:crypto cost a few milliseconds each.
export const fs = () => process.getBuiltinModule('node:fs');
export const path = () => process.getBuiltinModule('node:path');
export const net = () => process.getBuiltinModule('node:net');
export const http = () => process.getBuiltinModule('node:http');
export const crypto = () => process.getBuiltinModule('node:crypto');
