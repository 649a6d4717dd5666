import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP receiver for the guard's alerts (ntfy, Slack, Discord and generic JSON are all one POST): it keeps
 * every request it got and answers with the status a test sets, an answer of its own (a 429 with Retry-After, a
 * redirect), or holds the request open ("hang") until it stops. `telegram(token)` makes it answer like Telegram's
 * Bot API server (a self-hosted one is a URL of the same shape, which is how the extension is pointed at it).
 */

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When the whole request had arrived (Date.now()). */
  at: number;
  /** Still waiting for an answer (a held request the client has not given up on). */
  open: boolean;
}

/** A whole answer: its status, headers and body. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

type Answer = number | 'hang' | Reply;

export interface AlertReceiver {
  /** http://127.0.0.1:<port><path> */
  url(path: string): string;
  /** The same server named by another host: one the extension was not granted. */
  localhostUrl(path: string): string;
  received: Received[];
  /** How every request is answered from now on. */
  answer(with_: Answer): void;
  /** How the next requests are answered, one each, before the usual answer again. */
  answerNext(...answers: Answer[]): void;
  /** Answer like Telegram's Bot API for this bot token: sendMessage to a chat, 401 for another token. */
  telegram(token: string): void;
  stop(): Promise<void>;
}

export async function startAlertReceiver(): Promise<AlertReceiver> {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  const next: Answer[] = [];
  let usual: Answer | ((entry: Received) => Reply) = 200;
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
        at: Date.now(),
        open: true,
      };
      received.push(entry);
      response.on('close', () => {
        entry.open = false;
      });
      const answer = next.shift() ?? usual;
      if (answer === 'hang') {
        held.push(response);
        return;
      }
      const reply = typeof answer === 'function' ? answer(entry) : answer;
      if (typeof reply === 'number') {
        response.writeHead(reply, { 'Content-Type': 'text/plain' }).end(reply < 300 ? 'ok' : 'no');
        return;
      }
      response.writeHead(reply.status, reply.headers).end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    localhostUrl: (path) => `http://localhost:${port}${path}`,
    received,
    answer: (with_) => {
      usual = with_;
    },
    answerNext: (...answers) => {
      next.push(...answers);
    },
    telegram: (token) => {
      usual = (entry) => botApiAnswer(entry, token);
    },
    stop: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let messageId = 0;

/** What Telegram's Bot API answers a sendMessage (core.telegram.org/bots/api#making-requests). */
function botApiAnswer(entry: Received, token: string): Reply {
  if (entry.method !== 'POST' || entry.path !== `/bot${token}/sendMessage`) {
    return telegramReply(401, { ok: false, error_code: 401, description: 'Unauthorized' });
  }
  let sent: { chat_id?: unknown; text?: unknown };
  try {
    sent = JSON.parse(entry.body);
  } catch {
    return telegramReply(400, { ok: false, error_code: 400, description: "Bad Request: can't parse JSON" });
  }
  if (sent.chat_id === undefined || sent.chat_id === '') {
    return telegramReply(400, { ok: false, error_code: 400, description: 'Bad Request: chat_id is empty' });
  }
  if (typeof sent.text !== 'string' || sent.text === '') {
    return telegramReply(400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
  }
  const result = {
    message_id: ++messageId,
    chat: { id: sent.chat_id },
    date: Math.floor(entry.at / 1000),
    text: sent.text,
  };
  return telegramReply(200, { ok: true, result });
}

/** A Bot API answer: JSON, with the status Telegram gives it. */
export function telegramReply(status: number, json: unknown): Reply {
  return { status, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) };
}
