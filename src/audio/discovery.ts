// Capture device listings turned into audio inputs: ALSA cards and PCMs from procfs, PulseAudio sources from
// ffmpeg's own source listing. Pure parsers, so a listing from any box can be checked without that box.
import type { AudioDeviceInputConfig } from '../config/audio.js';
import { deviceNameOk } from '../config/audio.js';
import { AUDIO_LIMITS } from '../limits.js';

const NAME_MAX = 128;
const ID_MAX = 64;

/** An id made of the characters config ids allow, so a discovered input is named like a configured one. */
function idOf(prefix: string, raw: string): string {
  return `${prefix}-${raw.replace(/[^A-Za-z0-9_-]+/g, '_')}`.slice(0, ID_MAX);
}

function nameOf(raw: string): string {
  // Control characters never reach a response or a log line.
  const clean = raw.replace(/[\x00-\x1f\x7f]+/g, ' ').trim();
  return (clean === '' ? 'capture device' : clean).slice(0, NAME_MAX);
}

/** Card index to `{id, name}` from `/proc/asound/cards` (` 0 [PCH            ]: HDA-Intel - HDA Intel PCH`). */
export function parseAlsaCards(text: string): Map<number, { id: string; name: string }> {
  const cards = new Map<number, { id: string; name: string }>();
  for (const line of text.split('\n')) {
    const m = /^\s*(\d{1,3}) \[([A-Za-z0-9_]{1,32})\s*\]: \S+ - (.*)$/.exec(line);
    if (m) cards.set(Number(m[1]), { id: m[2]!, name: m[3]!.trim() });
  }
  return cards;
}

/**
 * Capture PCMs from `/proc/asound/pcm` (`00-00: ALC887 Analog : ALC887 Analog : playback 1 : capture 1`), opened
 * through the `plughw` plugin by card id, so ffmpeg gets 48 kHz whatever the hardware's own rates and the id stays
 * the same when cards are plugged in another order.
 */
export function parseAlsaPcms(pcmText: string, cards: Map<number, { id: string; name: string }>): AudioDeviceInputConfig[] {
  const out: AudioDeviceInputConfig[] = [];
  for (const line of pcmText.split('\n')) {
    const m = /^(\d{2,3})-(\d{2,3}): ([^:]*):/.exec(line);
    if (!m || !/: capture \d+/.test(line)) continue;
    const card = cards.get(Number(m[1]));
    if (!card) continue;
    const dev = Number(m[2]);
    const device = `plughw:CARD=${card.id},DEV=${dev}`;
    if (!deviceNameOk(device)) continue;
    out.push({ id: idOf('alsa', `${card.id}-${dev}`), name: nameOf(`${card.name}: ${m[3]}`), kind: 'alsa', device });
    if (out.length >= AUDIO_LIMITS.devicesMax) break;
  }
  return out;
}

/** The sources of `ffmpeg -sources pulse` (`* name [description] (none)`); a name outside the whitelist is left out. */
export function parsePulseSources(text: string): AudioDeviceInputConfig[] {
  const out: AudioDeviceInputConfig[] = [];
  for (const line of text.split('\n')) {
    const m = /^[* ] (\S+) \[(.*)\]/.exec(line);
    if (!m || !deviceNameOk(m[1]!)) continue;
    out.push({ id: idOf('pulse', m[1]!), name: nameOf(m[2]!), kind: 'pulse', device: m[1]! });
    if (out.length >= AUDIO_LIMITS.devicesMax) break;
  }
  return out;
}

/** True when `ffmpeg -sources pulse` reached a server (it prints why not otherwise, and exits 0 either way). */
export function pulseAnswered(text: string): boolean {
  return text.includes('Auto-detected sources') && !/Cannot list sources/.test(text);
}

/** Demuxers (capture formats) in `ffmpeg -devices`: lines like ` D  alsa` and ` DE pulse`. */
export function captureFormats(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^ D[E ] (\S+)/.exec(line);
    if (m) out.add(m[1]!);
  }
  return out;
}
