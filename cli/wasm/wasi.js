/* WASI preview1 for xsc.wasm in JavaScript: the browser's console and node's runs of the
 * same module (cli/wasm/loader.mjs) go through this one shim. It holds an in-memory file
 * system (what the catalogue and the scripts need: files and directories, read and written;
 * no links, no times), args, environ, a clock and stdout/stderr as callbacks. A classic script
 * (file:// loads no modules): it defines XscWasi in the page, and module.exports under node.
 * Numbers are WASI's (wasi_snapshot_preview1's witx): errno, filetype, oflags, whence. */
(function (global) {
  "use strict";
  var E = { SUCCESS: 0, ACCES: 2, BADF: 8, EXIST: 20, INVAL: 28, ISDIR: 31, NOENT: 44, NOSYS: 52,
            NOTDIR: 54, NOTEMPTY: 55, SPIPE: 70 };
  var FT = { CHAR: 2, DIR: 3, FILE: 4 };
  var O = { CREAT: 1, DIRECTORY: 2, EXCL: 4, TRUNC: 8 };
  var APPEND = 1;
  var ALL_RIGHTS = 0x1fffffffn;

  function Exit(code) { this.code = code; }

  /* inode numbers in the order nodes are made: the same files given in the same order have the
   * same numbers, in every run (the catalogue's cache key holds them: bundle.mjs) */
  var nextId = 1;
  function dir() { return { kind: FT.DIR, entries: new Map(), id: nextId++ }; }
  function file(bytes) { return { kind: FT.FILE, data: bytes || new Uint8Array(0), id: nextId++ }; }

  /* files: { "top/data/x.json": Uint8Array or string, ... } below the root */
  function Fs(files) {
    nextId = 1;
    this.root = dir();
    var enc = new TextEncoder();
    for (var name in files) {
      var parts = name.split("/").filter(Boolean), d = this.root;
      for (var i = 0; i < parts.length - 1; i++) {
        if (!d.entries.has(parts[i])) d.entries.set(parts[i], dir());
        d = d.entries.get(parts[i]);
      }
      var v = files[name];
      d.entries.set(parts[parts.length - 1], file(typeof v === "string" ? enc.encode(v) : v));
    }
  }
  /* the node at path below d: { node, parent, name } (node null when only the parent is) */
  /* The node a path names (null if its last component is missing), or, when a directory on
   * the way is not one, the errno Linux's path walk gives (fs/namei.c link_path_walk): ENOENT
   * for a component that is missing, ENOTDIR for one that is not a directory. */
  Fs.prototype.walk = function (d, path) {
    var parts = path.split("/").filter(function (p) { return p && p !== "."; });
    var stack = [d], parent = null, name = "";
    for (var i = 0; i < parts.length; i++) {
      var cur = stack[stack.length - 1];
      if (!cur) return E.NOENT;
      if (cur.kind !== FT.DIR) return E.NOTDIR;
      if (parts[i] === "..") { if (stack.length > 1) stack.pop(); continue; }
      parent = cur; name = parts[i];
      stack.push(cur.entries.get(parts[i]) || null);
    }
    return { node: stack[stack.length - 1], parent: parent, name: name };
  };

  /* opts: args, env ({K: V}), files (as Fs), preopens ({"/top": "top", ".": "cwd"}: a
   * preopened name and the directory below the root it is), stdout(bytes), stderr(bytes) */
  function XscWasi(opts) {
    this.args = opts.args || ["xsc"];
    this.env = opts.env || {};
    this.fs = new Fs(opts.files || {});
    this.out = [null, opts.stdout || function () {}, opts.stderr || function () {}];
    this.fds = [{ std: 0 }, { std: 1 }, { std: 2 }];
    for (var pre in opts.preopens || {}) {
      this.fds.push({ node: mkdirs(this.fs, opts.preopens[pre]), preopen: pre, pos: 0 });
    }
    this.memory = null;
    this.imports = this.makeImports();
  }
  /* the directory at path below the root, made where it is missing */
  function mkdirs(fs, path) {
    var parts = path.split("/").filter(Boolean), d = fs.root;
    for (var i = 0; i < parts.length; i++) {
      if (!d.entries.has(parts[i])) d.entries.set(parts[i], dir());
      d = d.entries.get(parts[i]);
    }
    return d;
  }
  /* the console's world (console.js, and bundle.mjs, which makes its catalogue cache in it) */
  XscWasi.consolePreopens = { "/top": "top", "/home": "home", ".": "home" };
  XscWasi.consoleEnv = { NO_COLOR: "1", LC_ALL: "C", HOME: "/home", XDG_STATE_HOME: "/home/.state",
                         XDG_CACHE_HOME: "/home/.cache" };
  XscWasi.Exit = Exit;
  XscWasi.Fs = Fs;

  XscWasi.prototype.view = function () { return new DataView(this.memory.buffer); };
  XscWasi.prototype.bytes = function () { return new Uint8Array(this.memory.buffer); };
  XscWasi.prototype.str = function (ptr, len) {
    return new TextDecoder().decode(this.bytes().subarray(ptr, ptr + len));
  };
  XscWasi.prototype.fd = function (n) { return this.fds[n] || null; };

  /* writes NUL-terminated strings and their pointers (args_get, environ_get) */
  function putStrings(self, list, ptrs, buf) {
    var v = self.view(), b = self.bytes(), enc = new TextEncoder();
    list.forEach(function (s, i) {
      var e = enc.encode(s);
      v.setUint32(ptrs + 4 * i, buf, true);
      b.set(e, buf); b[buf + e.length] = 0;
      buf += e.length + 1;
    });
    return E.SUCCESS;
  }
  function sizes(self, list, countp, sizep) {
    var enc = new TextEncoder(), n = 0;
    list.forEach(function (s) { n += enc.encode(s).length + 1; });
    self.view().setUint32(countp, list.length, true);
    self.view().setUint32(sizep, n, true);
    return E.SUCCESS;
  }
  function envList(self) {
    return Object.keys(self.env).map(function (k) { return k + "=" + self.env[k]; });
  }
  function iovecs(self, iovs, n) {
    var v = self.view(), out = [];
    for (var i = 0; i < n; i++) out.push([v.getUint32(iovs + 8 * i, true), v.getUint32(iovs + 8 * i + 4, true)]);
    return out;
  }
  function filestat(self, node, ptr) {
    var v = self.view();
    for (var i = 0; i < 64; i += 8) v.setBigUint64(ptr + i, 0n, true);
    v.setBigUint64(ptr + 8, BigInt(nodeId(node)), true);
    v.setUint8(ptr + 16, node.kind);
    v.setBigUint64(ptr + 24, 1n, true);
    v.setBigUint64(ptr + 32, BigInt(node.kind === FT.FILE ? node.data.length : 0), true);
    return E.SUCCESS;
  }
  function nodeId(node) { return node.id || 0; }
  function grow(node, end) {
    if (end <= node.data.length) return;
    var d = new Uint8Array(end); d.set(node.data); node.data = d;
  }

  XscWasi.prototype.makeImports = function () {
    var self = this;
    var w = {
      args_get: function (argv, buf) { return putStrings(self, self.args, argv, buf); },
      args_sizes_get: function (c, s) { return sizes(self, self.args, c, s); },
      environ_get: function (env, buf) { return putStrings(self, envList(self), env, buf); },
      environ_sizes_get: function (c, s) { return sizes(self, envList(self), c, s); },
      clock_time_get: function (id, prec, ptr) {
        var ns = id === 0 ? BigInt(Date.now()) * 1000000n
          : BigInt(Math.round((typeof performance !== "undefined" ? performance.now() : Date.now()) * 1e6));
        self.view().setBigUint64(ptr, ns, true);
        return E.SUCCESS;
      },
      fd_write: function (fd, iovs, n, wrote) {
        var f = self.fd(fd), total = 0, b = self.bytes();
        if (!f) return E.BADF;
        iovecs(self, iovs, n).forEach(function (io) {
          var chunk = b.slice(io[0], io[0] + io[1]);
          if (f.std === 1 || f.std === 2) self.out[f.std](chunk);
          else if (f.node && f.node.kind === FT.FILE) {
            var at = f.append ? f.node.data.length : f.pos;
            grow(f.node, at + chunk.length);
            f.node.data.set(chunk, at);
            f.pos = at + chunk.length;
          }
          total += io[1];
        });
        if (f.std === 0 || (f.node && f.node.kind !== FT.FILE)) return E.BADF;
        self.view().setUint32(wrote, total, true);
        return E.SUCCESS;
      },
      fd_read: function (fd, iovs, n, read) {
        var f = self.fd(fd), total = 0;
        if (!f) return E.BADF;
        if (f.std !== undefined) { self.view().setUint32(read, 0, true); return E.SUCCESS; } /* stdin: at its end */
        if (f.node.kind !== FT.FILE) return E.ISDIR;
        iovecs(self, iovs, n).forEach(function (io) {
          var part = f.node.data.subarray(f.pos, f.pos + io[1]);
          self.bytes().set(part, io[0]);
          f.pos += part.length; total += part.length;
        });
        self.view().setUint32(read, total, true);
        return E.SUCCESS;
      },
      fd_pread: function (fd, iovs, n, offset, read) {
        var f = self.fd(fd);
        if (!f || !f.node) return E.BADF;
        var pos = f.pos, r;
        f.pos = Number(offset);
        r = w.fd_read(fd, iovs, n, read);
        f.pos = pos;
        return r;
      },
      fd_seek: function (fd, offset, whence, newp) {
        var f = self.fd(fd);
        if (!f) return E.BADF;
        if (!f.node || f.node.kind !== FT.FILE) return E.SPIPE;
        var base = whence === 0 ? 0 : whence === 1 ? f.pos : f.node.data.length;
        var to = base + Number(offset);
        if (to < 0) return E.INVAL;
        f.pos = to;
        self.view().setBigUint64(newp, BigInt(to), true);
        return E.SUCCESS;
      },
      fd_close: function (fd) {
        if (!self.fd(fd)) return E.BADF;
        self.fds[fd] = null;
        return E.SUCCESS;
      },
      fd_sync: function (fd) { return self.fd(fd) ? E.SUCCESS : E.BADF; },
      fd_fdstat_get: function (fd, ptr) {
        var f = self.fd(fd), v = self.view();
        if (!f) return E.BADF;
        v.setUint8(ptr, f.std !== undefined ? FT.CHAR : f.node.kind);
        v.setUint16(ptr + 2, f.append ? APPEND : 0, true);
        v.setBigUint64(ptr + 8, ALL_RIGHTS, true);
        v.setBigUint64(ptr + 16, ALL_RIGHTS, true);
        return E.SUCCESS;
      },
      fd_fdstat_set_flags: function (fd) { return self.fd(fd) ? E.SUCCESS : E.BADF; },
      fd_filestat_get: function (fd, ptr) {
        var f = self.fd(fd);
        if (!f) return E.BADF;
        if (f.std !== undefined) {
          filestat(self, { kind: FT.CHAR }, ptr);
          return E.SUCCESS;
        }
        return filestat(self, f.node, ptr);
      },
      fd_prestat_get: function (fd, ptr) {
        var f = self.fd(fd);
        if (!f || !f.preopen) return E.BADF;
        self.view().setUint8(ptr, 0);
        self.view().setUint32(ptr + 4, new TextEncoder().encode(f.preopen).length, true);
        return E.SUCCESS;
      },
      fd_prestat_dir_name: function (fd, ptr, len) {
        var f = self.fd(fd);
        if (!f || !f.preopen) return E.BADF;
        self.bytes().set(new TextEncoder().encode(f.preopen).subarray(0, len), ptr);
        return E.SUCCESS;
      },
      fd_readdir: function (fd, buf, len, cookie, usedp) {
        var f = self.fd(fd), v = self.view(), b = self.bytes(), used = 0, enc = new TextEncoder();
        if (!f || !f.node) return E.BADF;
        if (f.node.kind !== FT.DIR) return E.NOTDIR;
        var names = [".", ".."].concat(Array.from(f.node.entries.keys()).sort());
        for (var i = Number(cookie); i < names.length && used < len; i++) {
          var nm = enc.encode(names[i]), child = i < 2 ? f.node : f.node.entries.get(names[i]);
          var ent = new Uint8Array(24 + nm.length), ev = new DataView(ent.buffer);
          ev.setBigUint64(0, BigInt(i + 1), true);
          ev.setBigUint64(8, BigInt(nodeId(child)), true);
          ev.setUint32(16, nm.length, true);
          ev.setUint8(20, child.kind);
          ent.set(nm, 24);
          var take = Math.min(ent.length, len - used); /* a cut entry tells libc to ask again */
          b.set(ent.subarray(0, take), buf + used);
          used += take;
        }
        v.setUint32(usedp, used, true);
        return E.SUCCESS;
      },
      path_open: function (fd, dirflags, p, plen, oflags, rb, ri, fdflags, out) {
        var f = self.fd(fd);
        if (!f || !f.node || f.node.kind !== FT.DIR) return E.BADF;
        var w2 = self.fs.walk(f.node, self.str(p, plen));
        if (typeof w2 === "number") return w2;
        var node = w2.node;
        if (node && (oflags & O.CREAT) && (oflags & O.EXCL)) return E.EXIST;
        if (!node) {
          if (!(oflags & O.CREAT) || !w2.parent) return E.NOENT;
          node = file();
          w2.parent.entries.set(w2.name, node);
        }
        if ((oflags & O.DIRECTORY) && node.kind !== FT.DIR) return E.NOTDIR;
        if (node.kind === FT.FILE && (oflags & O.TRUNC)) node.data = new Uint8Array(0);
        self.fds.push({ node: node, pos: 0, append: !!(fdflags & APPEND) });
        self.view().setUint32(out, self.fds.length - 1, true);
        return E.SUCCESS;
      },
      path_filestat_get: function (fd, flags, p, plen, ptr) {
        var f = self.fd(fd);
        if (!f || !f.node) return E.BADF;
        var w2 = self.fs.walk(f.node, self.str(p, plen));
        if (typeof w2 === "number") return w2;
        return w2.node ? filestat(self, w2.node, ptr) : E.NOENT;
      },
      path_filestat_set_times: function () { return E.SUCCESS; },
      path_create_directory: function (fd, p, plen) {
        var f = self.fd(fd);
        if (!f || !f.node) return E.BADF;
        var w2 = self.fs.walk(f.node, self.str(p, plen));
        if (typeof w2 === "number") return w2;
        if (!w2.parent) return E.NOENT;
        if (w2.node) return E.EXIST;
        w2.parent.entries.set(w2.name, dir());
        return E.SUCCESS;
      },
      path_readlink: function () { return E.INVAL; },
      path_remove_directory: function (fd, p, plen) {
        var f = self.fd(fd), w2 = f && f.node ? self.fs.walk(f.node, self.str(p, plen)) : E.BADF;
        if (typeof w2 === "number") return w2;
        if (!w2.node) return E.NOENT;
        if (w2.node.kind !== FT.DIR) return E.NOTDIR;
        if (w2.node.entries.size) return E.NOTEMPTY;
        w2.parent.entries.delete(w2.name);
        return E.SUCCESS;
      },
      path_unlink_file: function (fd, p, plen) {
        var f = self.fd(fd), w2 = f && f.node ? self.fs.walk(f.node, self.str(p, plen)) : E.BADF;
        if (typeof w2 === "number") return w2;
        if (!w2.node) return E.NOENT;
        if (w2.node.kind === FT.DIR) return E.ISDIR;
        w2.parent.entries.delete(w2.name);
        return E.SUCCESS;
      },
      path_rename: function (fd, p, plen, fd2, q, qlen) {
        var a = self.fd(fd), b = self.fd(fd2);
        if (!a || !b || !a.node || !b.node) return E.BADF;
        var from = self.fs.walk(a.node, self.str(p, plen)), to = self.fs.walk(b.node, self.str(q, qlen));
        if (typeof from === "number") return from;
        if (typeof to === "number") return to;
        if (!from.node || !to.parent) return E.NOENT;
        from.parent.entries.delete(from.name);
        to.parent.entries.set(to.name, from.node);
        return E.SUCCESS;
      },
      /* no hard links in memory; base/outfile.c asks only when a rename says ENOSYS, never here */
      path_link: function () { return E.NOSYS; },
      /* every subscription answered at once: a clock has run out, a descriptor is ready */
      poll_oneoff: function (inp, outp, n, neventsp) {
        var v = self.view();
        for (var i = 0; i < n; i++) {
          v.setBigUint64(outp + 32 * i, v.getBigUint64(inp + 48 * i, true), true);
          v.setUint16(outp + 32 * i + 8, 0, true);
          v.setUint8(outp + 32 * i + 10, v.getUint8(inp + 48 * i + 8));
        }
        v.setUint32(neventsp, n, true);
        return E.SUCCESS;
      },
      proc_exit: function (code) { throw new Exit(code); },
      random_get: function (buf, len) {
        var b = self.bytes().subarray(buf, buf + len);
        for (var i = 0; i < len; i++) b[i] = (Math.random() * 256) | 0;
        return E.SUCCESS;
      },
    };
    return w;
  };

  /* imports for a module: WASI, and for 'env' (what the build leaves out: the Makefile's
   * WASM_LEAVE) a function that fails saying so, should anything reach one */
  XscWasi.prototype.importObject = function (module) {
    var env = {};
    WebAssembly.Module.imports(module).forEach(function (imp) {
      if (imp.module === "env" && imp.kind === "function")
        env[imp.name] = function () { throw new Error("xsc: " + imp.name + " needs the native program"); };
    });
    return { wasi_snapshot_preview1: this.imports, env: env };
  };
  XscWasi.prototype.bind = function (instance) {
    this.memory = instance.exports.memory;
    this.exports = instance.exports;
    instance.exports._initialize();
  };
  /* a C string in the module's memory (freed with xsc_console_free) */
  XscWasi.prototype.cstring = function (s) {
    var e = new TextEncoder().encode(s), p = this.exports.xsc_console_alloc(e.length);
    this.bytes().set(e, p);
    return p;
  };
  XscWasi.prototype.readCString = function (p) {
    var b = this.bytes(), end = p;
    while (b[end]) end++;
    return new TextDecoder().decode(b.subarray(p, end));
  };
  /* main(argc, argv) with this.args; its exit status, as exit() or a return gives it */
  XscWasi.prototype.main = function () {
    var self = this, argv = this.exports.xsc_console_alloc(4 * (this.args.length + 1));
    this.args.forEach(function (a, i) { self.view().setUint32(argv + 4 * i, self.cstring(a), true); });
    try {
      return this.exports.__main_argc_argv(this.args.length, argv);
    } catch (e) {
      if (e instanceof Exit) return e.code;
      throw e;
    }
  };

  if (typeof module !== "undefined" && module.exports) module.exports = XscWasi;
  else global.XscWasi = XscWasi;
})(typeof self !== "undefined" ? self : this);
