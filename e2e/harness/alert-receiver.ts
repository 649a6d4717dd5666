import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP receiver for the guard's alerts (ntfy, Slack, Discord and generic JSON are all one POST): it keeps
 * every request it got and answers with the status a test sets, or holds the request open ("hang") until it stops.
 */

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Still waiting for an answer (a held request the client has not given up on). */
  open: boolean;
}

export interface AlertReceiver {
  /** http://127.0.0.1:<port><path> */
  url(path: string): string;
  received: Received[];
  answer(with_: number | 'hang'): void;
  stop(): Promise<void>;
}

export async function startAlertReceiver(): Promise<AlertReceiver> {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  let answer: number | 'hang' = 200;
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      const entry: Received = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body,
        open: true,
      };
      received.push(entry);
      response.on('close', () => {
        entry.open = false;
      });
      if (answer === 'hang') {
        held.push(response);
        return;
      }
      response.writeHead(answer, { 'Content-Type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    answer: (with_) => {
      answer = with_;
    },
    stop: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
