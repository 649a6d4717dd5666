import { test, expect } from './harness/extension';

test('content scripts run in the Colab page and in its cross-origin output frames', async ({ context, page }) => {
  await context.route('https://colab.research.google.com/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><body><iframe src="https://abc-0-colab.googleusercontent.com/outputframe.html"></iframe></body>',
    }),
  );
  await context.route('https://*.googleusercontent.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><body><div id="output-area"></div></body>' }),
  );
  await page.goto('https://colab.research.google.com/drive/abc');
  await expect(page.locator('html')).toHaveAttribute('data-oom-guard', 'ready');
  const frame = page.frameLocator('iframe');
  await expect(frame.locator('html')).toHaveAttribute('data-oom-guard-frame', /.+/);
});
