// acorn alone, for the sandbox worker (www/code/worker.js), which imports it only to find
// where code that V8 refused has its syntax error (scripts/bundle-code.mjs bundles it).
export { parse } from 'acorn';
