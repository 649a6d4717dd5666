import { describe, expect, it } from 'vitest';
import { looksRandom, REDACTED, redactSecrets } from './redact';

const R = REDACTED;

describe('redactSecrets: what goes', () => {
  it.each([
    [
      'HTTPError: 401 for url: https://huggingface.co/api/models?token=abc123&x=1',
      `HTTPError: 401 for url: https://huggingface.co/api/models?${R}`,
    ],
    ['see https://example.com/cb#access_token=xyz&state=1.', `see https://example.com/cb#${R}`],
    ['(https://s3.amazonaws.com/b/k?X-Amz-Signature=deadbeef)', `(https://s3.amazonaws.com/b/k?${R})`],
    ["'https://x.io/a?b' failed", `'https://x.io/a?${R}' failed`],
    ['fetch colab.research.google.com/drive/abc?usp=sharing now', `fetch colab.research.google.com/drive/abc?${R} now`],
    ['postgres://admin:hunter2@db.local:5432/runs', `postgres://${R}@db.local:5432/runs`],
    ['https://user@example.com/x', `https://${R}@example.com/x`],
  ])('query strings, fragments and credentials of URLs: %s', (text, redacted) => {
    expect(redactSecrets(text)).toBe(redacted);
  });

  it.each([
    ['OSError: hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345 is not valid', `OSError: hf_${R} is not valid`],
    [
      'openai.AuthenticationError: Incorrect API key provided: sk-proj-Ab12Cd34Ef56Gh78Ij90',
      `openai.AuthenticationError: Incorrect API key provided: sk-${R}`,
    ],
    ['key sk-ant-api03-abcdefghijklmnop1234 refused', `key sk-${R} refused`],
    ['ghp_0123456789abcdefghijABCDEFGHIJ0123 leaked', `ghp_${R} leaked`],
    ['github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv', `github_pat_${R}`],
    ['xoxb-123456789012-abcdefghij in use', `xoxb-${R} in use`],
    ['AKIAIOSFODNN7EXAMPLE denied', `AKIA${R} denied`],
    ['AIzaSyA-1234567890abcdefghijklmnopqrstu is blocked', `AIza${R} is blocked`],
    ['ya29.a0AfH6SMBabcdefghijklmnopqrstuv expired', `ya29.${R} expired`],
    ['ntfy tk_abcdefghij0123456789abcdefgh', `ntfy tk_${R}`],
    ['glpat-abcDEF1234567890ghij ok', `glpat-${R} ok`],
    ['bot 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw9 blocked', `bot 123456789:${R} blocked`],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', `jwt eyJ${R}`],
  ])('tokens of known shapes keep the part that names them: %s', (text, redacted) => {
    expect(redactSecrets(text)).toBe(redacted);
  });

  it.each([
    ['HF_TOKEN=abcdef123456 python train.py', `HF_TOKEN=${R} python train.py`],
    ['WANDB_API_KEY: 9f8e7d6c5b4a', `WANDB_API_KEY: ${R}`],
    ['{"password": "correct horse"}', `{"password": "${R} horse"}`],
    ["client_secret='s3cr3t-value'", `client_secret='${R}'`],
    ['Authorization: Bearer abc.DEF-123_xyz', `Authorization: Bearer ${R}`],
    ['auth=Basic dXNlcjpwYXNzd29yZA==', `auth=Basic ${R}`],
  ])('the values of secret-named keys and authorization headers: %s', (text, redacted) => {
    expect(redactSecrets(text)).toBe(redacted);
  });

  it.each([
    ['hash 5f4dcc3b5aa765d61d8327deb882cf99 mismatch', `hash ${R} mismatch`],
    ['sha256 9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08', `sha256 ${R}`],
    ['run 123e4567-e89b-12d3-a456-426614174000 failed', `run ${R} failed`],
    ['drive id 1AbC2dEf3GhI4jKl5MnO6pQr7StU8vWx', `drive id ${R}`],
    ['key k3x9m2p8q7w4e5r6t1y0u3i9 refused', `key ${R} refused`],
    ['secret q8Zr+T3x/Lm9Kp2Wd/Vn7Hs4Jc1Fb6Gy0Ae5Ru8Mi used', `secret ${R} used`],
    ['/content/drive/MyDrive/1AbC2dEf3GhI4jKl5MnO6pQr7StU/ckpt.pt', `/content/drive/MyDrive/${R}/ckpt.pt`],
  ])('long random-looking strings: hex, base64, ids: %s', (text, redacted) => {
    expect(redactSecrets(text)).toBe(redacted);
  });
});

describe('redactSecrets: what stays', () => {
  it.each([
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 14.75 GiB total capacity)',
    'ValueError: shapes (3,) and (4,) not aligned: 4 (dim 0) != 3 (dim 0)',
    'ResourceExhaustedError: OOM when allocating tensor with shape[32,1024,1024] on /job:localhost/replica:0/task:0',
    'RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!',
    'File "/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py", line 1511, in _wrapped_call_impl',
    '/content/drive/MyDrive/checkpoints/model_epoch_12_final_checkpoint.pt',
    'ResNet50ForImageClassification and ThisIsAVeryLongIdentifierName',
    'XLA_PYTHON_CLIENT_MEM_FRACTION CUDA_VISIBLE_DEVICES PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True',
    'distilbert-base-uncased-finetuned-sst-2-english internationalization',
    'Token indices sequence length is longer than the specified maximum sequence length for this model (4096 > 512)',
    'tokenizer: BertTokenizerFast, pad_token: [PAD], eos_token=</s>, max_tokens=4096, num_tokens 20000',
    'Basic Authentication required; bearer someword',
    'order 12345678901234567890 and 3.14159265358979323846',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
    '2026-11-28T03:10:00.000Z nb1 restart-scheduled n=1 max=3 delaySec=5 action=restart-and-run-all',
    'Settings: {"maxRestarts":3,"backoffBaseSec":5,"failurePatterns":["MyCustomError"],"statusApi":true}',
    'https://colab.research.google.com/drive/notebook and https://ntfy.sh/colab-night-k3x9',
    'What? Is 5 = 5? Yes.',
    'Runtime disconnected: You may be using a disallowed code (see FAQ)',
  ])('%s', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});

describe('looksRandom', () => {
  /** Keys of `length` random letters and digits, the same on every run (a linear congruential generator). */
  function randomKeys(length: number, count: number): string[] {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    let seed = 42;
    const next = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    return Array.from({ length: count }, () =>
      Array.from({ length }, () => alphabet.charAt(Math.floor(next() * alphabet.length))).join(''),
    );
  }

  it.each([
    [24, 960],
    [32, 985],
    [40, 995],
  ])('takes nearly every random key of %i characters (at least %i of 1,000)', (length, least) => {
    const taken = randomKeys(length, 1000).filter((key) => redactSecrets(`key ${key} refused`) === `key ${R} refused`);
    expect(taken.length).toBeGreaterThanOrEqual(least);
  });

  it('takes random letters and digits, hex from 32 digits, and leaves words, numbers and short runs', () => {
    expect(looksRandom('a8F3kQ9zL2mX7pR4tY6wB1')).toBe(true);
    expect(looksRandom('0123456789abcdef0123456789abcdef')).toBe(true);
    expect(looksRandom('0123456789abcdef0123')).toBe(false);
    expect(looksRandom('a8F3kQ9zL2mX7pR4')).toBe(false);
    expect(looksRandom('12345678901234567890123')).toBe(false);
    expect(looksRandom('AbCdEfGhIjKlMnOpQrStUvWx')).toBe(false);
  });
});
