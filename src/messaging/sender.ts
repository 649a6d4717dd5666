import { isColabOrigin, isOutputFrameOrigin, OUTPUT_FRAME_PATH } from '../site/origins';

/**
 * Who sent a runtime message. Receivers act only on messages from our own contexts, and each kind of message only
 * from the context that may send it: a Colab page's top frame, one of Colab's output frames, or an extension page.
 */

export type SenderKind = 'colab-page' | 'output-frame' | 'extension-page';

export interface SenderLike {
  id?: string;
  url?: string;
  frameId?: number;
  tab?: { id?: number; url?: string };
}

export function senderKind(sender: SenderLike, extensionId: string, extensionOrigin: string): SenderKind | null {
  if (sender.id !== extensionId || !sender.url) return null;
  const origin = originOf(sender.url);
  if (sender.tab?.id !== undefined) {
    if (sender.frameId === 0 && origin !== null && isColabOrigin(origin)) return 'colab-page';
    if (sender.frameId !== 0 && origin !== null && isOutputFrameOrigin(origin) && isOutputFramePath(sender.url)) {
      return 'output-frame';
    }
  }
  return sender.url.startsWith(extensionOrigin) ? 'extension-page' : null;
}

/** Colab's output frame page (the manifest injects into nothing else; another page of those hosts is no sender). */
function isOutputFramePath(url: string): boolean {
  return new URL(url).pathname === OUTPUT_FRAME_PATH;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
