// A static file server for dist/, mounted under a sub-path so the tests also prove the build
// works away from the site root. Node's standard library only.
//
// It caches like a static host (Last-Modified, Cache-Control: public, max-age=3600, and 304 for
// a matching If-Modified-Since), so a test sees what a browser really downloads: several embeds
// of one page share one copy of the wasm. It counts what it serves, per path:
// server.requests (path → requests), server.bytes (path → body bytes sent);
// server.resetCounts() empties both.
//
// With `{ gzip: true }` it compresses text and wasm for clients that accept gzip (level 9, as a
// static host or CDN serves them), so a benchmark counts the bytes a user really downloads.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json', '.md': 'text/plain',
  '.png': 'image/png',
};

const COMPRESSIBLE = new Set(['.html', '.js', '.wasm', '.css', '.svg', '.json', '.md']);

export function serve(root, prefix, { gzip = false } = {}) {
  const requests = new Map();
  const bytes = new Map();
  const gzipped = new Map();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    requests.set(url.pathname, (requests.get(url.pathname) || 0) + 1);
    if (!url.pathname.startsWith(prefix)) { res.writeHead(404); res.end(); return; }
    let rel = decodeURIComponent(url.pathname.slice(prefix.length)) || 'index.html';
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.join(root, path.normalize(rel));
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404); res.end('not found'); return;
    }
    const stat = fs.statSync(file);
    // HTTP dates have whole seconds.
    const modified = new Date(Math.floor(stat.mtimeMs / 1000) * 1000);
    const headers = {
      'last-modified': modified.toUTCString(),
      'cache-control': 'public, max-age=3600',
    };
    const since = Date.parse(req.headers['if-modified-since'] || '');
    if (!Number.isNaN(since) && since >= modified.getTime()) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    const type = TYPES[path.extname(file)] || 'application/octet-stream';
    if (gzip && COMPRESSIBLE.has(path.extname(file))
      && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
      const key = `${file}:${stat.mtimeMs}`;
      if (!gzipped.has(key)) gzipped.set(key, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
      const body = gzipped.get(key);
      res.writeHead(200, {
        ...headers, 'content-type': type, 'content-encoding': 'gzip', 'content-length': body.length,
        vary: 'accept-encoding',
      });
      bytes.set(url.pathname, (bytes.get(url.pathname) || 0) + body.length);
      res.end(body);
      return;
    }
    res.writeHead(200, { ...headers, 'content-type': type, 'content-length': stat.size });
    bytes.set(url.pathname, (bytes.get(url.pathname) || 0) + stat.size);
    fs.createReadStream(file).pipe(res);
  });
  server.requests = requests;
  server.bytes = bytes;
  server.resetCounts = () => { requests.clear(); bytes.clear(); };
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    resolve({ server, url: `http://127.0.0.1:${server.address().port}${prefix}` });
  }));
}
