// Runs build/wasm/xsc.wasm under node, through the browser's own WASI shim
// (cli/wasm/wasi.js), as tests/sh/wasm-same.sh does:
//   node cli/wasm/loader.mjs ARGS...
// The program sees the source tree's data/ as /top/data (so --data /top/data), the lessons
// beside it (/top/docs/lessons, where xsc looks for them from its data) and a copy of
// the working directory as its own: relative paths name the same files, and messages the same
// names, as the native program's. Both live in memory: what the program writes stays there.
// Node's own WASI is not used: on node v20 a run whose module's memory grew died of SIGSEGV or
// a V8 fatal error in the collector (tests/cli/0068 and 0122 did, most runs).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const require = createRequire(import.meta.url);
const XscWasi = require('./wasi.js');
const top = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const file = process.env.XSC_WASM || path.join(top, 'build/wasm/xsc.wasm');

// the regular files below dir, at most depth levels down, as name -> bytes under prefix
function tree(dir, prefix, depth, into) {
	for (const e of readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.isDirectory() && depth > 0) tree(p, `${prefix}/${e.name}`, depth - 1, into);
		else if (e.isFile() && statSync(p).size <= 4 << 20) into[`${prefix}/${e.name}`] = readFileSync(p);
	}
	return into;
}

const files = tree(process.cwd(), 'cwd', 1, {});
tree(path.join(top, 'data'), 'top/data', 4, files);
tree(path.join(top, 'docs/lessons'), 'top/docs/lessons', 1, files);
const wasi = new XscWasi({
	args: ['xsc', ...process.argv.slice(2)],
	env: { XSC_NO_CACHE: '1', NO_COLOR: '1', LC_ALL: 'C' },
	files,
	preopens: { '/top': 'top', '.': 'cwd' },
	stdout: (b) => process.stdout.write(b),
	stderr: (b) => process.stderr.write(b),
});
const module = new WebAssembly.Module(readFileSync(file));
wasi.bind(new WebAssembly.Instance(module, wasi.importObject(module)));
process.exitCode = wasi.main();
