// Whether a display or v4l2 output's target is there before its ffmpeg starts: a missing device or an X server
// that is not up is a `failed` output with a line saying what to do, not an ffmpeg restart loop.
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import type { OutputSpec } from '../../src/shared/messages.js';

const PROBE_TIMEOUT_MS = 5000;

export type TargetCheck = { ok: true; screen?: { width: number; height: number } } | { ok: false; reason: string };

export function needsCheck(spec: OutputSpec): boolean {
  return spec.kind === 'display' || spec.kind === 'v4l2';
}

export function checkTarget(spec: OutputSpec, ffmpeg: string): Promise<TargetCheck> {
  if (spec.kind === 'v4l2') return checkDevice(spec.device!);
  if (spec.kind === 'display') return probeScreen(spec.window!.display, ffmpeg);
  return Promise.resolve({ ok: true });
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

/**
 * Opens the display the way the output will (ffmpeg's x11grab, no extra package) and reads the screen size from
 * the stream it reports: that is the window a fullscreen output needs, and a failure says the X server is not there.
 */
function probeScreen(display: string, ffmpeg: string): Promise<TargetCheck> {
  return new Promise((resolve) => {
    execFile(ffmpeg, ['-hide_banner', '-nostdin', '-f', 'x11grab', '-i', display], { timeout: PROBE_TIMEOUT_MS }, (_err, _stdout, stderr) => {
      const m = /Stream #0:0: Video: .*?, (\d{2,5})x(\d{2,5})/.exec(stderr);
      if (m) return resolve({ ok: true, screen: { width: Number(m[1]), height: Number(m[2]) } });
      const why = /Cannot open display[^\n]*/.exec(stderr)?.[0] ?? (stderr.trim().split('\n').pop() || 'no answer');
      resolve({ ok: false, reason: `X display ${display} is not reachable (${why.trim()}): start X there or set the output's display` });
    });
  });
}
