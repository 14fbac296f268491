// Runs build/site/assets/xsc.wasm under node's WASI (make wasm):
//   node --single-threaded cli/wasm/loader.mjs ARGS...
// --single-threaded: with V8's background compiler threads, node v20 dies of SIGSEGV (si_code
// SI_KERNEL, right after making a code page writable) in about half the runs on this machine.
// The source tree is visible to the program as /top (so --data /top/data, /top/tests/...), and
// the working directory as /cwd. Calls into what the WebAssembly build leaves out (live calls,
// VMs, headers, the site: see the Makefile's WASM_LEAVE) were left as imports; each is
// answered here by an error that names it, instead of a program that cannot start.
import { WASI } from 'node:wasi';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const top = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const file = process.env.XSC_WASM || path.join(top, 'build/site/assets/xsc.wasm');
const wasi = new WASI({
	version: 'preview1',
	args: ['xsc', ...process.argv.slice(2)],
	env: { XSC_NO_CACHE: '1', NO_COLOR: '1', LC_ALL: 'C' },
	preopens: { '/top': top, '/cwd': process.cwd() },
	returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(file));
const absent = {};
for (const imp of WebAssembly.Module.imports(module))
	if (imp.module === 'env' && imp.kind === 'function')
		absent[imp.name] = () => { throw new Error(`xsc: ${imp.name} needs the native program`); };
const instance = await WebAssembly.instantiate(module, { ...wasi.getImportObject(), env: absent });
process.exitCode = wasi.start(instance);
