// Live inputs from V4L2 capture devices, found through sysfs and /dev (async fs only), with polling for hotplug.
import { access, readFile, readdir, readlink } from 'node:fs/promises';
import { constants } from 'node:fs';
import { basename, join } from 'node:path';
import type { LiveInput, LiveProvider } from './providers.js';

export interface V4l2Options {
  devDir: string;
  sysfsDir: string;
  /** Hotplug poll interval; sysfs has no reliable change events and a readdir every 2 s costs nothing. */
  pollMs?: number;
}

const NODE_RE = /^video(\d+)$/;

async function readText(path: string): Promise<string | null> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return null;
  }
}

async function listDir(path: string): Promise<string[]> {
  try {
    return await readdir(path);
  } catch {
    return [];
  }
}

/** Maps node names (`video0`) to their first stable by-id link, by name order so the choice never flips. */
async function byIdLinks(devDir: string): Promise<Map<string, string>> {
  const dir = join(devDir, 'v4l', 'by-id');
  const links = new Map<string, string>();
  for (const name of (await listDir(dir)).sort()) {
    try {
      const node = basename(await readlink(join(dir, name)));
      if (!links.has(node)) links.set(node, name);
    } catch {
      // not a symlink: ignore
    }
  }
  return links;
}

export function sanitizeId(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

export async function enumerateV4l2(opts: V4l2Options): Promise<LiveInput[]> {
  const nodes = (await listDir(opts.sysfsDir))
    .map((n) => ({ node: n, m: NODE_RE.exec(n) }))
    .filter((e) => e.m)
    .sort((a, b) => Number(a.m![1]) - Number(b.m![1]))
    .map((e) => e.node);
  const links = await byIdLinks(opts.devDir);
  const found: LiveInput[] = [];
  for (const node of nodes) {
    const sys = join(opts.sysfsDir, node);
    // Capture rule: sysfs does not expose V4L2 capabilities, but `index` numbers the nodes one device creates and
    // the capture node is index 0 (UVC cameras add a metadata node at index 1 that cannot deliver video). A node
    // without a readable `index` is kept: better an input that fails to open than a camera that never shows.
    const index = await readText(join(sys, 'index'));
    if (index !== null && index !== '' && Number(index) !== 0) continue;
    const link = links.get(node);
    const device = link ? join(opts.devDir, 'v4l', 'by-id', link) : join(opts.devDir, node);
    let available = true;
    try {
      // ffmpeg opens the node read-write.
      await access(join(opts.devDir, node), constants.R_OK | constants.W_OK);
    } catch {
      available = false;
    }
    found.push({
      id: link ? sanitizeId(link) : node,
      name: (await readText(join(sys, 'name'))) || node,
      provider: 'v4l2',
      input: { kind: 'v4l2', device },
      available,
    });
  }
  // Two identical cameras share a sysfs name; the node tells them apart.
  const counts = new Map<string, number>();
  for (const f of found) counts.set(f.name, (counts.get(f.name) ?? 0) + 1);
  for (const f of found) {
    if ((counts.get(f.name) ?? 0) > 1) f.name = `${f.name} (${basename(f.input.kind === 'v4l2' ? f.input.device : f.id)})`;
  }
  return found;
}

export function createV4l2Provider(opts: V4l2Options): LiveProvider {
  const pollMs = opts.pollMs ?? 2000;
  return {
    type: 'v4l2',
    label: 'Capture Devices',
    enumerate: () => enumerateV4l2(opts),
    watch(onChange: () => void): () => void {
      let last: string | null = null;
      let busy = false;
      let stopped = false;
      const poll = async () => {
        if (busy || stopped) return;
        busy = true;
        try {
          const now = JSON.stringify(await enumerateV4l2(opts));
          if (last !== null && now !== last && !stopped) onChange();
          last = now;
        } catch {
          // a transient fs error: compare again at the next poll
        } finally {
          busy = false;
        }
      };
      void poll();
      const timer = setInterval(() => void poll(), pollMs);
      timer.unref();
      return () => {
        stopped = true;
        clearInterval(timer);
      };
    },
  };
}
