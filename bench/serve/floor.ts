/**
 * The floor of bench/serve: a hello-world Koa server (the service's Koa version) in its own
 * Node process, one route answering a small JSON, no middleware (the request body is not read);
 * `GET /hello` is the floor of bench/api.
 * Prints READY when it listens.
 *
 *   node dist/bench/serve/floor.js PORT
 */
import http from 'node:http';
import Koa from 'koa';

const app = new Koa();
app.use((ctx) => {
  if (ctx.method === 'POST' && ctx.path === '/predict') ctx.body = { prediction: '0', probability: 0.1 };
  else if (ctx.method === 'GET' && ctx.path === '/hello') ctx.body = { hello: 'world' };
});
http.createServer(app.callback()).listen(Number(process.argv[2]), '127.0.0.1', () => console.log('READY'));
