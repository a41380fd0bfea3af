module.exports = { createCanvas() { throw new Error('canvas is not installed (bench stub)'); } };
