import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { arch, cpus, type as osType, platform, release, totalmem } from 'node:os';

export interface Machine {
  date: string;
  os: string;
  kernel: string;
  arch: string;
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  chromium: string;
  chromiumPath: string;
  playwright: string;
}

function osName(): string {
  try {
    const line = readFileSync('/etc/os-release', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('PRETTY_NAME='));
    if (line) return line.slice('PRETTY_NAME='.length).replace(/^"|"$/g, '');
  } catch {
    // not Linux
  }
  return `${osType()} ${platform()}`;
}

export function describeMachine(chromiumPath: string, browserVersion: string): Machine {
  let playwright = '';
  try {
    playwright = execFileSync('npx', ['playwright', '--version'], { encoding: 'utf8' }).trim();
  } catch {
    playwright = 'unknown';
  }
  return {
    date: new Date().toISOString(),
    os: osName(),
    kernel: release(),
    arch: arch(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    chromium: browserVersion,
    chromiumPath,
    playwright,
  };
}
