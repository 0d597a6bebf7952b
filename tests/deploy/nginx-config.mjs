// The templating step between deploy/nginx-site.conf and a run on loopback (the deployment test
// and `make bench`): the shipped site with its ports and certificate substituted, inside what
// Debian's /etc/nginx/nginx.conf provides, every path in one directory.
//   node tests/deploy/nginx-config.mjs DIR HTTP_PORT HTTPS_PORT INSTANCE_PORT...
// writes DIR/nginx.conf, DIR/site.conf and a certificate, and prints nginx's arguments.
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repoDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The templating step between deploy/nginx-site.conf and this test, and the only change made to
 * it: listen on loopback ports (the IPv6 listens go: the machine may have no IPv6), answer to
 * `localhost` and `127.0.0.1` in place of example.com (every other name still meets the
 * catch-all server block), read the throwaway certificate, include the aliases of the
 * repository's dist/, and point the upstream at the instances' ports. A client names
 * `localhost` in TLS (SNI): one that names no server meets the catch-all, as an address scan does.
 */
export function siteConfig(shipped, { httpPort, httpsPort, certDir, instancePorts, distDir = path.join(repoDir, 'dist') }) {
  const upstream = /^(\s*)server 127\.0\.0\.1:8081 (.*)$\n^\s*server 127\.0\.0\.1:8082 .*$/m;
  if (!upstream.test(shipped)) throw new Error('deploy/nginx-site.conf no longer has the two upstream lines this test replaces');
  const config = shipped
    .replace(/^\s*listen \[::\]:.*$\n/gm, '')
    .replace(/^(\s*)listen 80([ ;])/gm, `$1listen 127.0.0.1:${httpPort}$2`)
    .replace(/^(\s*)listen 443 (.*)$/gm, `$1listen 127.0.0.1:${httpsPort} $2`)
    .replace(/^(\s*)server_name example\.com;$/gm, '$1server_name localhost 127.0.0.1;')
    .replaceAll('/etc/letsencrypt/live/example.com/', `${certDir}/`)
    .replace(/^(\s*)access_log \/var\/log\/nginx\/access\.log /m, `$1access_log ${path.dirname(certDir)}/access.log `)
    .replaceAll('/opt/site/current/dist/', `${distDir}/`)
    .replace(upstream, (_, indent, rest) => instancePorts.map((port) => `${indent}server 127.0.0.1:${port} ${rest}`).join('\n'));
  const directives = config.replace(/#.*$/gm, '');
  for (const left of ['listen 80', 'listen 443', 'server_name example.com', '/etc/letsencrypt', '/opt/site', ':8081']) {
    if (directives.includes(left)) throw new Error(`siteConfig left "${left}" in place`);
  }
  return config;
}

/**
 * What Debian's /etc/nginx/nginx.conf provides around a site, with every path in `dir`. The
 * access log names the instance that answered each request.
 */
export function mainConfig(dir) {
  return `daemon off;
worker_processes auto;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log notice;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    log_format upstream '$remote_addr $request_method $request_uri $status $upstream_addr';
    access_log ${dir}/access.log upstream;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/site.conf;
}
`;
}

/** A self-signed certificate for 127.0.0.1 and localhost, valid for a day. */
export async function makeCertificate(certDir) {
  await mkdir(certDir);
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
    '-keyout',
    path.join(certDir, 'privkey.pem'),
    '-out',
    path.join(certDir, 'fullchain.pem'),
  ]);
  return readFile(path.join(certDir, 'fullchain.pem'));
}

/**
 * Writes the configuration for nginx with every path in `dir`; returns the certificate (the CA a
 * client trusts) and nginx's arguments.
 */
export async function writeNginxConfig(dir, { httpPort, httpsPort, instancePorts, distDir }) {
  const certDir = path.join(dir, 'cert');
  const ca = await makeCertificate(certDir);
  const shipped = await readFile(path.join(repoDir, 'deploy/nginx-site.conf'), 'utf8');
  await writeFile(path.join(dir, 'site.conf'), siteConfig(shipped, { httpPort, httpsPort, certDir, instancePorts, distDir }));
  await writeFile(path.join(dir, 'nginx.conf'), mainConfig(dir));
  return { ca, nginxArgs: ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, httpPort, httpsPort, ...instancePorts] = process.argv.slice(2);
  const { nginxArgs } = await writeNginxConfig(path.resolve(dir), { httpPort, httpsPort, instancePorts });
  console.log(JSON.stringify(nginxArgs));
}
