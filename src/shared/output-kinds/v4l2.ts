// The v4l2 kind: raw YUV into a v4l2loopback device, a camera browsers and OBS can open.
import { constants } from 'node:fs';
import { access, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { OutputKindDescriptor, SpecBase, TargetCheck } from './types.js';
import { scaleFilter } from './types.js';

/** A video4linux node by its kernel name; never a path from anywhere else. */
export const DEVICE_RE = /^\/dev\/video\d{1,3}$/;

export interface V4l2Spec extends SpecBase {
  kind: 'v4l2';
  /** The loopback device (`/dev/video<N>`). */
  device: string;
}

/** v4l2loopback adds a `max_openers` attribute to each of its nodes: a camera or a capture card has none. */
export async function loopbackPresent(sysfsDir: string): Promise<boolean> {
  let nodes: string[];
  try {
    nodes = (await readdir(sysfsDir)).filter((n) => /^video\d+$/.test(n));
  } catch {
    return false;
  }
  for (const n of nodes) {
    try {
      await access(join(sysfsDir, n, 'max_openers'));
      return true;
    } catch {
      // not a loopback node
    }
  }
  return false;
}

async function checkDevice(device: string): Promise<TargetCheck> {
  const nr = /(\d+)$/.exec(device)?.[1] ?? '10';
  try {
    const st = await stat(device);
    if (!st.isCharacterDevice()) return { ok: false, reason: `${device} is not a video device` };
  } catch {
    return { ok: false, reason: `${device} does not exist: load v4l2loopback (modprobe v4l2loopback video_nr=${nr} exclusive_caps=1)` };
  }
  try {
    await access(device, constants.W_OK);
  } catch {
    return { ok: false, reason: `${device} is not writable by vjd (add its user to the video group)` };
  }
  return { ok: true };
}

export const v4l2Kind: OutputKindDescriptor<'v4l2', V4l2Spec> = {
  kind: 'v4l2',
  fromApi: false,
  fields: { device: { type: 'string', maxLength: 64, what: 'a device path', example: '/dev/video10' } },
  problem(o) {
    if (o.device === undefined)
      return { field: 'device', reason: 'is required for a v4l2 output (a v4l2loopback device such as "/dev/video10")' };
    if (!DEVICE_RE.test(o.device)) return { field: 'device', reason: 'must be a video device path /dev/video<N>, such as "/dev/video10"' };
    return null;
  },
  built: (_encoders, devices) => /^\s*D?E\s+\S*\bv4l2\b/m.test(devices),
  attached: ({ sysfsDir }) => loopbackPresent(sysfsDir),
  spec: (o, { size, bitrateKbps }) => ({ kind: 'v4l2', ...size, bitrateKbps, device: o.device!, secrets: [] }),
  target: (o) => o.device!,
  checkTarget: (spec) => checkDevice(spec.device),
  // yuv420p is what browsers and OBS read from a v4l2loopback camera without a conversion of their own.
  args: (_id, spec, input) => ({ args: [...input, '-an', '-vf', scaleFilter(spec), '-f', 'v4l2', spec.device] }),
};
