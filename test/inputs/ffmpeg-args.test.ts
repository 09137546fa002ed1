// Tests for the pure ffmpeg command-line building and stderr parsing of the ingest worker.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { buildFfmpegArgs, isMeaningfulError, parseOutputSize, parseStderrLine, videoFilter } from '../../workers/ingest/ffmpeg-args.js';
import type { IngestInput } from '../../src/shared/protocol/ingest.js';

const base = { maxWidth: 1280, maxHeight: 720, fps: 30 };
const args = (input: IngestInput, extra: Partial<typeof base> = {}) => buildFfmpegArgs({ ...base, ...extra, input });

/** The values that follow each occurrence of a flag. */
function valuesOf(list: string[], flag: string): string[] {
  return list.flatMap((a, i) => (a === flag ? [list[i + 1]!] : []));
}

function before(list: string[], a: string, b: string): boolean {
  return list.indexOf(a) >= 0 && list.indexOf(a) < list.indexOf(b);
}

test('common shape: quiet but informative log, video only, packed RGBA on stdout', () => {
  const a = args({ kind: 'lavfi', pattern: 'smptehdbars' });
  assert.equal(a.slice(0, 3), ['-hide_banner', '-nostdin', '-nostats']);
  assert.equal(valuesOf(a, '-loglevel'), ['level+info']);
  assert.equal(valuesOf(a, '-map'), ['0:v:0']);
  assert.ok(a.includes('-an'));
  assert.equal(valuesOf(a, '-f').at(-1), 'rawvideo');
  assert.equal(valuesOf(a, '-pix_fmt'), ['rgba']);
  assert.equal(valuesOf(a, '-fps_mode'), ['passthrough']);
  assert.is(a.at(-1), 'pipe:1');
});

test('lavfi input is paced with -re', () => {
  const a = args({ kind: 'lavfi', pattern: 'color=c=red' });
  assert.ok(before(a, '-re', '-i'));
  assert.equal(valuesOf(a, '-i'), ['color=c=red']);
  assert.equal(valuesOf(a, '-f')[0], 'lavfi');
});

test('network URLs are read as given, unpaced, with a short analysis; file paths loop at native rate', () => {
  const tcp = args({ kind: 'url', url: 'tcp://127.0.0.1:5000?listen' });
  assert.equal(valuesOf(tcp, '-i'), ['tcp://127.0.0.1:5000?listen']);
  assert.not.ok(tcp.includes('-re'));
  assert.equal(valuesOf(tcp, '-analyzeduration'), ['500000']);
  assert.ok(before(tcp, '-analyzeduration', '-i'));
  for (const url of ['udp://@:1234', 'srt://host:9000', 'rtsp://cam/stream', 'http://host/live.ts']) {
    assert.not.ok(args({ kind: 'url', url }).includes('-re'), url);
  }
  for (const url of ['/media/loop.mp4', 'file:/media/loop.mp4']) {
    const f = args({ kind: 'url', url });
    assert.ok(before(f, '-re', '-i'), url);
    assert.equal(valuesOf(f, '-stream_loop'), ['-1']);
  }
});

test('v4l2 and media files', () => {
  const v = args({ kind: 'v4l2', device: '/dev/video0' });
  assert.equal(valuesOf(v, '-f')[0], 'v4l2');
  assert.equal(valuesOf(v, '-i'), ['/dev/video0']);
  const video = args({ kind: 'file', path: '/m/clip.mp4', still: false });
  assert.ok(before(video, '-re', '-i') && before(video, '-stream_loop', '-i'));
  assert.equal(valuesOf(video, '-stream_loop'), ['-1']);
  assert.not.ok(video.includes('-frames:v'));
  const still = args({ kind: 'file', path: '/m/logo.png', still: true });
  assert.not.ok(still.includes('-re') || still.includes('-stream_loop'));
  assert.equal(valuesOf(still, '-frames:v'), ['1']);
  assert.not.ok(valuesOf(still, '-vf')[0]!.includes('select'), 'one frame needs no rate cap');
});

test('filter fits the box with even sides and caps the rate without duplicating', () => {
  const vf = valuesOf(args({ kind: 'lavfi', pattern: 'testsrc2' }), '-vf')[0]!;
  assert.match(vf, /scale=w=1280:h=720:force_original_aspect_ratio=decrease:force_divisible_by=2/);
  assert.match(vf, /^select='isnan\(prev_selected_t\)\+isnan\(t\)\+gte\(abs\(t-prev_selected_t\)\\,0\.030000\)'/);
  const odd = valuesOf(args({ kind: 'lavfi', pattern: 'testsrc2' }, { maxWidth: 161, maxHeight: 91, fps: 10 }), '-vf')[0]!;
  assert.match(odd, /scale=w=160:h=90:/);
  assert.match(odd, /0\.090000/);
  assert.is(videoFilter(64, 36, null), 'scale=w=64:h=36:force_original_aspect_ratio=decrease:force_divisible_by=2');
  assert.throws(() => args({ kind: 'lavfi', pattern: 'x' }, { fps: 0 }), /fps/);
  assert.throws(() => args({ kind: 'lavfi', pattern: 'x' }, { maxWidth: 1 }), /too small/);
});

test('stderr lines: level, context, text', () => {
  assert.equal(parseStderrLine("[lavfi @ 0x56491c29d900] [error] No such filter: 'nosuchsource'"), {
    level: 'error',
    context: 'lavfi',
    text: "No such filter: 'nosuchsource'",
  });
  assert.equal(parseStderrLine('[error] nosuchsource: Invalid argument'), {
    level: 'error',
    context: '',
    text: 'nosuchsource: Invalid argument',
  });
  assert.equal(
    parseStderrLine('[video4linux2,v4l2 @ 0x55f092bc2900] [error] Cannot open video device /dev/video9: No such file or directory')
      ?.context,
    'video4linux2,v4l2',
  );
  assert.is(parseStderrLine('no level tag here'), null);
});

test('output size from the Output #0 stream line only', () => {
  const out =
    'Stream #0:0: Video: rawvideo (RGBA / 0x41424752), rgba(pc, gbr/unknown/unknown, progressive), 120x90 [SAR 1:1 DAR 4:3], q=2-31, 8640 kb/s, 25 fps, 25 tbn';
  assert.equal(parseOutputSize(out), { width: 120, height: 90 });
  const input = 'Stream #0:0: Video: h264 (High), yuv420p(progressive), 1920x1080, 30 fps';
  assert.is(parseOutputSize(input), null);
});

test('meaningful errors exclude per-packet decoder noise and non-errors', () => {
  const e = (text: string, level = 'error') => isMeaningfulError({ level, context: '', text });
  assert.ok(e('/dev/video9: No such file or directory'));
  assert.ok(e('Connection refused', 'fatal'));
  assert.not.ok(e('error while decoding MB 3 4, bytestream -5'));
  assert.not.ok(e('concealing 200 DC, 200 AC, 200 MV errors in P frame'));
  assert.not.ok(e('Packet corrupt (stream = 0, dts = 207000).', 'warning'));
  assert.not.ok(e(''));
});

test.run();
